/**
 * The values a text holds for what a question asks (answer-type.ts reads the question): a quantity
 * of any kind, and a value of the kind a focus word asks for (Li and Roth's NUM fine classes: a
 * period, a size, a distance, a speed, a temperature, a percentage, a weight; a version), said with
 * its unit, in words, or as a setting named by the noun or by its unit.
 */

import { lineBody } from "./summary-line.ts";

/** English cardinal number words: one to nineteen, the tens, and the powers and dozen they combine with. */
export const NUMBER_WORDS =
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
  /^(?:counts?|dates?|distances?|lengths?|percent(?:age)?s?|speeds?|temperatures?|sizes?|weights?|periods?|durations?|intervals?|lifetimes?|money|prices?|costs?|fees?|amounts?|ports?)$/;

/** Whether a word is one of the numeric nouns (NUMERIC_NOUN). */
export const isNumericNoun = (word: string) => NUMERIC_NOUN.test(word);

/** A number standing alone (not the digits of a name or a version's tail). */
export const NUMBER = "(?<![\\p{L}\\p{N}_.])\\d+(?:[.,]\\d+)?";
const shape = (unit: string) => new RegExp(`${NUMBER}\\s?(?:${unit})(?![\\p{L}\\p{N}])`, "iu");
/** Units of time: SI and the units accepted with it (BIPM SI Brochure, 9th ed., Table 8), with their names and common short forms. */
const TIME = "ms|s|secs?|seconds?|min|mins|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?";
/** The units of time by name, for a period said in words or hyphenated ("a week", "two days", "30-day"). */
const TIME_NAMES = "seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|quarters?|years?|decades?";
/** A number joined to its unit of time by a hyphen, named or short ("30-day", "15-min", "24-hr"): a compound adjective ("a 15-min interval"). */
const HYPHENATED_PERIOD = `${NUMBER}-(?:${TIME_NAMES}|secs?|mins?|hrs?|ms|wks?|yrs?)(?![\\p{L}\\p{N}])`;
/** A period said in words: an article, a number word or a vague count before a unit of time ("a week", "an hour", "few days", "half a day"). */
const SAID_PERIOD = `\\b(?:an?|${NUMBER_WORDS}|few|several|couple\\s+of|half\\s+an?)\\s+(?:${TIME_NAMES})\\b`;
/** Units of size: bytes with SI and IEC prefixes (IEC 80000-13), pixels, and a width by a height. */
const SIZE = "[kmgtp]?i?b|bytes?|[kmgtp]i?bytes|px|pixels?|k|m";
/** Units of length (SI metre with prefixes; miles, feet, inches). */
const LENGTH = "[kcm]?m|metres?|meters?|kilometres?|kilometers?|mi|miles?|ft|feet|foot|inch(?:es)?";

/** A period: a number with a unit of time (also hyphenated, "30-day"), one said in words ("a week"), or forever. */
const PERIOD = new RegExp(`${shape(TIME).source}|${HYPHENATED_PERIOD}|${SAID_PERIOD}|\\b(?:forever|indefinitely)\\b`, "iu");
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

/** A span of years, "1991-2020", "2019 to 2023" (four-digit years of the 1800s to the 2000s). */
const YEAR_SPAN = /(?<![\p{L}\p{N}.])(?:1[89]|20)\d\d\s?(?:-|–|to)\s?(?:1[89]|20)\d\d(?![\p{L}\p{N}.])/u;

/**
 * A port: after a host and a colon ("db:5432", "10.0.0.5:9000"), named ("port 8080", "PORT default
 * is 3000"), or after a socket's verbs (POSIX bind and listen: "listens on 9090", "bound to 9000",
 * "exposes 3000"), four or five digits a container's port is mapped or forwarded to ("docker pg
 * mapped to 5433") or written after a colon with no host ("dev api on :8041"); or a number of two to five digits in a
 * text that says "port" ("moved the metrics listener to 9102, a port nothing else uses").
 */
const PORT_SHAPE =
  /[\p{L}\p{N}\]._-]:\d{2,5}(?![\p{N}])|\bports?\b(?:\W{1,3}[\p{L}]+){0,3}\W{0,3}\d{2,5}(?![\p{N}])|\b(?:listen(?:s|ing)?|binds?|binding|bound|expose[sd]?)\s+(?:(?:on|to)\s+)?\d{2,5}(?![\p{N}])|\b(?:mapp(?:ed|ing)|forward(?:ed|ing))\s+to\s+\d{4,5}(?![\p{N}])|(?:^|\s):\d{4,5}(?![\p{N}])/iu;
const PORT_WORD = /\bports?\b/i;
const PORT_NUMBER = /(?<![\p{L}\p{N}_.:-])\d{2,5}(?![\p{L}\p{N}_]|[.:]\d)/u;

/**
 * A frequency said with its unit: the hertz and its multiples (SI derived unit of frequency, BIPM SI
 * Brochure, 9th ed., Table 4), revolutions per minute, or a count per unit of time ("4/min", "2 per hour").
 */
const FREQUENCY = `${NUMBER}\\s?(?:[kmg]?hz|rpm)(?![\\p{L}\\p{N}])|${NUMBER}\\s?(?:/|per\\s)\\s?(?:s|secs?|seconds?|min|mins?|minutes?|h|hrs?|hours?|days?|nights?|weeks?|months?|years?)(?![\\p{L}\\p{N}])`;

/** "every" and a number of some unit: an interval in any unit ("every 1200 miles", "every three releases"). */
const EVERY_COUNT = new RegExp(`\\bevery\\s+(?:${NUMBER}|\\b(?:${NUMBER_WORDS.replace(/^one\|/, "")})\\b)\\s?\\p{L}+`, "iu");

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
      `${shape(TIME).source}|${HYPHENATED_PERIOD}|${FREQUENCY}|\\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually|every|once|twice)\\b|\\b(?:an?|per)\\s+(?:second|minute|hour|day|night|week|month|year)\\b`,
      "iu",
    ),
    required: true,
  },
  // A period is also said by its bounds: "the baseline period is 1991-2020".
  {
    focus: /^periods?$/,
    value: { test: (text: string) => PERIOD_VALUE.test(text) || YEAR_SPAN.test(text) },
    required: true,
  },
  // An interval is also said in another unit than time: "brake blocks every 1200 miles", "a check every 500 cycles".
  {
    focus: /^intervals?$/,
    value: { test: (text: string) => PERIOD_VALUE.test(text) || EVERY_COUNT.test(text) },
    required: true,
  },
  {
    focus: /^(?:long|old|soon|durations?|lifetimes?)$/,
    value: PERIOD_VALUE,
    required: true,
  },
  {
    focus: /^(?:versions?|releases?)$/,
    value: /(?<![\p{L}\p{N}_.])v?\d+(?:\.\d+)+[\p{L}\p{N}]*|(?<![\p{L}\p{N}_])v\d+(?![\p{L}\p{N}])|\b(?:latest|lts)\b/iu,
    required: false,
  },
  // A port (PORT_SHAPE).
  {
    focus: /^ports?$/,
    value: { test: (text: string) => PORT_SHAPE.test(text) || (PORT_WORD.test(text) && PORT_NUMBER.test(text)) },
    required: true,
  },
  { focus: /^(?:big|large|small|sizes?)$/, value: new RegExp(`${NUMBER}\\s?x\\s?\\d+|${shape(SIZE).source}`, "iu"), required: false },
  { focus: /^distances?$/, value: shape(LENGTH), required: true },
  // "how far in advance", "how far back": a distance in time as often as in space.
  { focus: /^far$/, value: new RegExp(`${shape(LENGTH).source}|${PERIOD.source}`, "iu"), required: true },
  {
    focus: /^(?:fast|speeds?)$/,
    value: new RegExp(
      `(?:${NUMBER}|\\b(?:${NUMBER_WORDS})\\b)\\s?(?:(?:\\p{L}+\\s?)?(?:/\\s?\\p{L}+|per\\b)|[kmg]?bps|rps|qps|fps|hz|(?:${SPEED})(?![\\p{L}\\p{N}]))`,
      "iu",
    ),
    required: true,
  },
  { focus: /^temperatures?$/, value: shape("°\\s?[cf]?|c|f|k|celsius|fahrenheit|kelvin|degrees?"), required: true },
  { focus: /^percent(?:age)?s?$/, value: /\d\s?%|\bper\s?cent\b/iu, required: true },
  { focus: /^weights?$/, value: shape("[mk]?g|grams?|kilograms?|kilos?|t|tonnes?|tons?|lbs?|pounds?|oz|ounces?"), required: true },
];

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

/** Whether a focus word's value is required (VALUE): a text holding none of its kind does not answer. */
export const requiresValue = (focus: string) => VALUE.some((k) => k.required && k.focus.test(focus));

/** Whether a text holds a quantity (a summary line's label, "- e123 fact: ", left out). */
export function holdsQuantity(text: string): boolean {
  return QUANTITY.test(lineBody(text));
}
