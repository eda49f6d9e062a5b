/**
 * A reply is read with the prompt it replies to, and a prompt with the reply it got. People ask in
 * a prompt ("who does TestFlight uploads?", "proto compat check in CI") and the record or answer
 * that settles it, a few events later in the same session, says only the new part ("Priya runs
 * `fastlane beta`", "buf breaking on every PR"): the prompt names the subject, the reply the value.
 * The command run or the error printed right after a prompt ("the export dies on the laptop, log
 * below") is its reply too: the output says the value (a path, a version, a limit). An answer,
 * record, command or error among the hits that follows, within REPLY_WINDOW events of its session,
 * a prompt among the hits holding query words the reply lacks, holds those words too, at CONTEXT of
 * their weight (what a passage borrows from its neighbours in passage retrieval: it is said about
 * them, not in them). A note or decision right after an answer ("decision: store credit only after
 * day 30" after "refund() now issues a voucher past the return window") is the record of what the
 * answer worked out, and holds its words the same way (not after an answer leaving the matter
 * open: open-matter.ts). The other way round, a prompt that says the value ("labels go to the
 * Zebra ZD421 from now on") holds, at CONTEXT, the query words of the answer or record replying to
 * it ("label printer model updated in the spooler config") when the two share a word; output does
 * not lend its words to a prompt. Either must match a word of the query itself: a prompt does not
 * lend its words to whatever follows it, nor a reply to whatever came before. Each lends what it
 * holds on its own.
 */
import type { EventRow } from "./events.ts";
import { readsOpen } from "./open-matter.ts";
import { eventWords } from "./query.ts";
import type { TextScore } from "./rank.ts";
import { isStopWord } from "./stopwords.ts";
import type { EventHit, Hit, Unit } from "./units.ts";

/**
 * Events after a prompt (in its session) that may reply to it: the answer, a "yes do it", the record.
 * Counted in event ids, so events of another session written in between count too (the window narrows).
 */
export const REPLY_WINDOW = 4;
/** The share of a word's weight a reply holds when only its prompt says the word: most of it (the exchange is about the prompt's subject), never all (the reply does not say it). */
export const CONTEXT = 0.75;

/** What says something back: the assistant's answer, a record. */
const STATEMENTS: ReadonlySet<string> = new Set(["answer", "decision", "note", "correction"]);
/** Records: a note or decision written after an answer sets down what the answer worked out, and is read with it as with a prompt. */
const RECORDS: ReadonlySet<string> = new Set(["note", "decision"]);
/** What may reply to a prompt: a statement, or the output of what was run for it. */
const REPLIES: ReadonlySet<string> = new Set([...STATEMENTS, "command", "error"]);
/** What opens an exchange: the user's words (a prompt, or a correction, which the user says too). */
const OPENERS: ReadonlySet<string> = new Set(["prompt", "correction"]);

/** The prompt a reply answers, among the event hits: the nearest one before it in its session, within REPLY_WINDOW events. */
export function promptOf(reply: EventRow, prompts: EventHit[]): EventHit | undefined {
  let best: EventHit | undefined;
  for (const p of prompts) {
    if (p.row.session_id !== reply.session_id || p.row.id >= reply.id || reply.id - p.row.id > REPLY_WINDOW) continue;
    if (!best || p.row.id > best.row.id) best = p;
  }
  return best;
}

/**
 * The match of a reply read with its prompt: the prompt's groups the reply lacks added at CONTEXT
 * of their weight, the score rescaled by the coverage textScore scales it by (share of groups,
 * squared, and of their weight).
 */
export function withPromptWords(own: TextScore, prompt: TextScore, groups: number): TextScore {
  const added = [...prompt.groups].filter(([g]) => !own.groups.has(g));
  if (added.length === 0 || own.matched === 0 || groups === 0 || own.total === 0) return own;
  let held = own.held;
  for (const [g, idf] of added) held += CONTEXT * idf * Math.min(1, prompt.forms.get(g) ?? 1);
  const scale = (matched: number, h: number) => (matched / groups) ** 2 * (0.5 + (0.5 * h) / own.total);
  const raw = own.score / scale(own.matched, own.held);
  return { ...own, score: raw * scale(own.matched + CONTEXT * added.length, held), matched: own.matched + added.length, held };
}

/**
 * The exchanges among the hits read both ways: replies with their prompts, then prompts with the
 * replies that pass the gate so read (`lends`), each event lending the words it holds on its own.
 */
export function readExchanges(hits: Hit[], groups: number, opens: (u: Unit) => boolean, lends: (u: Unit) => boolean): void {
  const events = eventHits(hits);
  const own = new Map(events.map((h) => [h, h.unit.match]));
  repliesWithPrompts(events, own, groups, opens);
  promptsWithReplies(events, own, groups, lends);
}

const eventHits = (hits: Hit[]) => hits.filter((h): h is EventHit => h.type === "event");

/** Replies among the hits read with their prompts (withPromptWords), a record with the answer before it too. Scores and matches changed in place. */
export function readRepliesWithPrompts(hits: Hit[], groups: number, opens: (u: Unit) => boolean): void {
  const events = eventHits(hits);
  repliesWithPrompts(events, new Map(events.map((h) => [h, h.unit.match])), groups, opens);
}

function repliesWithPrompts(events: EventHit[], own: Map<EventHit, TextScore>, groups: number, opens: (u: Unit) => boolean): void {
  const prompts = events.filter((h) => OPENERS.has(h.row.kind) && opens(h.unit));
  const answers = events.filter((h) => h.row.kind === "answer" && opens(h.unit) && !readsOpen(h.row.content));
  if (prompts.length === 0 && answers.length === 0) return;
  const recordOpeners = [...prompts, ...answers];
  for (const h of events) {
    if (!REPLIES.has(h.row.kind)) continue;
    const p = promptOf(h.row, RECORDS.has(h.row.kind) ? recordOpeners : prompts);
    if (!p) continue;
    lend(h, own.get(p)!, groups);
  }
}

/** The reply to a prompt among the hits: the nearest one after it in its session, within REPLY_WINDOW events. */
function replyOf(prompt: EventRow, replies: EventHit[]): EventHit | undefined {
  let best: EventHit | undefined;
  for (const r of replies) {
    if (r.row.session_id !== prompt.session_id || r.row.id <= prompt.id || r.row.id - prompt.id > REPLY_WINDOW) continue;
    if (!best || r.row.id < best.row.id) best = r;
  }
  return best;
}

/** Two events share a word (a number, a stop word or a word of two letters aside): the reply speaks of what the prompt asked. */
function sayAlike(a: EventRow, b: EventRow): boolean {
  const other = eventWords(b).counts;
  for (const w of eventWords(a).counts.keys()) if (w.length > 2 && !/\d/.test(w) && !isStopWord(w) && other.has(w)) return true;
  return false;
}

/** Prompts among the hits read with the statement replying to them (withPromptWords the other way round); scores and matches changed in place. */
function promptsWithReplies(events: EventHit[], own: Map<EventHit, TextScore>, groups: number, lends: (u: Unit) => boolean): void {
  const replies = events.filter((h) => STATEMENTS.has(h.row.kind) && lends(h.unit));
  if (replies.length === 0) return;
  for (const h of events) {
    if (!OPENERS.has(h.row.kind)) continue;
    const r = replyOf(h.row, replies);
    if (!r || !sayAlike(h.row, r.row)) continue;
    lend(h, own.get(r)!, groups);
  }
}

/** A hit read with what its neighbour in the exchange holds (withPromptWords): its score and match changed in place. */
function lend(h: EventHit, from: TextScore, groups: number): void {
  const match = withPromptWords(h.unit.match, from, groups);
  if (match === h.unit.match) return;
  h.unit.score *= match.score / h.unit.match.score;
  h.unit.match = match;
}
