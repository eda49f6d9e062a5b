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

/** English cardinal number words: one to nineteen, the tens, and the powers and dozen they combine with. */
const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|" +
  "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen";
/**
 * A quantity: a number standing alone or with its unit (8080, 1.7.2, 24h, 15 minutes, 3%, v4), not
 * glued to the letters of a name (s3, ec2, e931); a number word; a word of frequency or period.
 */
const QUANTITY = new RegExp(
  [
    "(?<![\\p{L}\\p{N}_])v?\\d",
    `\\b(?:${NUMBER_WORDS}|once|twice|half)\\b`,
    "\\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|every|forever|indefinitely|latest|lts)\\b",
    "\\b(?:an?|per|each)\\s+(?:second|minute|hour|day|night|week|month|quarter|year)\\b",
  ].join("|"),
  "iu",
);

/**
 * Li and Roth's numeric classes as the noun naming what is asked: count, date, distance, percent,
 * speed, temperature, size, weight, period, money; for a period also duration, interval and
 * lifetime (nouns whose meaning is a length of time), for a distance length, for money the nouns
 * of what a thing costs (price, cost, fee, amount).
 */
const NUMERIC_NOUN =
  /^(?:counts?|dates?|distances?|lengths?|percent(?:age)?s?|speeds?|temperatures?|sizes?|weights?|periods?|durations?|intervals?|lifetimes?|money|prices?|costs?|fees?|amounts?)$/;

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
    return last !== undefined && NUMERIC_NOUN.test(last) && !verb(last) ? last : null;
  }
  // In the phrase, the numeric noun is what is asked when it is the phrase's head: its last noun,
  // at the end or before the question's verb ("what wind speed closes the marina"); one modifying
  // a noun after it is not ("what date format": a format; "what temperature effect": an effect).
  return phrase.find((w, i) => NUMERIC_NOUN.test(w) && !verb(w) && (i === phrase.length - 1 || finiteVerb(phrase[i + 1]!))) ?? null;
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

const NUMBER = "(?<![\\p{L}\\p{N}_.])\\d+(?:[.,]\\d+)?";
const shape = (unit: string) => new RegExp(`${NUMBER}\\s?(?:${unit})(?![\\p{L}\\p{N}])`, "iu");
/** Units of time: SI and the units accepted with it (BIPM SI Brochure, 9th ed., Table 8), with their names and common short forms. */
const TIME = "ms|s|secs?|seconds?|min|mins|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?";
/** The units of time by name, for a period said in words or hyphenated ("a week", "two days", "30-day"). */
const TIME_NAMES = "seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|quarters?|years?|decades?";
/** A period said in words: an article, a number word or a vague count before a unit of time ("a week", "an hour", "few days", "half a day"). */
const SAID_PERIOD = `\\b(?:an?|${NUMBER_WORDS}|few|several|couple\\s+of|half\\s+an?)\\s+(?:${TIME_NAMES})\\b`;
/** Units of size: bytes with SI and IEC prefixes (IEC 80000-13), pixels, and a width by a height. */
const SIZE = "[kmgtp]?i?b|bytes?|[kmgtp]i?bytes|px|pixels?|k|m";
/** Units of length (SI metre with prefixes; miles, feet, inches). */
const LENGTH = "[kcm]?m|metres?|meters?|kilometres?|kilometers?|mi|miles?|ft|feet|foot|inch(?:es)?";

/** A period: a number with a unit of time (also hyphenated, "30-day"), one said in words ("a week"), or forever. */
const PERIOD = new RegExp(`${shape(TIME).source}|${NUMBER}-(?:${TIME_NAMES})\\b|${SAID_PERIOD}|\\b(?:forever|indefinitely)\\b`, "iu");
/**
 * A setting whose name ends in its unit of time, set to a number: "PENDING_RELEASE_MINUTES = 15",
 * "timeout_ms: 500", "retryDelaySeconds = 30" (code names a quantity's unit in its last part, after
 * an underscore or as a capitalised word). Case matters for the camel-case part, so no "i" flag.
 */
const SNAKE_UNITS = "ms|millis|secs?|seconds|mins?|minutes|hrs?|hours|days|weeks|months|years";
const CAMEL_UNITS = "Ms|Millis|Secs?|Seconds|Mins?|Minutes|Hrs?|Hours|Days|Weeks|Months|Years";
const UNIT_NAMED = new RegExp(
  `(?<![\\p{L}\\p{N}])[\\p{L}\\p{N}_]*(?:_(?:${SNAKE_UNITS}|${SNAKE_UNITS.toUpperCase()})|\\p{Ll}(?:${CAMEL_UNITS}))["']?\\s*[:=]\\s*\\d`,
  "u",
);
/** A period: one said with its unit (PERIOD), or a number set on a name that ends in its unit (UNIT_NAMED). */
const PERIOD_VALUE = { test: (text: string) => PERIOD.test(text) || UNIT_NAMED.test(text) };

/** Units of speed besides a unit per unit: the knot (BIPM SI Brochure, 8th ed., Table 8), miles and kilometres per hour. */
const SPEED = "kn|kts?|knots?|mph|kph|km/h";

/**
 * The value a focus word asks for, by its kind (Li and Roth's NUM fine classes: period, size,
 * distance, speed, temperature, percent, weight; a version): a text answers "how long" with a
 * period ("kept 30 days"), not with any number ("ruby 3.2.2"). A focus word of no listed kind takes
 * any quantity. `required`: a text without a value of the kind does not answer at all (a period,
 * a distance, a speed, a temperature, a percentage, a weight are said with their units); a size
 * and a version are also said in other ways ("0.64 world units", "stack = 2048", "the LTS"), so for them a value
 * is evidence, not a condition.
 */
const VALUE: ReadonlyArray<{ focus: RegExp; value: { test(text: string): boolean }; required: boolean }> = [
  {
    focus: /^(?:often|frequently)$/,
    value: new RegExp(
      `${shape(TIME).source}|\\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|every|once|twice)\\b|\\b(?:an?|per)\\s+(?:second|minute|hour|day|night|week|month|year)\\b`,
      "iu",
    ),
    required: true,
  },
  {
    focus: /^(?:long|old|soon|periods?|durations?|intervals?|lifetimes?)$/,
    value: PERIOD_VALUE,
    required: true,
  },
  {
    focus: /^(?:versions?|releases?)$/,
    value: /(?<![\p{L}\p{N}_.])v?\d+(?:\.\d+)+[\p{L}\p{N}]*|(?<![\p{L}\p{N}_])v\d+(?![\p{L}\p{N}])|\b(?:latest|lts)\b/iu,
    required: false,
  },
  { focus: /^(?:big|large|small|sizes?)$/, value: new RegExp(`${NUMBER}\\s?x\\s?\\d+|${shape(SIZE).source}`, "iu"), required: false },
  { focus: /^distances?$/, value: shape(LENGTH), required: true },
  // "how far in advance", "how far back": a distance in time as often as in space.
  { focus: /^far$/, value: new RegExp(`${shape(LENGTH).source}|${PERIOD.source}`, "iu"), required: true },
  {
    focus: /^(?:fast|speeds?)$/,
    value: new RegExp(
      `${NUMBER}\\s?(?:(?:\\p{L}+\\s?)?(?:/\\s?\\p{L}+|per\\b)|[kmg]?bps|rps|qps|fps|hz|(?:${SPEED})(?![\\p{L}\\p{N}]))`,
      "iu",
    ),
    required: true,
  },
  { focus: /^temperatures?$/, value: shape("°\\s?[cf]?|c|f|k|celsius|fahrenheit|kelvin|degrees?"), required: true },
  { focus: /^percent(?:age)?s?$/, value: /\d\s?%|\bper\s?cent\b/iu, required: true },
  { focus: /^weights?$/, value: shape("[mk]?g|grams?|kilograms?|kilos?|t|tonnes?|tons?|lbs?|pounds?|oz|ounces?"), required: true },
];

/**
 * "how often" and "how frequently" ask for a frequency, but their word is a stop word, no word of
 * the query: the word a text holding a frequency (a period, "nightly", "every ...") stands for.
 * Null for other questions.
 */
export function frequencyFocus(query: string): string | null {
  return asksQuantity(query) ? (HOW_OFTEN.exec(query)?.[1]?.toLowerCase() ?? null) : null;
}

/** Whether a text holds a value of the kind a focus word asks for (VALUE; any quantity for another word). */
export function holdsValueFor(focus: string, text: string): boolean {
  const kind = VALUE.find((k) => k.focus.test(focus));
  if (!kind) return holdsQuantity(text);
  const body = lineBody(text);
  return kind.value.test(body) || (kind.required && setsNumber(focus, body));
}

/**
 * A setting naming the focus noun with a bare number ("interval=30", "SESSION_LIFETIME: 3600",
 * "retention_period 14"): the unit is the setting's own, the number is the value asked for. The
 * noun ends the name's word or a separator follows it (`interval_ms`), not a longer word
 * ("percentile 99", "periodic 5"); the adjective of "how long" or "how far" names no setting
 * ("longitude: 45").
 */
function setsNumber(focus: string, body: string): boolean {
  if (!NUMERIC_NOUN.test(focus)) return false;
  const word = focus.replace(/s$/, "");
  return new RegExp(`(?<![\\p{L}\\p{N}])${word}s?(?:[_-][\\p{L}\\p{N}_-]*)?["']?\\s*[:=]?\\s*\\d`, "iu").test(body);
}

/**
 * The focus words of a quantity question (quantityFocus) whose value is required (VALUE): a text
 * holding no value of their kind does not answer ("how long are backups kept" is not answered by
 * the backup log's timestamps, "what interval does the client use" not by its port).
 */
export function requiredValues(query: string): string[] {
  return quantityFocus(query).filter((w) => VALUE.some((k) => k.required && k.focus.test(w)));
}

/** Whether a text holds a quantity (a summary line's label, "- e123 fact: ", left out). */
export function holdsQuantity(text: string): boolean {
  return QUANTITY.test(lineBody(text));
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

/** "what time", "at what time", "time of day": a clock time asked for (Li and Roth's NUM:date class, a time of day). */
export const asksClockTime = (query: string) =>
  /\b(?:what|which)\s+time\b(?!\s+(?:zone|window|limit|frame|budget|range))|\btime\s+of\s+(?:the\s+)?day\b/i.test(query);

/**
 * A time of day: a clock time (06:30, 6.30, 6am, 18h), a part of the day (noon, midnight,
 * morning, evening, night), or a cron schedule's minute and hour fields ("30 6 * * *").
 */
const CLOCK =
  /(?<![\p{L}\p{N}_.:])(?:[01]?\d|2[0-3])[:.h][0-5]\d(?![\p{N}]|[.:]\d)|(?<![\p{L}\p{N}_])(?:1[0-2]|0?[1-9])\s?(?:am|pm|a\.m\.|p\.m\.)(?![\p{L}])|\b(?:noon|midday|midnight|mornings?|afternoons?|evenings?|nights?|nightly|o'clock)\b|(?<![\p{L}\p{N}])[\d*/,-]+\s+[\d*/,-]+\s+[\d*/,?-]+\s+[\d*/,-]+\s+[\d*/,?a-z-]+/iu;

/** Whether a text says a time of day (CLOCK). */
export const holdsClockTime = (text: string) => CLOCK.test(lineBody(text));
