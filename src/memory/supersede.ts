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
import { IN_ID_LIST, idList } from "../db/id-list.ts";
import { immediate } from "../db/open.ts";
import { candidates, idfOf, projectEventsThrough } from "./candidates.ts";
import {
  changeSentences,
  firstWord,
  isClaim,
  labelOf,
  type Statement,
  statementKind,
  statementOf,
  subjectOf,
  tokenKeys,
  valueLike,
  withoutKindLabel,
} from "./classify.ts";
import { compare, otherSubjects, type Weigh } from "./compare-statements.ts";
import type { MemoryDeps } from "./deps.ts";
import { EVENT_COLUMNS, type EventRow, eventsById } from "./events.ts";
import { keyGroups } from "./query.ts";
import type { EventKind } from "./types.ts";

/** What may replace an older statement: the user's statements and corrections, notes and decisions (not the assistant's answers). */
const SUPERSEDERS: ReadonlySet<EventKind> = new Set(["correction", "decision", "note", "prompt"]);
const STATEMENTS: ReadonlySet<EventKind> = new Set(["correction", "decision", "note", "prompt", "answer"]);
/** Rows scanned per step, and older events compared per statement. */
const SCAN = 5000;
const SCAN_PART = 500;
const COMPARE = 40;
const LOOKUP_WORDS = 6;
/** Rows each of those words brings (the newest): a statement is compared with a few dozen older ones. */
const LOOKUP_ROWS = 60;
/** A word at most this many older statements hold names one thing (a tool, a service, a person). */
const RARE_SUBJECT_DF = 10;
const RARE_SUBJECT_SHARE = 0.02;
/** A correction replaces the older statements that share nearly as much of its subject as the best one. */
const NEAR_BEST = 0.75;
/** ... and that share at least this much of what the shorter of the two says (keys weighted by rarity). */
const MIN_SHARE = 0.3;

/**
 * A newer statement sets a value the older one has no place for: every value it asserts is a
 * number and the older one says no number at all ("bump the client lib to 3.2.1" and "we picked
 * the client lib over the raw driver" speak of one name, not of one setting). Its whole text is
 * read: a number in a bracketed aside ("gravity (0, -9.81, 0)") is a place for one too.
 */
function otherValue(newer: Statement, old: ReadonlySet<string>, oldText: string): boolean {
  const number = (k: string) => /\d/.test(k);
  const asserted = [...newer.asserted].filter((a) => !newer.rejected.has(a));
  return asserted.length > 0 && asserted.every((a) => number(a) && !old.has(a)) && !number(oldText);
}

/** An older statement a newer one may replace: a statement of fact or preference, not a question, task, command, error or file list. */
function replaceable(old: EventRow): boolean {
  if (!STATEMENTS.has(old.kind)) return false;
  return old.kind === "prompt" || old.kind === "answer" ? isClaim(old.content) : true;
}

/**
 * The older events one statement replaces, decided when it is written:
 *
 * - it rejects a value the older statement holds ("moved off structlog" and "logging =
 *   structlog"), and they share more than that value, or the value is rare;
 * - it corrects or changes something (a cue such as "actually", "now", "switched", or stored as a
 *   correction), and the older statement is the one that shares most of its subject (two or more
 *   words or an identifier, weighted by rarity), with a value the newer one does not repeat;
 * - without a cue: it says all the older statement's words but one, and that one is a value.
 *
 * Never when the older statement already holds the value the newer one asserts, or rejects the
 * same thing (two corrections that agree).
 */
export function findReplaced(deps: MemoryDeps, event: EventRow): number[] {
  // A task or question (most prompts) states nothing and changes nothing: decided before the statement is worked out.
  if (event.kind === "prompt" && !isClaim(event.content) && changeSentences(event.content, event.kind).length === 0) return [];
  // Stored as a correction but asking ("wait, X is gone?"): a question replaces nothing (mood.ts).
  if (event.kind === "correction" && statementKind(event.content) === "question" && changeSentences(event.content, event.kind).length === 0)
    return [];
  const newer = statementOf(event.content, event.kind);
  if (newer.keys.size === 0) return [];
  if (event.kind === "prompt" && !newer.changes && !isClaim(event.content)) return [];
  // What it rejects first, then its rarest words (identifiers count as rare), each with its forms.
  // The whole text's words: a change said in one sentence may name its subject in another
  // ("AdMob got our account flagged. moved the placements to AppLovin").
  const whole = tokenKeys(event.content);
  // A label naming the kind of record ("note: ...") is no word of what it is about: two notes share it.
  const bodyKeys = tokenKeys(withoutKindLabel(event.content));
  const words = [...newer.rejected, ...[...newer.keys].filter((k) => !newer.rejected.has(k)), ...whole]
    .flatMap((k) => (valueLike(k) ? (k.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 1) : [k]))
    .filter((w, i, all) => w.length > 1 && all.indexOf(w) === i)
    .slice(0, LOOKUP_WORDS * 2);
  const query = keyGroups(event.content, words);
  // The older statements holding the words, best first.
  const lookup = (q: typeof query, maxGroups: number) =>
    candidates(deps.db, "events", q, {
      projectId: event.project_id,
      single: deps.registry.single(),
      beforeId: event.id,
      keep: COMPARE,
      kinds: [...STATEMENTS],
      perTerm: LOOKUP_ROWS,
      maxGroups,
    });
  const { ids, groups } = lookup(query, LOOKUP_WORDS + 2);
  // What it says is gone or rejected names the thing it replaces: the statements holding it are
  // compared even when others share more of its common words ("dropped crystal. QuestPDF builds
  // invoices and history documents now": "invoice" and "history" are in many statements).
  const named = query.filter((q) => newer.rejected.has(q.word));
  if (named.length > 0) {
    const more = lookup(named, named.length);
    for (const id of more.ids) if (!ids.includes(id)) ids.push(id);
  }
  const total = projectEventsThrough(deps.db, event.project_id, event.id, deps.registry.single());
  const df = new Map(groups.map((g) => [g.word, g.df]));
  const weigh: Weigh = (k) => (valueLike(k) ? idfOf(1, total) : idfOf(df.get(k) ?? 1, total));
  const olds = eventsById(deps, ids).filter((o) => o.project_id === event.project_id && replaceable(o));
  const explicit = event.kind === "correction";
  const known = (k: string) => df.has(k) || !words.includes(k);
  // Rare: in at most RARE_SUBJECT_DF older statements, and in few of all the events (in a short
  // history every word is rare, and says nothing of what a statement is about).
  const rareDf = Math.min(RARE_SUBJECT_DF, RARE_SUBJECT_SHARE * total);
  const out: number[] = [];
  const byCue: { id: number; shared: number }[] = [];
  const bySubject: { id: number; shared: number; rare: number }[] = [];
  // Whether it names what it drops or rejects in an older statement: then that, not a shared word, is the link.
  let dropped = false;
  // Whether it names what it rejects in an older statement: then a link by shared rare words needs two of them.
  let namesOne = false;
  for (const o of olds) {
    const c = compare(newer, event.content, o.content, weigh);
    // An older statement holding both what the newer one asserts and what it rejects ("black for
    // formatting, ruff for lint" and "ruff replaced black") is still replaced.
    if (c.old.size === 0 || c.sameRejection || (c.holdsNew && !c.rejects)) {
      continue;
    }
    // What it rejects names the thing, whatever the words around it, when it is a rare identifier
    // (not a bare number) or what the newer statement is about ("we replaced pino with consola").
    // The same rare thing named by both (a tool, a service, a person: a word few older statements
    // hold), in a user's statement the newer one changes something about.
    // It says what holds now (Statement.states): "kafka lag back to normal" says a state came
    // back, and replaces nothing else said of kafka.
    // Not when it sets a number the older one has no place for (otherValue).
    if (newer.changes && newer.states && o.kind !== "answer" && c.fresh > 0 && !otherValue(newer, c.old, o.content)) {
      // A name is what one of them is about (among its first words), not a verb both use in passing ("run").
      const oldSubject = subjectOf(o.content);
      const about = new Set([...subjectOf(event.content), ...oldSubject]);
      const rare = [...bodyKeys].filter(
        (k) => !valueLike(k) && c.old.has(k) && about.has(k) && (df.get(k) ?? Number.POSITIVE_INFINITY) <= rareDf,
      );
      // Ranked by all they share (a rare word may also be a coincidence: "AppLovin MAX" and "max 2048").
      const all = [...bodyKeys].filter((k) => c.old.has(k));
      // One word shared and nothing else is a link only when the older statement is about it (among
      // its first words): a name it says in passing ("... then the script pings the vendor channel"
      // and "vendor sync moved to thursday") is no link.
      const alone = all.length === 1 && !oldSubject.includes(all[0]!);
      if (rare.length > 0 && !alone) bySubject.push({ id: o.id, shared: all.reduce((s, k) => s + weigh(k), 0), rare: rare.length });
    }
    const dfOf = (k: string) => df.get((k.match(/[\p{L}\p{N}]+/gu) ?? [k])[0]!) ?? 1;
    const namesIt = [...newer.rejected].some(
      (r) => c.held.has(r) && ((valueLike(r) && /\p{L}/u.test(r) && dfOf(r) <= 2) || newer.first === r),
    );
    // A user's statement naming a thing (a word, not a number) the newer one says is gone or
    // replaced ("ripped out the clap crate", "Coil replaces Glide"): it is about that thing, when
    // that is a rare name or they share more than it ("PR previews are gone" says nothing of
    // "squash merge every PR").
    const dropsIt =
      o.kind !== "answer" &&
      newer.changes &&
      [...newer.removed].some((r) => c.held.has(r) && /\p{L}{2}/u.test(r) && (dfOf(r) <= rareDf || c.sharedKeys >= 1));
    if (dropsIt) dropped = true;
    if (namesIt && c.rejects) namesOne = true;
    // Each is about something the other does not name ("the billing service database is X" and
    // "the rate limiter stores its data in Y"): the same kind of fact about another thing.
    // A value swapped for one of its shape beside two shared words is the same attribute of the
    // same thing, however each names it ("sess cache TTL to 2h" and "session cache: TTL 30m").
    const sameAttribute = c.valueSwap && c.sharedKeys >= 2;
    // The same slot: a user's statement or record opens with what the newer one changes ("gitops:
    // argocd, ..." and "moved gitops to flux v2"; "images go to X" and "images now push to Y"),
    // with a value there the newer one does not repeat, and it is labelled by that word or they
    // share another (a name said beside it: "X got expensive. images now push to Y").
    const oldText = withoutKindLabel(o.content);
    const oldHead = subjectOf(oldText)[0];
    const sameSlot =
      newer.changes &&
      o.kind !== "answer" &&
      oldHead !== undefined &&
      newer.slot.includes(oldHead) &&
      c.fresh > 0 &&
      c.gone.length > 0 &&
      (labelOf(oldText) === oldHead || [...whole].filter((k) => c.old.has(k)).length >= 2);
    if (
      !namesIt &&
      !dropsIt &&
      !sameAttribute &&
      !sameSlot &&
      otherSubjects(newer, subjectOf(o.content), c.old, known, explicit && c.share >= MIN_SHARE)
    ) {
      continue;
    }
    if (newer.changes && c.rejects) {
      // The rejected value and some context, or a value that names the thing alone; an answer
      // that mentions the value in passing ("... Tomasz may want to review it") only then.
      // An answer naming both the rejected value and its replacement spoke of this very choice
      // ("black formats, ruff lints" and "ruff replaced black").
      if (namesIt || dropsIt || c.holdsNew || (o.kind !== "answer" && (c.sharedKeys >= 1 || newer.keys.size <= 3))) out.push(o.id);
      continue;
    }
    // The assistant's answers are replaced only by a correction that names their value, or by
    // what is stored as a correction (the user says it corrects something).
    if (o.kind === "answer" && !explicit) continue;
    // It rejects a value (a number, an identifier) the older one does not hold: it corrects another statement.
    if ([...newer.rejected].some((r) => valueLike(r)) && !c.rejects) continue;
    if (newer.changes && sameSlot) {
      byCue.push({ id: o.id, shared: c.shared });
      continue;
    }
    if (newer.changes) {
      const enough = c.share >= MIN_SHARE || (c.valueSwap && c.share >= MIN_SHARE / 3);
      // The same attribute of the subject: a word besides the subject's, or a value swapped for
      // one of its kind ("the auth gateway owner is Marcus" says nothing of "the auth gateway is pinned to node 18.20").
      const attribute = c.valueSwap || [...newer.keys].some((k) => c.old.has(k) && !newer.rejected.has(k) && !newer.subject.includes(k));
      // One shared word is enough when both open with it and a value of its shape took the old one's place
      // ("MSRV bumped to 1.80" and "MSRV = 1.74 (min supported toolchain)").
      const sameHead = c.valueSwap && newer.subject[0] !== undefined && newer.subject[0] === subjectOf(o.content)[0];
      if ((c.sharedKeys >= 2 || c.sharedIds >= 1 || sameHead) && enough && attribute && c.fresh > 0 && c.gone.length > 0)
        byCue.push({ id: o.id, shared: c.shared });
      continue;
    }
    // No cue: the same statement with one value changed, not the thing it is about: the value
    // the older one opens with names its subject ("route53 plan hangs on dev" and "karpenter plan
    // hangs on prod" are two reports on two things; "the staging port is 8080" and "... 8081" one).
    if (
      c.sharedKeys >= 2 &&
      c.gone.length === 1 &&
      c.fresh > 0 &&
      valueLike(c.gone[0]!) &&
      firstWord(withoutKindLabel(o.content)) !== c.gone[0]
    )
      out.push(o.id);
  }
  const best = Math.max(0, ...byCue.map((b) => b.shared));
  for (const b of byCue) if (b.shared >= best * NEAR_BEST) out.push(b.id);
  // Linked by a shared rare name: the statements naming the most of it.
  // When it names what it rejects ("we left Vercel"), one rare word shared in passing ("runs") is no link.
  const linking = bySubject.filter((b) => !namesOne || b.rare >= 2);
  if (linking.length > 0 && !dropped) {
    const top = Math.max(...linking.map((b) => b.shared));
    for (const b of linking) if (b.shared >= top) out.push(b.id);
  }
  // An older statement that says again what a replaced one said (the assistant's "got it: X")
  // is replaced with it.
  // It holds what the replaced one said that the newer one does not (the old value), and nearly
  // all the rest of it.
  const replaced = olds.filter((o) => out.includes(o.id)).map((o) => tokenKeys(o.content));
  for (const o of olds) {
    if (out.includes(o.id)) continue;
    const keys = tokenKeys(o.content);
    const echoes = (r: ReadonlySet<string>) => {
      const gone = [...r].filter((k) => !newer.keys.has(k));
      return (
        r.size >= 3 &&
        gone.length > 0 &&
        gone.every((k) => keys.has(k)) &&
        [...r].filter((k) => !keys.has(k)).length <= Math.floor(r.size / 4)
      );
    };
    if (replaced.some(echoes)) {
      out.push(o.id);
    }
  }
  return [...new Set(out)];
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
  // The whole row only for what may replace something (one read per part of the step, not one per
  // row). Read in parts: a step cut short by its deadline read only a part it did not get to.
  const read = db.query<Pick<EventRow, "id" | "project_id" | "kind"> & { row: string | null }, [number, number, number]>(
    `SELECT id, project_id, kind, CASE WHEN project_id = ?3 AND kind IN (${[...SUPERSEDERS].map((k) => `'${k}'`).join(",")})
     THEN json_object(${EVENT_COLUMNS.split(", ")
       .map((c) => `'${c}', ${c}`)
       .join(", ")}) END AS row FROM memory_events WHERE id > ?1 ORDER BY id LIMIT ?2`,
  );
  const found: [number, number][] = [];
  let through = from;
  let cut = false;
  let scanned = 0;
  while (!cut && scanned < SCAN) {
    const rows = read.all(through, Math.min(SCAN_PART, SCAN - scanned), projectId);
    for (const r of rows) {
      if (r.project_id === projectId && SUPERSEDERS.has(r.kind)) {
        if (performance.now() > deadline && through > from) {
          cut = true;
          break;
        }
        const e = r.row === null ? null : (JSON.parse(r.row) as EventRow);
        if (e) for (const old of findReplaced(deps, e)) found.push([old, e.id]);
      }
      through = r.id;
    }
    scanned += rows.length;
    if (rows.length < SCAN_PART) break;
  }
  if (scanned === 0) return { recorded: 0, pending: false };
  immediate(db, () => {
    const record = db.query("INSERT OR IGNORE INTO memory_supersessions (old_id, new_id, project_id) VALUES (?, ?, ?)");
    for (const [old, newer] of found) record.run(old, newer, projectId);
    db.query(
      "INSERT INTO memory_state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = max(CAST(value AS INTEGER), CAST(?2 AS INTEGER))",
    ).run(stateKey(projectId), String(through));
  });
  return { recorded: found.length, pending: cut || scanned === SCAN };
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
  if (ids.length === 0) return out;
  const rows = deps.db
    .query<{ old_id: number; new_id: number }, [string]>(
      `SELECT old_id, new_id FROM memory_supersessions WHERE old_id ${IN_ID_LIST} ORDER BY old_id, new_id DESC`,
    )
    .all(idList([...new Set(ids)]));
  for (const r of rows) {
    const list = out.get(r.old_id) ?? [];
    list.push(r.new_id);
    out.set(r.old_id, list);
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
