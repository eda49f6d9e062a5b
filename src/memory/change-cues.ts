/**
 * What kind of sentence an event says and whether it changes something: a question, a task, a
 * preference or a statement of fact (a prompt read sentence by sentence), and the cues that a
 * sentence corrects the agent or changes what was said before ("no, use pnpm", "we switched from
 * X to Y", "X is 22 now", "Raj handed billing to Ana"). The cues are English function words and
 * verbs of change, not any project's vocabulary; classify.ts reads what a change rejects and asserts.
 */
import {
  ASKED_CLAUSE,
  asksInSitu,
  CIRCUMSTANCE,
  conditionalPlan,
  modalPassives,
  nominalUses,
  opensImperative,
  reportsSpeech,
  reportsWish,
} from "./mood.ts";
import { remembered } from "./remember.ts";
import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";
import { lineBody } from "./summary-line.ts";

/** Clauses of a statement: its sentences, split again at commas and dashes (a summary line's label left out). */
export function clauses(text: string): string[] {
  return lineBody(text)
    .split(/[.;!?](?:\s|$)|,\s|\n|\s-{1,2}\s/)
    .filter((c) => c.trim() !== "");
}

/**
 * Sentences (and lines) of a text's head. A request or question tacked on with a comma is a
 * sentence of its own: "we're moving to X, can you start with Y?" states a change, then asks;
 * "the test broke after my change, what did i do" reports, then asks (mood.ts).
 */
export function sentences(text: string): string[] {
  return text
    .slice(0, 1200)
    .split(/(?<=[.!?;])\s+|\n+|\s+-{1,2}\s+|\s+—\s+/)
    .flatMap((s) => (s.includes(",") ? s.split(ASKED_CLAUSE).flatMap(requestsApart) : [s]))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * A personal pronoun and its auxiliary written as one word, as chat does ("im a backend dev",
 * "ill check"): a subject, so no imperative follows.
 */
const SUBJECT_CONTRACTIONS = new Set(
  ["i", "you", "he", "she", "it", "we", "they"].flatMap((p) => ["m", "re", "s", "ve", "ll", "d"].map((a) => p + a)),
);
/**
 * A request in the imperative, or a wish reported of others, tacked on with a comma is a sentence
 * of its own: "the ids are ugly, show the names instead" reports, then asks for work
 * (opensImperative: a plain verb, then a determiner opening its object); "..., they want X too,
 * not just Y" asks for something (reportsWish).
 */
function requestsApart(sentence: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of sentence.matchAll(/, /g)) {
    const clause = sentence.slice(m.index + 2);
    if (!opensImperative(clause, (w) => isStopWord(w) || SUBJECT_CONTRACTIONS.has(w)) && !reportsWish(clause)) continue;
    out.push(sentence.slice(from, m.index));
    from = m.index + 2;
  }
  out.push(sentence.slice(from));
  return out;
}

const QUESTION =
  /\?\s*$|^\s*(?:what|which|where|who|whom|whose|why|how|when|is|are|was|were|do|does|did|can|could|would|should|will|have|has|any idea)\b/i;
const PREFERENCE = /\b(?:always|never|prefer|please|don'?t|do not|make sure|remember|from now on|must|should|avoid)\b/i;
/** An imperative: the sentence starts with a verb of doing (after a greeting or "please"). */
const TASK =
  /^\s*(?:(?:hi|hello|ok|okay|so|and|also|now|then|next|please|can you|could you|would you|let'?s)[\s,!:]+)*(?:fix|add|write|update|refactor|implement|create|remove|delete|check|run|make|debug|investigate|look|find|show|explain|rename|move|bump|upgrade|install|build|deploy|test|try|help|go|open|review|clean|split|merge|revert|rewrite|change|set up|setup|tidy|wire|port|profile|retry|see|take|get|put|use)\b/i;

export type SentenceKind = "preference" | "fact" | "question" | "task";

function sentenceKind(s: string): SentenceKind {
  if (QUESTION.test(s)) return "question";
  if (TASK.test(s)) return "task";
  if (PREFERENCE.test(s)) return "preference";
  return "fact";
}

/** A sentence long enough to state something (three words besides stop words). */
const says = (s: string) => wordsOf(foldText(s)).filter((w) => !isStopWord(w)).length >= 3;

/**
 * How a text reads: a preference or fact when any sentence of it states one, else a task, else a
 * question. Remembered per text: ranking weighs each candidate by it and supersession asks it of
 * every older statement it compares, and the same rows come back query after query.
 */
const keptKinds = remembered<SentenceKind>(20_000);

export function statementKind(text: string): SentenceKind {
  return keptKinds(text, () => readKind(text));
}

function readKind(text: string): SentenceKind {
  // Under a Conventional Commits header the type ("build:", "fix(ui):") is a label, not a verb:
  // the sentence is read without it.
  const kinds = sentences(text).map((s) => {
    const k = sentenceKind(s.replace(COMMIT_HEADER, ""));
    return k === "fact" && !says(s) ? "chatter" : k;
  });
  if (kinds.includes("preference")) return "preference";
  if (kinds.includes("fact")) return "fact";
  if (kinds.includes("task")) return "task";
  return kinds.length === 0 || kinds.includes("question") ? "question" : "task";
}

/** A preference or a statement of fact: something later statements can replace. */
export function isClaim(text: string): boolean {
  const kind = statementKind(text);
  return kind === "preference" || kind === "fact";
}

// Cues that a statement corrects the agent or changes what was said before.
/**
 * "undo" opens a correction as an imperative: alone before a stop or with its object ("undo that",
 * "undo the rename"); a noun before a preposition ("undo after a paste is slow") reports.
 */
const CORRECTION_START =
  /^\s*(?:no|nope|nah|wrong|incorrect|not quite|not that|actually|correction|wait|scratch that|undo(?=\s*[,.:;!-]|\s+(?:that|this|it|those|these|the|my|your|our|their|its|all|everything)\b)|that'?s (?:wrong|not right|incorrect|not what))\b[\s,.:;!-]/i;
/**
 * Verbs of change, each with its -s, -ed and -ing forms: "X was renamed", "we switched to Y", and
 * in the imperative of a commit message or note, "bump MSRV to 1.79", "drop cross".
 */
const CHANGE_BASES =
  "switch move migrate change rename replace swap upgrade downgrade bump raise lower increase decrease reduce cut drop remove " +
  "retire deprecate revert supersede abandon ditch discontinue delete rewrite rebuild convert hand reassign";
const IRREGULAR_PAST: Record<string, string[]> = { cut: ["cut"], rewrite: ["rewrote", "rewritten"], rebuild: ["rebuilt"] };
/** The past forms of a verb of change, and its -ing form. */
function changeForms(base: string): { past: string[]; ing: string } {
  const e = base.endsWith("e");
  const stem = e ? base.slice(0, -1) : base;
  const doubled = /^(?:[^aeiou]*[aeiou][bdgmnpt])$/.test(base) ? base + base.at(-1) : stem;
  return { past: IRREGULAR_PAST[base] ?? [e ? `${base}d` : `${doubled}ed`], ing: `${doubled}ing` };
}
export const BASES = CHANGE_BASES.split(" ");
const PAST = BASES.flatMap((b) => changeForms(b).past);
const ING = BASES.map((b) => changeForms(b).ing);
/**
 * The -ing form with its g dropped, as people type it in chat ("movin it to 4", "switchin'"):
 * informal English spelling, the apostrophe often left out. "raisin" is a word of its own.
 */
const DROPPED_G = ING.map((f) => f.replace(/ing$/, "in'?")).filter((f) => f !== "raisin'?");
export const CHANGE_FORMS = [...PAST, ...ING];
/** A change said as done: a past form ("renamed", "we switched"; a base form's -s is mostly a noun: "a schema change"). */
export const CHANGED = new RegExp(`\\b(?:${PAST.join("|")}|rolled back|phased out)\\b`, "i");
/**
 * A change said as an action: an -ing form, or a base form where a clause starts (an imperative:
 * "chore(ci): drop cross", "bump MSRV to 1.79") or right before to/from/off/back ("cut to 12h").
 * Weaker: "move token parsing into auth.rs" changes code, not what was said.
 */
export const CHANGING = new RegExp(
  `\\b(?:${[...ING, ...DROPPED_G].join("|")})(?=\\W|$)|(?:^|[:;,]\\s*)(?:${BASES.join("|")})\\b|\\b(?:${BASES.join("|")})\\s+(?:to|from|off|back|away)\\b`,
  "i",
);
/**
 * Something said to be gone, with or without its auxiliary, where a clause ends: "tsvector column
 * dropped", "the plan got cancelled", "X is gone". A clause of at most three words before it.
 */
const GONE_WORDS = "dropped|removed|deleted|retired|cancell?ed|canceled|gone|dead|ditched|abandoned|deprecated|scrapped|decommissioned";
/**
 * Not right after a copula of perception ("my cache seems dead", "the queue looks gone"): how a
 * thing appears, not that it left (Quirk et al. 1985, ch. 16 on copular verbs of current state).
 */
const PERCEIVED = "(?<!\\b(?:seems?|seemed|looks?|looked|appears?|appeared|feels?|felt|sounds?|sounded)\\s+)";
export const GONE_SOURCE = `(?:^|[,;:.!?(]\\s*|\\s-{1,2}\\s|\\s—\\s)((?:[^\\s,;:()]+\\s+){0,2}?[^\\s,;:()]+)\\s+(?:(?:is|was|were|are|got|gets|get|will be|has been|have been|been)\\s+)?${PERCEIVED}(?:${GONE_WORDS})(?=\\s*(?:[,;:.!?)]|$|\\s+(?:after|since|as|because|in|for|last|this|now|entirely|completely)\\b|\\s+-{1,2}\\s|\\s+—\\s))`;
const GONE = new RegExp(GONE_SOURCE, "i");
/**
 * The speaker doing a change as they speak, in the present progressive with "I" or "we" ("ok im
 * ditching the cache layer", "we're switching to X"): a decision announced, not a task asked for.
 * "we're" keeps its apostrophe (straight or typographic): without it, it is "were", a past
 * progressive ("the jobs were moving to X when ...") that reports, not announces.
 */
const ANNOUNCED = new RegExp(
  `\\b(?:i['’]?m|i am|we['’]re|we are)\\s+(?:now\\s+|just\\s+|finally\\s+)?(?:${[...ING, ...DROPPED_G].join("|")})(?=\\W|$)`,
  "i",
);
/** A label naming a change ("policy change: ...", "change of plan: ..."): what follows is what holds now. */
const CHANGE_LABEL = /^\s*(?:[^\s:]+\s+){0,2}change(?:\s+of\s+plans?)?\s*:\s+\S/i;
const CORRECTION_ANYWHERE = [
  ANNOUNCED,
  CHANGE_LABEL,
  /\b(?:use|it'?s|is|are|should be|must be|means?|wanted|want|meant|prefer)\s+[^.,;!?]{1,60}?,?\s+not\s+\S/i,
  /\binstead\b|\brather than\b|\bno longer\b|\bnot any ?more\b|\banymore\b|\bno more\b|\bin favou?r of\b/i,
  // The new holder or value said without the old: "the new owner of X is Y", "Y is the new owner".
  /\bthe new\s+[^.,;!?]{1,40}?\s+(?:is|are)\s+\S|\b(?:is|are)\s+(?:now\s+)?the new\s+\S/i,
  /\bfrom\b[^.;!?]{1,60}\bto\b/i,
  /\b(?:from now on|going forward|henceforth|back to)\b/i,
  // A value's change written with an arrow between the old and the new value, both holding a digit ("2→5 min", "cp037 -> cp1140", "v1.2 → v1.3").
  /(?<![\p{L}\p{N}_.])[\p{L}_]*\d[\p{L}\p{N}_.%]*\s*(?:→|->|⟶)\s*[\p{L}_]*\d/u,
  /\b(?:don'?t|do not|never|stop|stopped)\s+(?:use|using|run|running|call|calling|add|adding)\b/i,
  /\bI (?:said|told you|asked for)\b|\byou should(?:'ve| have)\b/i,
  /\bthat(?:'s| is) (?:wrong|incorrect|not (?:right|correct|it))\b/i,
  /\b(?:was|is) (?:the )?old\b|\bthe old\b|\bused to\b|\bis (?:outdated|obsolete|deprecated|gone)\b/i,
  // "X replaces Y": a verb of replacing in the present with its object.
  /\b(?:we|they|i|team)(?:'ve|'d| have| had)?\s+(?:left|quit)\s+\S|\b(?:handed|hands|handing)\s+(?:over\s+|off\s+|on\s+)?[^.;!?]{1,60}?\s+to\s+\S|\b(?:took|takes|taking|taken) over\b/i,
  /\b(?:replaces|supersedes)\s+\S|\b(?:ripped|rip|tore|tear|torn|pulled|pull|took|take|taken) out\b|\b(?:got|get) rid of\b/i,
  GONE,
];
/** A verb of change in the imperative, then where to: "move X to Y", "switch to Y", "let's migrate X over to Y". */
export const DECIDES = new RegExp(
  `^\\s*(?:(?:hi|hello|ok|okay|so|and|also|now|then|next|please|let'?s)[\\s,!:]+)*(?:${[...BASES, ...ING, ...DROPPED_G].join("|")})(?=\\W)[^.;!?]{0,60}?\\b(?:to|over to|with)\\s+\\S`,
  "i",
);
/** A Conventional Commits header, `type(scope)!: ` (conventionalcommits.org). */
export const COMMIT_HEADER = /^\s*[a-z]+(?:\([^()\s]{1,40}\))?!?:\s+/i;
/**
 * The type of a Conventional Commits header, one of the types the spec and the Angular convention
 * name (conventionalcommits.org; @commitlint/config-conventional): a label of the kind of change,
 * not a word of what it is about. Its scope, when there is one, is kept.
 */
export const COMMIT_TYPE = /^(\s*)(?:feat|fix|chore|docs|refactor|test|build|ci|perf|style|revert)(?:\(([^()\s]{1,40})\))?!?:\s+/i;
export const withoutCommitType = (text: string) =>
  text.replace(COMMIT_TYPE, (_, lead: string, scope?: string) => `${lead}${scope ? `${scope}: ` : ""}`);
/** "now" as a change of state ("X is 22 now", "flags now live in Y"), not "right now" or "for now"; "nowadays" and "these days" alike. */
export const NOW = /(?<!\b(?:right|for|just|by|until|till|up to|even)\s)\bnow\b(?!\s+(?:and then|that|on\b))|\bnowadays\b|\bthese days\b/i;

/** A question after an opener of correction: it ends in "?" or opens with an operator (do, is, can, ...) before its subject. */
const ASKS = /\?\s*$|^\s*(?:is|are|was|were|do|does|did|can|could|would|should|will|have|has)\s+\S/i;
const NOMINAL = nominalUses([...BASES, ...PAST], PAST);
const MODAL_PASSIVE = modalPassives(PAST);
const CHANGE_VERBS = new Set(BASES);
/** "movin", "switchin": a verb of change with its g dropped (DROPPED_G) is no imperative either. */
const CLIPPED = new Set(ING.map((f) => f.replace(/g$/, "")));
const isFunctionWordOrChange = (w: string) => isStopWord(w) || CHANGE_VERBS.has(w) || CLIPPED.has(w.replace(/['’]$/, ""));

/**
 * An explicit correction of the agent, or a statement that something changed. In a prompt (the
 * user talking to the agent) questions and tasks are neither; a note, decision or commit message
 * is a record, and its imperative ("bump MSRV to 1.79") states a change.
 */
export function isCorrection(text: string, kind = "prompt"): boolean {
  return changeSentences(text, kind).some((c) => c.strong);
}

/**
 * Whether a text may say that something changed: a sentence of its head holds one of the cues
 * changeSentences reads (false: changeSentences finds nothing). A quick test before the reading.
 */
export function mayChange(text: string): boolean {
  const head = text.slice(0, 600);
  if (CORRECTION_START.test(head)) return true;
  return sentences(head).some(
    (s) =>
      CHANGING.test(s) ||
      CHANGED.test(s) ||
      NOW.test(s) ||
      DECIDES.test(s.replace(COMMIT_HEADER, "")) ||
      CORRECTION_ANYWHERE.some((re) => re.test(s)),
  );
}

/** The sentences of a text that correct or change something; strong: a correction or a change said as done. */
export function changeSentences(text: string, kind = "prompt"): { text: string; strong: boolean }[] {
  let head = text.slice(0, 600);
  const opener = CORRECTION_START.exec(head);
  if (opener) {
    // "wait, do bans apply to staff too": an opener of correction before a question asks (mood.ts).
    const rest = head.slice(opener[0].length);
    if (!ASKS.test(sentences(rest)[0] ?? "")) return [{ text: head, strong: true }];
    head = rest;
  }
  return sentences(head).flatMap((s): { text: string; strong: boolean }[] => {
    // Under a Conventional Commits header ("refactor(time): chrono is out ...", "chore(node): bump
    // to 20") a sentence records what was done, it does not ask for a task.
    const body = s.replace(COMMIT_HEADER, "");
    const own = sentenceKind(body);
    const k = body !== s && own === "task" ? "fact" : own;
    if (k === "question" || reportsWish(body) || reportsSpeech(body) || asksInSitu(body, isStopWord)) return [];
    // A user's request in the imperative ("paginate the admin list"): work asked for, not what holds.
    // A verb of change in the imperative ("drop the enum", "bump X to 2") decides what holds.
    if (kind === "prompt" && k !== "task" && opensImperative(body, isFunctionWordOrChange)) return [];
    // A task of change that says where to ("let's move the app state to X", "switch output to Y"):
    // the user decides what holds from now on. Other tasks ("move parsing into auth.rs") change code.
    if (k === "task" && kind === "prompt") return DECIDES.test(body) ? [{ text: s, strong: false }] : [];
    const strongCue = (t: string) => CORRECTION_ANYWHERE.some((re) => re.test(t)) || CHANGED.test(t) || NOW.test(t);
    let strong = strongCue(s);
    if (!strong && !CHANGING.test(s)) return [];
    // A word of change used as a noun or adjective ("my change to X", "on changed files") says
    // nothing changed: read again without those (only when a cue was found, most sentences have none).
    // A change that ought to or may happen, or is under way ("X should be bumped", "X is being
    // retired"), is none done, and one in a clause of circumstance ("... after we renamed it") is
    // not what the sentence says: read without those too.
    const verbs = s
      .replace(NOMINAL, (m) => m.replace(/\S+$/, "thing"))
      .replace(MODAL_PASSIVE, (m) => m.replace(/\S+$/, "thing"))
      .replace(CIRCUMSTANCE, "");
    if (verbs !== s) strong = strongCue(verbs);
    // A change to come under a condition ("X gets cut if it isn't done by friday") is a plan.
    if (strong && conditionalPlan(verbs, CHANGED) && !NOW.test(verbs)) return [];
    if (strong) return [{ text: s, strong: true }];
    return CHANGING.test(verbs) ? [{ text: s, strong: false }] : [];
  });
}
