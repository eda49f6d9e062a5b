/**
 * What kind of answer a question asks for, from its question words alone: the expected answer
 * type of question answering (the NUM class of Li and Roth, "Learning Question Classifiers",
 * COLING 2002: counts, periods, frequencies, sizes, versions). "how many", "how long", "how
 * often", "how big" and a question about a version ask for a quantity; a text without one
 * (a number that is not part of a name, a number word, a word of frequency) cannot answer them,
 * however many of the question's words it holds. Every other question asks for anything.
 */

import { foldText, wordsOf } from "./stem.ts";
import { isStopWord } from "./stopwords.ts";
import { lineBody } from "./summary-line.ts";
import { isNumericNoun, NUMBER_WORDS, requiresValue } from "./value-kinds.ts";

/** A preposition a quantity question may open with ("after how many retries", "for how long", "within how many days"). */
const LEAD_PREPOSITION = "(?:(?:after|before|for|in|within|by|at|until|up\\s+to)\\s+)?";
/** "how many/much/long/often/big/...": a count, amount, period or size. */
const ASKS_QUANTITY = new RegExp(
  `^\\s*${LEAD_PREPOSITION}how\\s+(?:many|much|long|often|frequently|big|large|small|old|far|fast|soon)\\b`,
  "i",
);
/** The word after "how" ("how long": long), and "how often" itself. */
const HOW_WORD = new RegExp(`^\\s*${LEAD_PREPOSITION}how\\s+(\\p{L}+)`, "iu");
const HOW_OFTEN = new RegExp(`^\\s*${LEAD_PREPOSITION}how\\s+(often|frequently)\\b`, "i");
const VERSION = /^versions?$/;
/** A yes/no question opens on an auxiliary verb ("is it ok to ...", "do we ..."): its answer is yes or no, whatever nouns it holds. */
const YES_NO = /^(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|may|must)$/;
/** Questions whose first word asks for something else: a place, a person, a reason, a way ("where does the version come from"). */
const ASKS_OTHER = /^\s*(?:where|who|whom|whose|why)\b|^\s*how\s+(?:do|does|did|is|are|to|can|should)\b/i;

/** What may stand between "what"/"which" and the noun phrase it asks about ("what is the", "what's a"). */
const WH_FILLER = /^(?:is|are|was|were|s|the|a|an)$/;

/**
 * The noun phrase a "what" or "which" question asks about: its words after the question word (and
 * a copula, an article) up to the first stop word ("what is the retention period for logs":
 * retention period; "what interval do we use": interval). The head of the question in Li and Roth's
 * sense, the words the answer stands for. Empty for other questions.
 */
export function whPhrase(query: string): string[] {
  const words = wordsOf(foldText(query));
  // "at what size ...", "on which day ...": a preposition may open the question.
  let i = /^(?:after|before|for|in|within|by|at|until|on|from|to)$/.test(words[0] ?? "") ? 1 : 0;
  if (!/^(?:what|which|whats)$/.test(words[i] ?? "")) return [];
  i++;
  while (i < words.length && WH_FILLER.test(words[i]!)) i++;
  const out: string[] = [];
  for (; i < words.length && !isStopWord(words[i]!); i++) out.push(words[i]!);
  return out;
}

/**
 * The numeric noun a question asks about: the noun it ends on ("max upload size", "retention
 * period"), or one in its "what"/"which" phrase ("what is the retention period for ...", "what
 * interval do we use on ..."). Null when there is none.
 */
export function numericHead(query: string): string | null {
  const words = wordsOf(foldText(query));
  const phrase = whPhrase(query);
  // "what counts as ...", "which roads count as ...": "count" before "as" is a verb, not the noun.
  const verb = (w: string) => /^counts?$/.test(w) && words[words.indexOf(w) + 1] === "as";
  // A question without a "what"/"which" phrase ("session cookie lifetime") names it last.
  if (phrase.length === 0) {
    const last = words.at(-1);
    return last !== undefined && isNumericNoun(last) && !verb(last) ? last : null;
  }
  // In the phrase, the numeric noun is what is asked when it is the phrase's head: its last noun,
  // at the end or before the question's verb ("what wind speed closes the marina"); one modifying
  // a noun after it is not ("what date format": a format; "what temperature effect": an effect),
  // nor one after the verb ("which topic carries temperature updates": a topic).
  const verbAt = phrase.findIndex((w, i) => i > 0 && finiteVerb(w) && !isNumericNoun(w));
  const subject = verbAt === -1 ? phrase : phrase.slice(0, verbAt);
  const head = subject.at(-1);
  return head !== undefined && isNumericNoun(head) && !verb(head) ? head : null;
}

/**
 * Whether a word after a noun phrase reads as the question's own verb: in the present tense after a
 * singular subject (-s, not -ss) or in the past (-ed), English's two inflected forms of a finite verb.
 */
const finiteVerb = (w: string) => /(?:[^s]s|ed)$/.test(w);

/**
 * "which node version", "what version of R", "node version pinned": a version asked for when the
 * "what"/"which" phrase says it, or, in a question without one, anywhere; a yes/no question ("is
 * it ok to wipe the database when the schema version changes") asks for no version.
 */
function asksVersion(query: string): boolean {
  const phrase = whPhrase(query);
  if (phrase.length > 0) return phrase.some((w) => VERSION.test(w));
  const words = wordsOf(foldText(query));
  return !YES_NO.test(words[0] ?? "") && words.some((w) => VERSION.test(w));
}

/**
 * "which postgres release", "what node release does CI run": a release named by its tool
 * is a version (the head of the "what"/"which" phrase, not "release process" or "release notes").
 */
function releaseHead(query: string): string | null {
  const head = whPhrase(query).at(-1);
  return head !== undefined && /^releases?$/.test(head) ? head : null;
}

export function asksQuantity(query: string): boolean {
  return (
    (ASKS_QUANTITY.test(query) || asksVersion(query) || numericHead(query) !== null || releaseHead(query) !== null) &&
    !ASKS_OTHER.test(query)
  );
}

/**
 * The word of a quantity question that names the quantity asked for ("big" in "how big can a board
 * get", "version" in "which node version", "size" in "max upload size"): the question's focus in
 * the sense of question answering (the head of the question in Li and Roth's classifier, the word
 * the answer's value stands for). A text says it with a value, not with the word ("the cap is now
 * 24x24"). Empty for any other question.
 */
export function quantityFocus(query: string): string[] {
  if (!asksQuantity(query)) return [];
  const out: string[] = [];
  const how = HOW_WORD.exec(query)?.[1];
  if (how) out.push(how.toLowerCase());
  for (const m of query.matchAll(/\b(versions?)\b/gi)) out.push(m[1]!.toLowerCase());
  const head = numericHead(query) ?? releaseHead(query);
  if (head) out.push(head);
  return [...new Set(out)].filter((w) => !isStopWord(w));
}

/**
 * What a version asked for is of: the word right before "version" or "release" in a quantity
 * question ("zig" in "which zig release does the box run", "postgres" in "what postgres version
 * is installed on prod"). In an English noun compound the modifier names what the head is of, so
 * the version answers only when said of that word, however rare the question's other words are.
 */
export function versionOf(query: string): string[] {
  if (!asksQuantity(query)) return [];
  const words = wordsOf(foldText(query));
  return words.filter((w, i) => i + 1 < words.length && VERSION_WORD.test(words[i + 1]!) && !isStopWord(w));
}

/** The words a question names a version by. */
const VERSION_WORD = /^(?:versions?|releases?)$/;

/**
 * The words naming what a version asked for is of, however many: the noun compound right before
 * "version" or "release", back to the first stop word ("mongo server" in "which mongo server
 * version is the club database on", "php" in "which php version does the production server run").
 * A version is a number of something: a text naming none of those words gives another thing's
 * ("mysql 8.0.36" on the same server).
 */
export function versionCompound(query: string): string[] {
  if (!asksQuantity(query)) return [];
  const words = wordsOf(foldText(query));
  const at = words.findIndex((w) => VERSION_WORD.test(w));
  const out: string[] = [];
  for (let i = at - 1; i >= 0 && !isStopWord(words[i]!); i--) out.push(words[i]!);
  return out.reverse();
}

/**
 * "how often" and "how frequently" ask for a frequency, but their word is a stop word, no word of
 * the query: the word a text holding a frequency (a period, "nightly", "every ...") stands for.
 * Null for other questions.
 */
export function frequencyFocus(query: string): string | null {
  return asksQuantity(query) ? (HOW_OFTEN.exec(query)?.[1]?.toLowerCase() ?? null) : null;
}

/**
 * The focus words of a quantity question (quantityFocus) whose value is required (VALUE): a text
 * holding no value of their kind does not answer ("how long are backups kept" is not answered by
 * the backup log's timestamps, "what interval does the client use" not by its port).
 */
export function requiredValues(query: string): string[] {
  return quantityFocus(query).filter(requiresValue);
}

/** A regular English plural: letters ending in -s after a letter other than s, u or i ("lanes", "libraries", "cafés"; not "class", "status", "analysis"). */
const PLURAL = /^\p{L}{3,}(?<![sui])s$/u;

/**
 * The words of what a "how many" or "how much" question counts: the run of words after it up to
 * the first stop word or through the first plural ("how many build flavors exist": build flavors;
 * "how many levels are in the game": levels),
 * the noun phrase whose head is the thing counted. A count of those is said with that word ("three
 * flavors"); a text holding only the question's other words ("the game saves every 2 minutes")
 * counts something else. Empty for any other question.
 */
export function countedWords(query: string): string[] {
  const words = wordsOf(foldText(query));
  const at = words.findIndex((w, i) => w === "how" && (words[i + 1] === "many" || words[i + 1] === "much"));
  if (at === -1) return [];
  const out: string[] = [];
  // "how many times": "times" is the count of occurrences itself (the multiplicative noun, as in
  // "three times"), not a thing counted; a count of attempts or runs says it otherwise ("retry: 5").
  if (words[at + 1] === "many" && words[at + 2] === "times") return [];
  const rest = words.slice(at + 2);
  for (const [i, w] of rest.entries()) {
    if (isStopWord(w)) break;
    out.push(w);
    // A plural ends the noun phrase: a word after it is its verb, which takes no -s in the plural
    // ("how many pilot clinics report to X": clinics, not "report"). So a word with -s after it is
    // no such verb: the first is a name or noun in -s modifying it ("how many postgres replicas",
    // "how many sales reps"), and the phrase goes on.
    const next = rest[i + 1];
    if (PLURAL.test(w) && !(next !== undefined && !isStopWord(next) && PLURAL.test(next))) break;
  }
  return out;
}

/**
 * A count of one of the words (a counted word's forms, countedWords), as a pattern made once per
 * question: a number or number word right before it, one word between at most ("40 stations", "two worker pools",
 * "3 gunicorn workers"). That is the shape of the answer to "how many" (Li and Roth's NUM:count):
 * the count said of the thing the question counts.
 */
export function countPattern(words: readonly string[]): RegExp | null {
  const forms = words.map((w) => w.replace(/[^\p{L}\p{N}]/gu, "")).filter((w) => w.length > 0);
  if (forms.length === 0) return null;
  return new RegExp(
    `(?:(?<![\\p{L}\\p{N}_.])\\d+|\\b(?:${NUMBER_WORDS}))\\s+(?:[\\p{L}\\p{N}-]+\\s+)?(?:${forms.join("|")})(?![\\p{L}\\p{N}])`,
    "iu",
  );
}

/** Whether a text says a count by a countPattern (a summary line's label left out). */
export const holdsCount = (pattern: RegExp, text: string) => pattern.test(foldText(lineBody(text)));

/**
 * "how do I ...", "how does X ...", "how to ...": Li and Roth's DESC:manner class, a way of doing
 * something. In a coding agent's history the way is often a command that was run.
 */
export const asksManner = (query: string) => MANNER.test(query);
const MANNER = /^\s*how\s+(?:do|does|did|can|could|should|would|to)\b/i;

/** "who ...", "whom ...", "whose ...": Li and Roth's HUM class, a person or a group of people. */
export const asksPerson = (query: string) => /^\s*(?:who|whom|whose)\b/i.test(query);

/** Third-person personal pronouns and @handles: a text speaking of someone. */
const SOMEONE = /\b(?:she|her|hers|he|him|his)\b|(?<![\w.])@[a-z]/i;
/** Names of days and months, capitalised in English wherever they stand, and no one's name. */
const CALENDAR =
  /^(?:Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|May|June|July|August|September|October|November|December)$/;
/** A capitalised word: an initial capital and then lower case (not an acronym, not CamelCase). */
const CAPITALISED = /(?<![\p{L}\p{N}_])\p{Lu}\p{Ll}+(?![\p{L}\p{N}_])/gu;

/**
 * Whether a text names someone, as far as its letters tell: a personal pronoun or an @handle, or
 * a capitalised word inside a sentence (English capitalises names, not other words, there), not a
 * day or month. A name written in lower case is not seen here (namesSomeone's caller also takes the
 * question's own verb as evidence).
 */
export function namesSomeone(text: string): boolean {
  if (SOMEONE.test(text)) return true;
  const body = lineBody(text);
  for (const m of body.matchAll(CAPITALISED)) {
    // A sentence's or line's first word (after a bullet or a quote mark) is capitalised whatever it is.
    if (opensSentence(body, m.index)) continue;
    if (!CALENDAR.test(m[0])) return true;
  }
  return false;
}

/** Space, bullet and quote marks that may stand before a sentence's first word. */
const LEAD = /[\s>*#-]/;

/**
 * Whether the word at `at` opens the text, a line or a sentence: only spaces, bullets and quote
 * marks before it back to the start, a line break, or a sentence's end and a space. Read backwards
 * from the word (not the whole text before it matched again for every word: quadratic in a
 * 4-64 KiB event full of lines).
 */
function opensSentence(body: string, at: number): boolean {
  let i = at - 1;
  let newline = false;
  while (i >= 0 && LEAD.test(body[i]!)) {
    if (body[i] === "\n") newline = true;
    i--;
  }
  if (i < 0 || newline) return true;
  return i + 1 < at && /[.!?]/.test(body[i]!) && /\s/.test(body[i + 1]!);
}

/**
 * "what time", "at what time", "time of day": a clock time asked for (Li and Roth's NUM:date class,
 * a time of day). "time" followed by a noun modifies it ("what time zone", "what time resolution"):
 * what is asked is that noun; the question's verb or a stop word follows a "time" asked for.
 */
export function asksClockTime(query: string): boolean {
  if (/\btime\s+of\s+(?:the\s+)?day\b/i.test(query)) return true;
  const words = wordsOf(foldText(query));
  return words.some(
    (w, i) => w === "time" && /^(?:what|which)$/.test(words[i - 1] ?? "") && (i + 1 === words.length || isStopWord(words[i + 1]!)),
  );
}

/**
 * A time of day: a clock time (06:30, 6.30, 6am, 18h; 0630, ISO 8601's basic format, with its
 * leading zero: a four-digit number without one reads as a year or a port as often), a part of the
 * day (noon, midnight, morning, evening, night), or a cron schedule's minute and hour fields ("30 6 * * *").
 */
const CLOCK =
  /(?<![\p{L}\p{N}_.:])(?:[01]?\d|2[0-3])[:.h][0-5]\d(?![\p{N}]|[.:]\d)|(?<![\p{L}\p{N}_.:-])0\d[0-5]\d(?![\p{L}\p{N}_-]|[.:]\d)|(?<![\p{L}\p{N}_])(?:1[0-2]|0?[1-9])\s?(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}])|\b(?:noon|midday|midnight|mornings?|afternoons?|evenings?|nights?|nightly|o'clock)\b|(?<![\p{L}\p{N}])[\d*/,-]+\s+[\d*/,-]+\s+[\d*/,?-]+\s+[\d*/,-]+\s+[\d*/,?a-z-]+/iu;

/** Whether a text says a time of day (CLOCK). */
export const holdsClockTime = (text: string) => CLOCK.test(lineBody(text));

/** "when ...": the question's first word asks for a time (Li and Roth's NUM:date class). */
export const asksWhen = (query: string) => /^\s*when\b/i.test(query);

/** The days of the week, in English, singular or plural ("on Fridays"). */
const WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b/i;

/** Whether a text says when: a time of day (holdsClockTime) or a day of the week. */
export const holdsWhen = (text: string) => holdsClockTime(text) || WEEKDAY.test(lineBody(text));
