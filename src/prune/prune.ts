/**
 * Pruning, messages in and messages out: tool results the rules allow (rules.ts) are replaced
 * by pointers to their exact text in the context store (pointer.ts). It happens in batches: only
 * when what is due clears at least `clearAtLeast` tokens, so between batches the messages sent
 * are byte-identical to the last call's (prompt caches keep working). A batch's pointers are
 * kept (by call id and text hash), so every later call, a resumed session or a fork applies the
 * same ones. What the store cannot take stays as it was.
 */
import { type Db, immediateAsync } from "../db/open.ts";
import { errorMessage } from "../errors.ts";
import { sha256 } from "../hash.ts";
import { redact } from "../redact/redact.ts";
import { type Message, type ResultView, resultsOf } from "./messages.ts";
import { fetchedLines, pointerText, type Rehydrate, readLines, receiptOf } from "./pointer.ts";
import { isPrunable, outsideKeptTurns, type PruneSettings, settingsAt } from "./rules.ts";

export type PruneInput = {
  messages: Message[];
  session?: string | null;
  project?: string;
  /** Call ids the user pinned (never pruned; a pinned result that was pruned comes back). */
  pinned?: string[];
  /** How full the context window is (percent), when the host knows. */
  usagePercent?: number | null;
  /** Overrides of the configured settings. */
  settings?: Partial<PruneSettings>;
};

export type PrunedResult = {
  callId: string;
  tool: string;
  source: string;
  tokensBefore: number;
  tokensAfter: number;
  /** For a read: the file lines no longer in view. */
  read: { path: string; from: number; to: number } | null;
};

export type PruneOutput = {
  messages: Message[];
  /** Every result replaced in this answer (this batch's and earlier ones'). */
  pruned: PrunedResult[];
  /** This call's batch; empty between batches (the prefix sent is unchanged). */
  batch: PrunedResult[];
  /** Tokens a batch would clear now (it runs at clearAtLeast). */
  pending: number;
  settings: PruneSettings & { adaptive: boolean };
  /** Results that were due but stay, and why (the store could not take them). */
  problems: string[];
};

export type StoreInput = { text: string; tool: string; session?: string | null; project?: string; label: string };

export type PrunerDeps = {
  db: Db;
  now: () => number;
  settings: PruneSettings;
  rehydrate: Rehydrate;
  /** Tokens of each text (a real tokenizer). */
  count(texts: string[]): Promise<number[]>;
  /** Stores a text in the context store. */
  store(input: StoreInput): Promise<{ ok: true; sourceId: string } | { ok: false; message: string }>;
  /** Which of these sources are still in the store. */
  existing(sourceIds: string[]): Set<string>;
};

type Row = {
  call_id: string;
  text_hash: string;
  source: string;
  pointer: string;
  tool: string;
  tokens_before: number;
  tokens_after: number;
};
type Due = { view: ResultView; hash: string; tokens: number; estimate: number };

/** Token counts are kept by text hash: a long session asks about the same results every call. */
const COUNT_CACHE = 20_000;

export function createPruner(deps: PrunerDeps) {
  const counted = new Map<string, number>();
  const tokensOf = async (items: { hash: string; text: string }[]): Promise<number[]> => {
    const missing = items.filter((i) => !counted.has(i.hash));
    if (missing.length > 0) {
      const n = await deps.count(missing.map((i) => i.text));
      for (const [k, i] of missing.entries()) counted.set(i.hash, n[k]!);
      while (counted.size > COUNT_CACHE) counted.delete(counted.keys().next().value!);
    }
    return items.map((i) => counted.get(i.hash)!);
  };

  const rowsFor = (views: ResultView[]): Map<string, Row> => {
    if (views.length === 0) return new Map();
    const rows = deps.db
      .query<Row, [string]>("SELECT * FROM prune_pointers WHERE call_id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify(views.map((v) => v.callId)));
    return new Map(rows.map((r) => [`${r.call_id}\n${r.text_hash}`, r]));
  };

  /** Stores one due result (or reuses its receipt's source) and keeps its pointer. */
  const pruneOne = async (d: Due, input: PruneInput): Promise<Row | string> => {
    // A receipt's text, or a context_get answer's lines, are in the store already.
    const already = receiptOf(d.view)?.sourceId ?? fetchedLines(d.view)?.sourceId ?? null;
    let source = already !== null && deps.existing([already]).size > 0 ? already : null;
    if (source === null) {
      const stored = await deps.store({
        text: d.view.text,
        tool: d.view.tool,
        session: input.session ?? null,
        project: input.project,
        label: `pruned ${d.view.tool} result ${d.view.callId}`,
      });
      if (!stored.ok) return `${d.view.tool} ${d.view.callId}: ${stored.message}`;
      source = stored.sourceId;
    }
    const pointer = redact(pointerText(d.view, source, deps.rehydrate)).text;
    const [after] = await tokensOf([{ hash: sha256(pointer), text: pointer }]);
    return {
      call_id: d.view.callId,
      text_hash: d.hash,
      source,
      pointer,
      tool: d.view.tool,
      tokens_before: d.tokens,
      tokens_after: after!,
    };
  };

  const keep = async (all: Row[], input: PruneInput, adaptive: boolean) => {
    // One row per result (call id and text): the batch counts what the pointer table holds.
    const rows = [...new Map(all.map((r) => [`${r.call_id}\n${r.text_hash}`, r])).values()];
    await immediateAsync(deps.db, async () => {
      const insert = deps.db.query(
        "INSERT OR REPLACE INTO prune_pointers (call_id, text_hash, source, pointer, tool, session, tokens_before, tokens_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const r of rows) {
        insert.run(r.call_id, r.text_hash, r.source, r.pointer, r.tool, input.session ?? null, r.tokens_before, r.tokens_after, deps.now());
      }
      deps.db
        .query("INSERT INTO prune_batches (at, session, results, tokens_before, tokens_after, adaptive) VALUES (?, ?, ?, ?, ?, ?)")
        .run(
          deps.now(),
          input.session ?? null,
          rows.length,
          rows.reduce((s, r) => s + r.tokens_before, 0),
          rows.reduce((s, r) => s + r.tokens_after, 0),
          adaptive ? 1 : 0,
        );
    });
  };

  return {
    async prune(input: PruneInput): Promise<PruneOutput> {
      const settings = settingsAt({ ...deps.settings, ...input.settings }, input.usagePercent);
      const pinned = new Set(input.pinned ?? []);
      const views = resultsOf(input.messages).filter((v) => !v.images && !pinned.has(v.callId) && outsideKeptTurns(v, settings));
      const hashes = new Map(views.map((v) => [v.callId, sha256(v.text)]));
      const rows = rowsFor(views);
      const applied = new Map<string, Row>();
      const due: ResultView[] = [];
      for (const v of views) {
        const row = rows.get(`${v.callId}\n${hashes.get(v.callId)}`);
        if (row) applied.set(v.callId, row);
        else if (isPrunable(v, settings, pinned)) due.push(v);
      }
      const problems: string[] = [];
      // A pointer whose text retention dropped is stored again from the message (the session has it).
      const live = deps.existing([...new Set([...applied.values()].map((r) => r.source))]);
      const restore = [...applied.values()].filter((r) => !live.has(r.source));
      const batch: Row[] = [];
      if (restore.length > 0) {
        for (const r of restore) {
          applied.delete(r.call_id);
          due.push(views.find((v) => v.callId === r.call_id)!);
        }
      }
      const dueTokens = await tokensOf(due.map((v) => ({ hash: hashes.get(v.callId)!, text: v.text })));
      const estimate = await tokensOf(
        due.map((v) => ({ hash: `pointer:${hashes.get(v.callId)}`, text: pointerText(v, "ctx_00000000", deps.rehydrate) })),
      );
      const dues: Due[] = due.map((view, i) => ({ view, hash: hashes.get(view.callId)!, tokens: dueTokens[i]!, estimate: estimate[i]! }));
      const pending = dues.reduce((s, d) => s + Math.max(0, d.tokens - d.estimate), 0);
      if (dues.length > 0 && (pending >= settings.clearAtLeast || restore.length > 0)) {
        for (const d of dues) {
          try {
            const r = await pruneOne(d, input);
            if (typeof r === "string") problems.push(r);
            else batch.push(r);
          } catch (error) {
            problems.push(`${d.view.tool} ${d.view.callId}: ${errorMessage(error)}`);
          }
        }
        if (batch.length > 0) {
          try {
            await keep(batch, input, settings.adaptive);
            for (const r of batch) applied.set(r.call_id, r);
          } catch (error) {
            problems.push(`the pointers could not be kept: ${errorMessage(error)}`);
            batch.length = 0;
          }
        }
      }
      const messages = input.messages.slice();
      const pruned: PrunedResult[] = [];
      for (const v of views) {
        const row = applied.get(v.callId);
        if (!row) continue;
        messages[v.index] = { ...input.messages[v.index]!, content: [{ type: "text", text: row.pointer }] };
        pruned.push({
          callId: v.callId,
          tool: v.tool,
          source: row.source,
          tokensBefore: row.tokens_before,
          tokensAfter: row.tokens_after,
          read: readLines(v),
        });
      }
      const inBatch = new Set(batch.map((r) => r.call_id));
      return {
        messages,
        pruned,
        batch: pruned.filter((p) => inBatch.has(p.callId)),
        pending: batch.length > 0 ? 0 : pending,
        settings,
        problems,
      };
    },
  };
}

export type Pruner = ReturnType<typeof createPruner>;
