/**
 * Later statements replace earlier ones. A correction, decision or note is compared with the
 * older events that share its words; an older preference or fact is replaced when the newer one
 * rejects its value ("use pnpm, not npm" replaces "we use npm") or states the same subject with a
 * different value ("the staging port is 8081" replaces "staging runs on port 8080"). Recorded in
 * memory_supersessions, which outlives the events so summaries keep reading right.
 *
 * Runs in bounded steps after writes (a batch import checks its corrections later, before any
 * summary or search needs them); the step for an event looks only at older events, so when it
 * runs does not change what it decides.
 */
import { immediate } from "../db/open.ts";
import { candidates } from "./candidates.ts";
import { isClaim, lookupWords, type Rarity, replacesText, type Statement, statementOf } from "./classify.ts";
import type { MemoryDeps } from "./deps.ts";
import { type EventRow, eventsById } from "./events.ts";
import { porterStem } from "./stem.ts";
import { canonicalStem } from "./synonyms.ts";
import type { EventKind } from "./types.ts";

const SUPERSEDERS: ReadonlySet<EventKind> = new Set(["correction", "decision", "note"]);
const STATEMENTS: ReadonlySet<EventKind> = new Set(["correction", "decision", "note", "prompt", "answer"]);
/** Rows scanned per step, and older events compared per correction. */
const SCAN = 5000;
const COMPARE = 40;
const LOOKUP_WORDS = 5;

/** Does `newer` replace the older event `old`? Only statements are replaced: not questions, tasks, commands, errors or files. */
export function replaces(newer: Statement, old: EventRow, rarity?: Rarity): boolean {
  if (!STATEMENTS.has(old.kind)) return false;
  if ((old.kind === "prompt" || old.kind === "answer") && !isClaim(old.content)) return false;
  return replacesText(newer, old.content, rarity);
}

/** The older events one statement replaces. */
export function findReplaced(deps: MemoryDeps, event: EventRow): number[] {
  const statement = statementOf(event.content);
  if (statement.keys.size === 0) return [];
  // Its own words find what it may replace (an older statement of the same thing shares them).
  const words = lookupWords(event.content).slice(0, LOOKUP_WORDS);
  const query = words.map((word, group) => ({ word, stem: porterStem(word), group, weight: 1 }));
  const { ids, terms } = candidates(deps.db, "events", query, {
    projectId: event.project_id,
    single: deps.registry.single(),
    beforeId: event.id,
    keep: COMPARE,
    kinds: [...STATEMENTS],
  });
  // How common a word is, from the counts the lookup just made; identifiers count as rare.
  const df = new Map(terms.map((t) => [canonicalStem(t.stem), t.df]));
  const rarity: Rarity = (key) => (/\d|[^\p{L}]/u.test(key) ? 1 : (df.get(key) ?? 10));
  return eventsById(deps, ids)
    .filter((old) => old.project_id === event.project_id && replaces(statement, old, rarity))
    .map((old) => old.id);
}

const stateKey = (projectId: number) => `superseded_through:${projectId}`;

function checkedThrough(deps: MemoryDeps, projectId: number): number {
  return Number(
    deps.db.query<{ value: string }, [string]>("SELECT value FROM memory_state WHERE key = ?").get(stateKey(projectId))?.value ?? 0,
  );
}

export type StepResult = { recorded: number; pending: boolean };

/**
 * Checks the project's next unchecked events until `deadline` (performance.now() time): each
 * correction, decision or note is compared with older events; progress is saved after each batch,
 * so a step cut short by the deadline resumes where it stopped.
 */
export function supersedeStep(deps: MemoryDeps, projectId: number, deadline: number): StepResult {
  const { db } = deps;
  const from = checkedThrough(deps, projectId);
  const rows = db
    .query<Pick<EventRow, "id" | "project_id" | "kind">, [number, number]>(
      "SELECT id, project_id, kind FROM memory_events WHERE id > ? ORDER BY id LIMIT ?",
    )
    .all(from, SCAN);
  if (rows.length === 0) return { recorded: 0, pending: false };
  const found: [number, number][] = [];
  let through = from;
  let cut = false;
  for (const r of rows) {
    if (r.project_id === projectId && SUPERSEDERS.has(r.kind)) {
      if (performance.now() > deadline && through > from) {
        cut = true;
        break;
      }
      const e = eventsById(deps, [r.id])[0];
      if (e) for (const old of findReplaced(deps, e)) found.push([old, e.id]);
    }
    through = r.id;
  }
  immediate(db, () => {
    const record = db.query("INSERT OR IGNORE INTO memory_supersessions (old_id, new_id, project_id) VALUES (?, ?, ?)");
    for (const [old, newer] of found) record.run(old, newer, projectId);
    db.query(
      "INSERT INTO memory_state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(?2 AS INTEGER))",
    ).run(stateKey(projectId), String(through));
  });
  return { recorded: found.length, pending: cut || rows.length === SCAN };
}

/** A new project has nothing older to check: its checks start after the newest event of any project. */
export function startChecks(deps: Pick<MemoryDeps, "db">, projectId: number): void {
  deps.db
    .query("INSERT OR IGNORE INTO memory_state (key, value) VALUES (?, (SELECT coalesce(max(id), 0) FROM memory_events))")
    .run(stateKey(projectId));
}

/** True when every event up to `id` has been checked. */
export function checkedUpTo(deps: MemoryDeps, projectId: number, id: number): boolean {
  return checkedThrough(deps, projectId) >= id;
}

/** The events that directly replaced each id, newest first (ids nothing replaced are left out). */
export function replacers(deps: MemoryDeps, ids: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  const all = [...new Set(ids)];
  for (let i = 0; i < all.length; i += 500) {
    const part = all.slice(i, i + 500);
    const rows = deps.db
      .query<{ old_id: number; new_id: number }, number[]>(
        `SELECT old_id, new_id FROM memory_supersessions WHERE old_id IN (${part.map(() => "?").join(",")}) ORDER BY old_id, new_id DESC`,
      )
      .all(...part);
    for (const r of rows) {
      const list = out.get(r.old_id) ?? [];
      list.push(r.new_id);
      out.set(r.old_id, list);
    }
  }
  return out;
}

/** The newest replacement of each id (following chains: a correction of a correction), for those replaced. */
export function replacements(deps: MemoryDeps, ids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  const direct = replacers(deps, ids);
  if (direct.size === 0) return out;
  const get = deps.db.query<{ new_id: number | null }, [number]>("SELECT max(new_id) AS new_id FROM memory_supersessions WHERE old_id = ?");
  for (const [id, newer] of direct) {
    let current = newer[0]!;
    for (let hops = 0; hops < 20; hops++) {
      const next = get.get(current)?.new_id ?? null;
      if (next === null || next === current) break;
      current = next;
    }
    out.set(id, current);
  }
  return out;
}
