/**
 * What an event says, read from its words alone (no model). Is a prompt a question, a task, a
 * preference ("always run tests with --runInBand") or a statement of fact? A prompt is read
 * sentence by sentence: one that asks a question and states a fact in passing states a fact.
 * Does it correct or change something said before ("no, use pnpm", "we switched from X to Y",
 * "X is 22 now")? And which values does it reject ("not npm", "from 8080 to 8081", "moved off
 * X") and which does it assert? The cues are English function words and verbs of change, not
 * any project's vocabulary; supersede.ts, the extractive summary and ranking use them.
 */
import {
  BASES,
  CHANGE_FORMS,
  CHANGED,
  CHANGING,
  COMMIT_HEADER,
  COMMIT_TYPE,
  changeSentences,
  DECIDES,
  GONE_SOURCE,
  NOW,
  withoutCommitType,
} from "./change-cues.ts";
import { familyKey } from "./morphology.ts";
import { remembered } from "./remember.ts";
import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";
import { symbolName } from "./unit-symbols.ts";

export {
  changeSentences,
  clauses,
  isClaim,
  isCorrection,
  type SentenceKind,
  sentences,
  statementKind,
} from "./change-cues.ts";

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}._\-/:@+#=$~]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const valueLike = (w: string) => /[\d._\-/:@+#=$~]/.test(w);
const CHANGE_WORDS = new Set(
  [
    ...BASES,
    ...CHANGE_FORMS,
    ..."correction wrong incorrect anymore longer instead now old actually wait left quit stop stopped nowadays".split(" "),
  ].map((w) => familyKey(w)),
);

/** An identifier-like token stays whole (8080, v1.2.3, src/app.ts, TIDE_PROD); a word becomes its family's key. */
export const keyOf = (w: string) => (valueLike(w) ? w : familyKey(w));

/** The keys of a stretch of text: identifiers whole, words by family, stop words and words of change dropped. */
function contentKeys(stretch: string): string[] {
  const out: string[] = [];
  for (const token of foldText(stretch).match(TOKEN) ?? []) {
    if (valueLike(token)) {
      out.push(token);
      // Its words too: "TIDE_PROD" shares "prod" with a text that says it in words.
      for (const w of wordsOf(token)) if (w.length > 1 && !/^\d+$/.test(w) && !isStopWord(w)) out.push(valueLike(w) ? w : familyKey(w));
    } else if (!isStopWord(token) && token.length > 1) {
      // A unit of time by its symbol is the unit: "bumped to 45 min" and "after 20 minutes" share it.
      const key = familyKey(symbolName(token) ?? token);
      if (!CHANGE_WORDS.has(key)) out.push(key);
    }
  }
  return out;
}

/**
 * What was worked out for a text, kept for the next time (remember.ts): supersession compares each
 * new statement with dozens of older ones, and the same older statements come back for statement
 * after statement.
 */
const CACHED_TEXTS = 20_000;
const keptKeys = remembered<ReadonlySet<string>>(CACHED_TEXTS);
const keptStatements = remembered<Statement>(CACHED_TEXTS);
const keptSubjects = remembered<string[]>(CACHED_TEXTS);
const keptParts = remembered<ReadonlySet<string>>(CACHED_TEXTS);
const keptAsides = remembered<boolean>(CACHED_TEXTS);

/**
 * The keys statements are compared by. Bracketed asides are left out ("(config in x.yaml)": not
 * what a statement says); a bracket right after a word, as in `fix(gc):`, is kept. A statement
 * that says next to nothing outside its asides (saysInAsides: "bumped to 1.22.3 (go.mod,
 * Dockerfile, .tool-versions)") says its subject in them: they are kept.
 */
export function tokenKeys(text: string): ReadonlySet<string> {
  return keptKeys(text, () => new Set(saysInAsides(text) ? keysWithAsides(text) : outsideAsides(text)));
}

const ASIDE = /(^|\s)\([^()]{0,200}\)/g;
const headOf = (text: string) => withoutCommitType(text.slice(0, 2000));
const outsideAsides = (text: string) => contentKeys(headOf(text).replace(ASIDE, " "));
/** A text's keys, its bracketed asides too. */
export const keysWithAsides = (text: string): ReadonlySet<string> => new Set(contentKeys(headOf(text)));
/** Words (not values) a statement says outside its bracketed asides for them to be left out. */
const MIN_SAID = 2;
/** Whether a text says fewer than MIN_SAID words (not values) outside its bracketed asides, and has some. */
export function saysInAsides(text: string): boolean {
  // Asked once per pair of statements compared: kept per text, like the keys.
  return keptAsides(text, () => {
    if (!/(^|\s)\(/.test(headOf(text))) return false;
    return outsideAsides(text).filter((k) => !valueLike(k)).length < MIN_SAID;
  });
}

/**
 * The keys a text holds only inside identifiers ("basalt" and "io" of "ledger.basalt.io"): a
 * project's name or a domain runs through many of its identifiers, and two texts sharing it
 * there say nothing of sharing a subject.
 */
export function partKeys(text: string): ReadonlySet<string> {
  return keptParts(text, () => {
    const said = new Set<string>();
    for (const token of foldText(withoutCommitType(text.slice(0, 2000))).match(TOKEN) ?? [])
      if (!valueLike(token) && !isStopWord(token)) said.add(familyKey(token));
    return new Set([...tokenKeys(text)].filter((k) => !valueLike(k) && !said.has(k)));
  });
}

// A cue's stretch runs to a comma, semicolon, bracket or the end of a sentence (a dot inside 20.18 is not one).
const STRETCH =
  "((?:[^,;!?().]|[.](?=\\S)){1,60}?)(?=\\s+(?:for|in|on|at|with|when|because|since|to|from|and|but|anymore|now|->|=>)\\b|\\s*(?:->|=>)|[,;!?()]|[.](?!\\S)|$)";
/** Cues that a thing left the project: dropped, replaced, no longer used, moved off, gone. */
const REMOVAL_CUES = [
  new RegExp(`\\bno longer\\s+(?:use|using|uses|need|needs)?\\s*${STRETCH}`, "gi"),
  // "no more twine from laptops": what there is no more of.
  new RegExp(`\\bno more\\s+${STRETCH}`, "gi"),
  new RegExp(`\\b(?:stop|stopped|don'?t|do not|never)\\s+(?:use|using)\\s+${STRETCH}`, "gi"),
  new RegExp(
    `\\b(?:move|moved|moving|migrate|migrated|migrating|switch|switched|switching|went|going)\\s+(?:[^\\s,;]+\\s+){0,3}?(?:off|away from|from)\\s+${STRETCH}`,
    "gi",
  ),
  // What was dropped, not when ("dropped after 48h").
  new RegExp(
    `\\b(?:dropped|drop|ditched|removed|retired|abandoned|replaced|deprecated|deprecating|(?:ripped|rip|tore|torn|pulled|took|taken) out|got rid of|get rid of)\\s+(?!(?:after|before|at|by|for|in|on|once|since|until|when|with|within)\\b)${STRETCH}`,
    "gi",
  ),
  new RegExp(GONE_SOURCE, "gi"),
  // "X replaces Y": Y.
  new RegExp(`\\b(?:replaces|supersedes)\\s+${STRETCH}`, "gi"),
  // "X was replaced by Y", "X got swapped for Y": X.
  /(?:^|[\s,;:(])([^\s,;:()]{2,40})\s+(?:was|were|got|has been|have been|is being)\s+(?:replaced|swapped|superseded)\s+(?:by|with|for)\s/gi,
  // "renamed X to Y", "swapped X for Y": X.
  new RegExp(`\\b(?:renamed|renaming|rename)\\s+(?:the\\s+)?${STRETCH}(?=\\s+to\\s)`, "gi"),
  /\b(?:swapped|swapping|swap)\s+(?:out\s+)?(?:the\s+)?([^\s,;:()]{2,40})\s+for\s/gi,
  // A group that left a thing: "we left X", "the team quit X" (a pronoun or "team" before it: "left" alone is often a side or a rest).
  new RegExp(`\\b(?:we|they|i|team)(?:'ve|'d| have| had)?\\s+(?:left|quit|abandoned)\\s+${STRETCH}`, "gi"),
];
/** A duty handed on: "X handed (over) Y to Z", "Z took over Y from X": X held it. */
const HANDOVER_CUES = [
  /(?:^|[\s,;:(])([^\s,;:()]{2,40})\s+(?:has |had )?(?:handed|hands|handing)\s+(?:over\s+|off\s+|on\s+)?[^.;!?]{1,60}?\s+(?:over |off |on )?to\s+\S/gi,
  new RegExp(`\\b(?:took|takes|taking|taken) over\\b[^.;!?]{0,60}?\\bfrom\\s+${STRETCH}`, "gi"),
];
const REJECT_CUES = [
  // "Y, not X" and "Y not X"; not "do not evict" or "is not enough" (an auxiliary before "not" negates a verb),
  // nor "not that one, the hourly one" (a demonstrative points at which thing was meant, not at a value:
  // Quirk et al. 1985, ch. 5 on demonstratives).
  new RegExp(
    `(?<!\\b(?:do|does|did|can|could|will|would|should|must|may|might|is|are|was|were|be|has|have|had|need|needs|shall)\\s)\\bnot\\s+(?!(?:that|this|these|those)\\b)${STRETCH}`,
    "gi",
  ),
  new RegExp(`\\binstead of\\s+${STRETCH}`, "gi"),
  new RegExp(`\\brather than\\s+${STRETCH}`, "gi"),
  ...REMOVAL_CUES,
  /\bfrom\s+((?:[^,;!?().]|[.](?=\S)){1,60}?)\s+to\s/gi,
  new RegExp(`\\bused to be\\s+${STRETCH}`, "gi"),
  new RegExp(`\\bthe old\\s+${STRETCH}`, "gi"),
  /(?:^|[\s,;(-])([^\s,;()]{1,40})\s+(?:is|was|were|are)\s+(?:wrong|the old|outdated|obsolete|deprecated|gone|deleted|dead|not enough)\b/gi,
];

/** The rejected values (identifier-like tokens after a cue, or else its first content word), and every key of the stretches they came from. */
type RejectedName = { written: string; named: string[] };

function rejection(text: string): { values: Set<string>; words: Set<string>; removed: Set<string>; phrases: Map<string, RejectedName> } {
  const values = new Set<string>();
  const words = new Set<string>();
  const removed = new Set<string>();
  const phrases = new Map<string, RejectedName>();
  for (const re of [...REJECT_CUES, ...HANDOVER_CUES]) {
    for (const m of text.slice(0, 600).matchAll(re)) {
      const keys = contentKeys(m[1]!);
      const named = keys.filter((k) => !valueLike(k)).slice(0, PHRASE_WORDS);
      for (const k of valuesOf(m[1]!)) {
        values.add(k);
        if (REMOVAL_CUES.includes(re)) removed.add(k);
        if (!valueLike(k) && named.length > 1 && !phrases.has(k)) {
          const written = (foldText(m[1]!).match(TOKEN) ?? []).find((t) => !valueLike(t) && familyKey(t) === k) ?? k;
          phrases.set(k, { written, named });
        }
      }
      for (const k of keys) words.add(k);
    }
  }
  return { values, words, removed, phrases };
}

/** The words of a rejected thing's name weighed at most ("the play internal track": three). */
const PHRASE_WORDS = 3;

export function rejectedOf(text: string): Set<string> {
  return rejection(text).values;
}

/** Values a statement asserts: before `, not` / `instead of` / `rather than`, after `from X to`, `->`, `is now`, `use`, a verb of change and `to`. */
const ASSERT_CUES = [
  // Not before "not that one" (a pointer at which thing was meant, as in REJECT_CUES).
  /([^\s,;()]{1,40}),?\s+not\s+(?!(?:that|this|these|those)\b)/gi,
  /([^\s,;()]{1,40})\s+(?:instead of|rather than)\s/gi,
  new RegExp(`\\bfrom\\s+[^.,;!?()]{1,60}?\\s+to\\s+${STRETCH}`, "gi"),
  new RegExp(`(?:->|=>)\\s*${STRETCH}`, "gi"),
  new RegExp(`\\b(?:is|are)\\s+now\\s+${STRETCH}`, "gi"),
  /\b(?:is|are)\s+([^\s,;()]{1,40})\s+now\b/gi,
  new RegExp(`\\buse\\s+${STRETCH}`, "gi"),
  new RegExp(`\\bin favou?r of\\s+${STRETCH}`, "gi"),
  new RegExp(`\\b(?:replaced|swapped|superseded)\\s+(?:by|with)\\s+${STRETCH}`, "gi"),
  new RegExp(`\\b(?:swapped|swapping|swap)\\s+(?:out\\s+)?(?:the\\s+)?[^\\s,;:()]{2,40}\\s+for\\s+${STRETCH}`, "gi"),
  new RegExp(`\\bthe new\\s+[^.,;!?]{1,40}?\\s+(?:is|are)\\s+${STRETCH}`, "gi"),
  /([^\s,;()]{1,40})\s+(?:is|are)\s+(?:now\s+)?the new\b/gi,
  new RegExp(`\\b(?:${[...BASES, ...CHANGE_FORMS].join("|")})\\s+(?:[^\\s,;]+\\s+){0,3}?(?:to|with)\\s+${STRETCH}`, "gi"),
];

/** The values of a cue's stretch: its identifier-like tokens, or else its first word. */
function valuesOf(stretch: string): string[] {
  const keys = contentKeys(stretch.replace(/\.$/, ""));
  const ids = keys.filter(valueLike);
  return ids.length > 0 ? ids : keys.slice(0, 1);
}

export function assertedOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const re of ASSERT_CUES) for (const m of text.slice(0, 600).matchAll(re)) for (const k of valuesOf(m[1]!)) out.add(k);
  return out;
}

/** What a newer statement says, for comparing it with older ones. */
export type Statement = {
  keys: ReadonlySet<string>;
  /** What it is about: its first words, values left out (subjectOf). */
  subject: readonly string[];
  /** The first word it says (firstWord). */
  first: string | null;
  rejected: ReadonlySet<string>;
  /** Keys of the stretches its rejections came from. */
  rejectedWords: ReadonlySet<string>;
  /** Of the rejected values, those it says left the project (dropped, replaced, gone, moved off). */
  removed: ReadonlySet<string>;
  /** A rejected word named with others ("stopped using the play internal track"): all the words of that name (rejectedIn). */
  rejectedPhrases: ReadonlyMap<string, RejectedName>;
  asserted: ReadonlySet<string>;
  /** It corrects or changes something (a strong cue, a weak one that names a value, or stored as a correction). */
  changes: boolean;
  /**
   * What it changes (slotOf): the thing a verb of change moves ("moved gitops to Y": gitops) or,
   * in a sentence of change without one, the first words it says ("builds run on Y now").
   */
  slot: readonly string[];
  /**
   * It says what holds now: a value it asserts or rejects, a verb of change or "now". Not a state
   * said to return ("lag back to normal"), nor a pointer at another thing ("no, the other one. src/x.c").
   */
  states: boolean;
};

/**
 * A statement as a newer one: when some of its sentences correct or change something, those
 * sentences are what it says about older statements ("... anyway, the cart badge again" is not).
 */
export function statementOf(text: string, kind: string): Statement {
  return keptStatements(`${kind}\0${text}`, () => makeStatement(text, kind));
}

/**
 * A label naming the kind of record ("decision: ...", "Note - ..."): what the record is, not what
 * it is about. The names are the memory's own event kinds (types.ts).
 */
const KIND_LABEL = /^\s*(?:decision|correction|note)\s*(?::|\s[-–—])\s*/i;
export const withoutKindLabel = (text: string) => text.replace(KIND_LABEL, "");

function makeStatement(text: string, kind: string): Statement {
  const changing = changeSentences(text, kind);
  const said = changing.length > 0 ? changing.map((c) => c.text).join(" ") : text;
  const { values, words, removed, phrases } = rejection(said);
  const asserted = assertedOf(said);
  // "default exports rather than named exports" asserts "default", not "exports".
  for (const w of words) asserted.delete(w);
  // A weak cue (an action, "bump X to 1.79") changes something when it names a value, or when the
  // sentence opens with the verb of change and says where to ("switch output to parallel writes").
  const changes =
    kind === "correction" ||
    changing.some((c) => c.strong || DECIDES.test(c.text.replace(COMMIT_HEADER, ""))) ||
    (changing.length > 0 && (values.size > 0 || asserted.size > 0));
  return {
    keys: tokenKeys(said),
    subject: subjectOf(said, new Set([...values, ...words, ...asserted])),
    slot: slotOf(changing, new Set([...values, ...words, ...asserted])),
    states: values.size + asserted.size > 0 || changing.some((c) => NOW.test(c.text) || CHANGED.test(c.text) || CHANGING.test(c.text)),
    // "decision: dropped crystal" and "chore(infra): we left X" speak first of crystal and X.
    first: firstWord(withoutKindLabel(said).replace(COMMIT_TYPE, "$1")),
    rejected: values,
    rejectedWords: words,
    removed,
    rejectedPhrases: phrases,
    asserted,
    changes,
  };
}

/** The key of a label a statement opens with ("gitops: argocd, ..."), after a Conventional Commits header (its scope is no label). */
export function labelOf(text: string): string | null {
  const m = /^\s*([\p{L}][\p{L}\p{N}_-]*)\s*:\s/u.exec(text.replace(COMMIT_TYPE, "$1"));
  return m ? familyKey(m[1]!.toLowerCase()) : null;
}

/** A verb of change and the thing it changes, up to where it says where to: "moved gitops to", "switch the builds over to". */
const MOVED = new RegExp(
  `\\b(?:${[...BASES, ...CHANGE_FORMS].join("|")})\\s+(?:(?:the|our|all|every|its|their)\\s+)?((?:[^\\s,;:()]+\\s+){0,1}?[^\\s,;:()]+)\\s+(?:over\\s+)?(?:to|into|onto|from|off)\\b`,
  "i",
);

/** What sentences of change change: the object of a verb of change, else the first two words of one saying what holds now (values left out). */
function slotOf(changing: readonly { text: string; strong: boolean }[], values: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const { text, strong } of changing) {
    const body = withoutKindLabel(text).replace(COMMIT_TYPE, "$1");
    const moved = MOVED.exec(body)?.[1];
    // Without a verb moving a thing, only a sentence saying what holds "now" names its slot by its
    // first words ("builds run on Y now"); "no, the mailer service stores ..." may correct another
    // attribute of the mailer service, and "broke after my change to X" changes nothing named.
    if (!moved && !(strong && NOW.test(body))) continue;
    const keys = moved ? contentKeys(moved).filter((k) => !valueLike(k)) : makeSubject(body, values).slice(0, 2);
    for (const k of keys) if (!out.includes(k)) out.push(k);
  }
  return out;
}

/**
 * Whether a text holds a value the statement rejects: a word named with others ("the play internal
 * track") is held when two of that name's words are, or the word as written ("ripped out the clap
 * crate" and "clap v4"); its family alone is as likely another thing ("players" for "play").
 */
export function rejectedIn(said: Statement, r: string, keys: ReadonlySet<string>, text: string): boolean {
  if (!keys.has(r)) return false;
  const name = said.rejectedPhrases.get(r);
  if (name === undefined || name.named.filter((k) => keys.has(k)).length >= 2) return true;
  return ((foldText(text.slice(0, 2000)).match(TOKEN) ?? []) as string[]).includes(name.written);
}

/**
 * What a statement is about, as far as words tell: its first three words, the way English puts
 * the subject first ("the billing service database is ...", "feat(gc): ..."). Values are not
 * what it is about: identifiers and numbers, and the values it rejects or asserts, are skipped.
 */
export function subjectOf(text: string, values: ReadonlySet<string> = new Set()): readonly string[] {
  if (values.size > 0) return makeSubject(text, values);
  return keptSubjects(text, () => makeSubject(text, values));
}

function makeSubject(text: string, values: ReadonlySet<string>): string[] {
  const out: string[] = [];
  // A Conventional Commits header, "type(scope): ...": the scope is what it is about, not the type.
  const head = text.slice(0, 600).replace(/^\s*[a-z]+\(([^()\s]{1,40})\)!?:/i, "$1:");
  for (const token of foldText(head).match(TOKEN) ?? []) {
    if (values.has(token) || isStopWord(token) || token.length < 2) continue;
    // An identifier's words count (".python-version" is about python), not its digits.
    for (const w of valueLike(token) ? wordsOf(token).filter((x) => !/\d/.test(x) && x.length > 2 && !isStopWord(x)) : [token]) {
      const key = familyKey(w);
      if (CHANGE_WORDS.has(key) || values.has(key) || out.includes(key)) continue;
      out.push(key);
      if (out.length === 3) return out;
    }
  }
  return out;
}

/** The first word a statement says (identifiers included), values or not: "moved off structlog" is about structlog. */
export function firstWord(text: string): string | null {
  for (const token of foldText(text.slice(0, 600)).match(TOKEN) ?? []) {
    if (isStopWord(token) || token.length < 2) continue;
    const key = valueLike(token) ? token : familyKey(token);
    if (!CHANGE_WORDS.has(key)) return key;
  }
  return null;
}

export { valueLike };
