/**
 * Pruning, messages in and messages out: tool results the rules allow (rules.ts) are replaced
 * by pointers to their exact text in the context store (pointer.ts). It happens in batches: only
 * when what is due clears at least `clearAtLeast` tokens, so between batches the messages sent
 * are byte-identical to the last call's (prompt caches keep working). A batch's pointers are
 * kept (by call id and text hash: two results under one call id each keep their own), so every
 * later call, a resumed session or a fork applies the same ones. What the store cannot take
 * stays as it was. Read-cache markers never outlive the text they stand on (markers.ts).
 */
import { type Db, immediateAsync } from "../db/open.ts";
import { errorMessage } from "../errors.ts";
import { sha256 } from "../hash.ts";
import { redact } from "../redact/redact.ts";
import { type MarkerDeps, markerPlan } from "./markers.ts";
import { type Keyed, type Message, resultsOf } from "./messages.ts";
import { fetchedLines, lostMarkerText, pointerText, type Rehydrate, readLines, receiptOf } from "./pointer.ts";
import { isPrunable, outsideKeptTurns, type PruneSettings, settingsAt } from "./rules.ts";

export type { MarkerDeps } from "./markers.ts";

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
  /** False: no result is pruned by the rules (pruning is off); stranded read-cache markers still go. */
  pruneResults?: boolean;
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
  /** The read cache's markers (none: no result is a marker). */
  markers?: MarkerDeps;
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
type Due = Keyed & { tokens: number; estimate: number };

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
  // Every string that reaches the database is redacted, call ids too (kept: a session asks for the same ones).
  const ids = new Map<string, string>();
  const idOf = (callId: string): string => {
    let id = ids.get(callId);
    if (id === undefined) {
      id = redact(callId).text;
      ids.set(callId, id);
      while (ids.size > COUNT_CACHE) ids.delete(ids.keys().next().value!);
    }
    return id;
  };

  const rowsFor = (keyed: Keyed[]): Map<string, Row> => {
    if (keyed.length === 0) return new Map();
    const rows = deps.db
      .query<Row, [string]>("SELECT * FROM prune_pointers WHERE call_id IN (SELECT value FROM json_each(?))")
      .all(JSON.stringify([...new Set(keyed.map((k) => k.id))]));
    return new Map(rows.map((r) => [`${r.call_id}\n${r.text_hash}`, r]));
  };

  /** Stores one result's text (or reuses its receipt's source) and makes its pointer row. */
  const pruneOne = async (k: Keyed, input: PruneInput, tokens: number): Promise<Row | string> => {
    const v = k.view;
    // A receipt's text, or a context_get answer's lines, are in the store already.
    const already = receiptOf(v)?.sourceId ?? fetchedLines(v)?.sourceId ?? null;
    let source = already !== null && deps.existing([already]).size > 0 ? already : null;
    if (source === null) {
      const stored = await deps.store({
        text: v.text,
        tool: v.tool,
        session: input.session ?? null,
        project: input.project,
        label: `pruned ${v.tool} result ${v.callId}`,
      });
      if (!stored.ok) return `${v.tool} ${v.callId}: ${stored.message}`;
      source = stored.sourceId;
    }
    const pointer = redact(pointerText(v, source, deps.rehydrate)).text;
    const [after] = await tokensOf([{ hash: sha256(pointer), text: pointer }]);
    return {
      call_id: k.id,
      text_hash: k.hash,
      source,
      pointer,
      tool: redact(v.tool).text,
      tokens_before: tokens,
      tokens_after: after!,
    };
  };

  /** Keeps pointer rows; a batch (the prefix sent changed) is recorded once. */
  const keep = async (all: Row[], input: PruneInput, batch: { adaptive: boolean } | null) => {
    const session = input.session ? redact(input.session).text : null;
    // One row per result (call id and text): the batch counts what the pointer table holds.
    const rows = [...new Map(all.map((r) => [`${r.call_id}\n${r.text_hash}`, r])).values()];
    await immediateAsync(deps.db, async () => {
      const insert = deps.db.query(
        "INSERT OR REPLACE INTO prune_pointers (call_id, text_hash, source, pointer, tool, session, tokens_before, tokens_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      );
      for (const r of rows) {
        insert.run(r.call_id, r.text_hash, r.source, r.pointer, r.tool, session, r.tokens_before, r.tokens_after, deps.now());
      }
      if (!batch) return;
      deps.db
        .query("INSERT INTO prune_batches (at, session, results, tokens_before, tokens_after, adaptive) VALUES (?, ?, ?, ?, ?, ?)")
        .run(
          deps.now(),
          session,
          rows.length,
          rows.reduce((s, r) => s + r.tokens_before, 0),
          rows.reduce((s, r) => s + r.tokens_after, 0),
          batch.adaptive ? 1 : 0,
        );
    });
  };

  /** Stores each item's text and makes its row; what the store cannot take is a problem, and stays. */
  const makeRows = async (items: { k: Keyed; tokens: number }[], input: PruneInput, problems: string[]): Promise<Row[]> => {
    const rows: Row[] = [];
    for (const { k, tokens } of items) {
      try {
        const r = await pruneOne(k, input, tokens);
        if (typeof r === "string") problems.push(r);
        else rows.push(r);
      } catch (error) {
        problems.push(`${k.view.tool} ${k.view.callId}: ${errorMessage(error)}`);
      }
    }
    return rows;
  };

  return {
    async prune(input: PruneInput): Promise<PruneOutput> {
      const settings = settingsAt({ ...deps.settings, ...input.settings }, input.usagePercent);
      const pinned = new Set(input.pinned ?? []);
      const all: Keyed[] = resultsOf(input.messages).map((view) => {
        const id = idOf(view.callId);
        const hash = sha256(view.text);
        return { view, id, hash, key: `${id}\n${hash}` };
      });
      const rows = rowsFor(all);
      const markers = markerPlan(all, deps.markers);
      const candidates =
        input.pruneResults === false
          ? []
          : all.filter((k) => !k.view.images && !pinned.has(k.view.callId) && !markers.isMarker(k) && outsideKeptTurns(k.view, settings));
      const applied = new Map<string, Row>();
      let due: Keyed[] = [];
      for (const k of candidates) {
        const row = rows.get(k.key);
        if (row) applied.set(k.key, row);
        else if (isPrunable(k.view, settings, pinned)) due.push(k);
      }
      const problems: string[] = [];
      // A pointer whose text retention dropped is stored again from the message (the session has it).
      const live = deps.existing([...new Set([...applied.values()].map((r) => r.source))]);
      const restore = all.filter((k) => applied.has(k.key) && !live.has(applied.get(k.key)!.source));
      for (const k of restore) applied.delete(k.key);
      // A read a recent marker stands on stays in view (else the marker would go at once).
      due = markers.keepBases(due, (k) => applied.has(k.key), settings).concat(restore);
      const dueTokens = await tokensOf(due.map((k) => ({ hash: k.hash, text: k.view.text })));
      const estimate = await tokensOf(
        due.map((k) => ({ hash: `pointer:${k.hash}`, text: pointerText(k.view, "ctx_00000000", deps.rehydrate) })),
      );
      const dues: Due[] = due.map((k, i) => ({ ...k, tokens: dueTokens[i]!, estimate: estimate[i]! }));
      const pending = dues.reduce((s, d) => s + Math.max(0, d.tokens - d.estimate), 0);
      const batch: Row[] = [];
      if (dues.length > 0 && (pending >= settings.clearAtLeast || restore.length > 0)) {
        batch.push(
          ...(await makeRows(
            dues.map((d) => ({ k: d, tokens: d.tokens })),
            input,
            problems,
          )),
        );
      }
      for (const r of batch) applied.set(`${r.call_id}\n${r.text_hash}`, r);
      // Markers whose text is no longer sent become pointers to the exact text they stood for.
      const stranded = markers.stranded((k) => !applied.has(k.key));
      const notes = new Map<string, string>();
      const fresh: { k: Keyed; tokens: number }[] = [];
      for (const s of stranded) {
        const row = rows.get(s.k.key);
        if (row && (live.has(row.source) || deps.existing([row.source]).size > 0)) applied.set(s.k.key, row);
        else if (s.text === null) notes.set(s.k.key, lostMarkerText(s.k.view));
        else
          fresh.push({
            k: { ...s.k, view: { ...s.k.view, text: s.text } },
            tokens: (await tokensOf([{ hash: s.k.hash, text: s.k.view.text }]))[0]!,
          });
      }
      const markerRows = await makeRows(fresh, input, problems);
      for (const r of markerRows) applied.set(`${r.call_id}\n${r.text_hash}`, r);
      const kept = [...batch, ...markerRows];
      if (kept.length > 0) {
        try {
          await keep(kept, input, batch.length > 0 ? { adaptive: settings.adaptive } : null);
        } catch (error) {
          problems.push(`the pointers could not be kept: ${errorMessage(error)}`);
          for (const r of kept) applied.delete(`${r.call_id}\n${r.text_hash}`);
          batch.length = 0;
        }
      }
      const messages = input.messages.slice();
      const pruned: PrunedResult[] = [];
      const inBatch = new Set(batch.map((r) => `${r.call_id}\n${r.text_hash}`));
      const batchOut: PrunedResult[] = [];
      for (const k of all) {
        const row = applied.get(k.key);
        const note = notes.get(k.key);
        if (!row && note === undefined) continue;
        const v = k.view;
        messages[v.index] = { ...input.messages[v.index]!, content: [{ type: "text", text: row?.pointer ?? note! }] };
        const p = {
          callId: v.callId,
          tool: v.tool,
          source: row?.source ?? "",
          tokensBefore: row?.tokens_before ?? 0,
          tokensAfter: row?.tokens_after ?? 0,
          read: readLines(v),
        };
        pruned.push(p);
        if (inBatch.has(k.key)) batchOut.push(p);
      }
      return { messages, pruned, batch: batchOut, pending: batch.length > 0 ? 0 : pending, settings, problems };
    },
  };
}

export type Pruner = ReturnType<typeof createPruner>;
