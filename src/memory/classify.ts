/**
 * What an event says, read from its words alone (no model): is a prompt a correction ("no, use
 * pnpm"), a preference ("always run tests with --runInBand"), a statement of fact ("the staging
 * API runs on port 8080"), a question or a task? And which values a correction rejects ("not
 * npm", "from 8080 to 8081", "8080 was the old setup"). Supersession and the extractive summary
 * use this.
 */
import { foldText, porterStem, wordsOf } from "./stem.ts";
import { canonicalStem } from "./synonyms.ts";

const CORRECTION_START =
  /^\s*(?:no|nope|nah|wrong|incorrect|not quite|not that|actually|correction|wait|stop|undo|revert that|that'?s (?:wrong|not right|incorrect|not what))\b[\s,.:;!-]/i;
const CORRECTION_ANYWHERE = [
  /\b(?:use|it'?s|is|are|should be|must be|means?|wanted|want|meant|prefer)\s+[^.,;!?]{1,60}?,?\s+not\s+\S/i,
  /\binstead of\b/i,
  /\brather than\b/i,
  /\bno longer\b/i,
  /\bnot anymore\b|\banymore\b/i,
  /\b(?:switched|moved|migrated|changed|renamed|upgraded|downgraded|went)\b[^.;!?]{0,60}\bfrom\b[^.;!?]{1,60}\bto\b/i,
  /\b(?:is|are|lives|runs|listens)\s+(?:now|actually)\b/i,
  /\b(?:from now on|going forward|henceforth)\b/i,
  /\b(?:don'?t|do not|never|stop)\s+(?:use|using|run|running|call|calling|add|adding|touch|edit|commit|push)\b/i,
  /\bI (?:said|told you|asked for)\b/i,
  /\byou should(?:'ve| have)\b/i,
  /\bthat(?:'s| is) (?:wrong|incorrect|not (?:right|correct|it))\b/i,
  /\b(?:was|is) the old\b|\bused to be\b|\bis outdated\b|\bno more\b/i,
];

/** An explicit correction of the agent or of an earlier statement. */
export function isCorrection(text: string): boolean {
  const head = text.slice(0, 600);
  return CORRECTION_START.test(head) || CORRECTION_ANYWHERE.some((re) => re.test(head));
}

const PREFERENCE = /\b(?:always|never|prefer|please use|don'?t|do not|make sure|remember|from now on|must|should|avoid)\b/i;
const QUESTION =
  /\?\s*$|^\s*(?:what|which|where|who|whom|why|how|when|is|are|was|were|do|does|did|can|could|would|should|will|have|has)\b/i;
const TASK =
  /^\s*(?:please\s+)?(?:fix|add|write|update|refactor|implement|create|remove|delete|check|run|make|debug|investigate|look|find|show|explain|rename|move|bump|upgrade|install|build|deploy|test|try|help|let'?s|go|open|review|clean|split|merge|revert|rewrite|change|set up|setup)\b/i;

/** How a statement reads; null for text that is not a sentence of the user's (empty). */
export function statementKind(text: string): "preference" | "fact" | "question" | "task" {
  const head = text.slice(0, 600).trim();
  if (QUESTION.test(head)) return "question";
  if (PREFERENCE.test(head)) return "preference";
  if (TASK.test(head)) return "task";
  return "fact";
}

/** A preference or a statement of fact: something later statements can replace. */
export function isClaim(text: string): boolean {
  const kind = statementKind(text);
  return kind === "preference" || kind === "fact";
}

// Words that frame a statement without naming its subject or value.
const FRAME = new Set(
  (
    "a an the and or but of in on at to for from with by as is are was were be been being it its it's this that these those " +
    "we our us you your i me my they their he she no nope nah not yes ok okay actually correction wrong incorrect wait stop " +
    "instead rather than now anymore longer use uses using used prefer prefers preferred always never please should must " +
    "shall will would can could do does did don't dont doesn't set run runs running ran moved move switched switch changed " +
    "change migrated migrate renamed rename upgraded downgraded replace replaced went go goes make sure remember note noted " +
    "decided decision decide going forward henceforth let's lets just also again here there then so if when which what who " +
    "how why all any some more most very too said told asked meant mean means want wanted think thought thanks got keep " +
    "mind ll fyi heads up update s t d m re ve don didn isn wasn aren last week today yesterday old setup new via"
  ).split(" "),
);

/** Environments: two statements about different ones are about different things. */
const QUALIFIERS = new Set(["stage", "product", "develop", "qa", "uat", "local", "preview", "canari", "sandbox", "test"]);

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}._\-/:@+#=]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const valueLike = (w: string) => /[\d._\-/:@+#=]/.test(w);

/** An identifier-like token stays whole (8080, v1.2.3, src/app.ts); a word is stemmed, close synonyms made one. */
const keyOf = (w: string) => (valueLike(w) ? w : canonicalStem(porterStem(w)));

/** Tokens of a stretch (identifiers kept whole), framing words dropped. */
function contentTokens(stretch: string): string[] {
  return (foldText(stretch).match(TOKEN) ?? []).filter((w) => !FRAME.has(w));
}

/**
 * The words to look a statement's older versions up by: what it rejects first ("npm" in "use
 * pnpm, not npm"), then its other content words, framing words left out; as the index splits them.
 */
export function lookupWords(text: string): string[] {
  const { words } = rejection(text);
  const tokens = contentTokens(text.slice(0, 600));
  const first = tokens.filter((t) => words.has(keyOf(t)));
  const out: string[] = [];
  for (const t of [...first, ...tokens]) for (const w of wordsOf(t)) if (w.length > 1 && !out.includes(w)) out.push(w);
  return out;
}

/** The keys statements are compared by: identifiers whole, words stemmed, framing words dropped. */
export function tokenKeys(text: string): Set<string> {
  return new Set(contentTokens(text.slice(0, 2000)).map(keyOf));
}

// A cue's stretch runs to a comma, semicolon, bracket or the end of a sentence (a dot inside 20.18 is not one).
const STRETCH =
  "((?:[^,;!?().]|[.](?=\\S)){1,60}?)(?=\\s+(?:for|in|on|at|with|when|because|since|to|from|and|but|anymore|now)\\b|[,;!?()]|[.](?!\\S)|$)";
const REJECT_CUES = [
  new RegExp(`\\bnot\\s+${STRETCH}`, "gi"),
  new RegExp(`\\binstead of\\s+${STRETCH}`, "gi"),
  new RegExp(`\\brather than\\s+${STRETCH}`, "gi"),
  new RegExp(`\\bno longer\\s+(?:use|using|uses)?\\s*${STRETCH}`, "gi"),
  new RegExp(`\\b(?:stop|don'?t|do not|never)\\s+(?:use|using)\\s+${STRETCH}`, "gi"),
  /\bfrom\s+((?:[^,;!?().]|[.](?=\S)){1,60}?)\s+to\s/gi,
  /\breplace\s+((?:[^,;!?().]|[.](?=\S)){1,60}?)\s+with\s/gi,
  new RegExp(`\\bused to be\\s+${STRETCH}`, "gi"),
  /(?:^|[\s,;(-])([^\s,;()]{1,40})\s+(?:is|was)\s+(?:wrong|the old|outdated|obsolete|deprecated)\b/gi,
];

/** The values a correction rejects: identifier-like tokens after a cue, or else its first content word. */
export function rejectedOf(text: string): Set<string> {
  return rejection(text).values;
}

/** The rejected values, and every word of the stretches they came from ("named exports" in "rather than named exports"). */
function rejection(text: string): { values: Set<string>; words: Set<string> } {
  const values = new Set<string>();
  const words = new Set<string>();
  for (const re of REJECT_CUES) {
    for (const m of text.slice(0, 600).matchAll(re)) {
      const tokens = contentTokens(m[1]!.replace(/\.$/, ""));
      const ids = tokens.filter(valueLike);
      for (const w of ids.length > 0 ? ids : tokens.slice(0, 1)) values.add(keyOf(w));
      for (const w of tokens) words.add(keyOf(w));
    }
  }
  return { values, words };
}

/** Values a correction asserts: the word before `, not` / `instead of` / `rather than`, after `from X to`, `is now`. */
const ASSERT_CUES = [
  /([^\s,;()]{1,40}),?\s+not\s/gi,
  /([^\s,;()]{1,40})\s+(?:instead of|rather than)\s/gi,
  /\bfrom\s+[^.,;!?()]{1,60}?\s+to\s+([^\s,;()]{1,40})/gi,
  /\b(?:is|are)\s+now\s+([^\s,;()]{1,40})/gi,
  /\b(?:is|are)\s+([^\s,;()]{1,40})\s+now\b/gi,
  /\buse\s+([^\s,;()]{1,40})/gi,
];

export function assertedOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const re of ASSERT_CUES) {
    for (const m of text.slice(0, 600).matchAll(re)) for (const w of contentTokens(m[1]!)) out.add(keyOf(w));
  }
  return out;
}

/** The newer statement's keys, rejected and asserted values, computed once per comparison run. */
export type Statement = { keys: Set<string>; rejected: Set<string>; asserted: Set<string> };

export function statementOf(text: string): Statement {
  const { values, words } = rejection(text);
  const asserted = assertedOf(text);
  // "default exports rather than named exports" asserts "default", not "exports".
  for (const w of words) asserted.delete(w);
  return { keys: tokenKeys(withoutAsides(text)), rejected: values, asserted };
}

/** Bracketed asides ("(config in config/x.yaml)") are not part of what a statement says. */
const withoutAsides = (text: string) => text.replace(/\([^()]{0,200}\)/g, " ");

const count = (a: Set<string>, keep: (x: string) => boolean) => {
  let n = 0;
  for (const x of a) if (keep(x)) n++;
  return n;
};

/** Both name an environment, and not the same one. */
export function differentEnvironments(a: Set<string>, b: Set<string>): boolean {
  return count(a, (x) => QUALIFIERS.has(x) && !b.has(x)) > 0 && count(b, (x) => QUALIFIERS.has(x) && !a.has(x)) > 0;
}

/** How many stored events hold a key (the index's document frequency); identifiers count as rare. */
export type Rarity = (key: string) => number;

/**
 * Does the newer statement replace the older text? Yes when it rejects a value the older one
 * holds and they share context, or when it repeats all the older one's words but one, and that
 * one is a value (no more common than the words they share), not a subject. Never when the older
 * one already holds the value the newer asserts, rejects the same thing, or names another
 * environment.
 */
export function replacesText(newer: Statement, olderText: string, rarity: Rarity = (k) => (valueLike(k) ? 1 : 10)): boolean {
  const ownRejected = rejectedOf(olderText);
  if (count(ownRejected, (r) => newer.rejected.has(r)) > 0) return false; // it rejected the same thing
  // What the older text rejected itself is not what it states.
  const old = new Set([...tokenKeys(withoutAsides(olderText))].filter((k) => !ownRejected.has(k)));
  if (old.size === 0) return false;
  const fresh = count(newer.keys, (k) => !old.has(k) && !newer.rejected.has(k));
  if (fresh === 0) return false; // the older text already says all the newer one does
  if (count(newer.asserted, (a) => old.has(a)) > 0) return false; // it already holds the new value
  if (differentEnvironments(old, newer.keys)) return false;
  if (count(newer.rejected, (r) => old.has(r)) > 0) {
    // Each names a subject the other does not ("the feature flag service ... 22.3 was the old
    // setup" and "the inventory sync is pinned to node 22.3"): the same value of something else.
    const newerOnly = count(newer.keys, (k) => !old.has(k) && !newer.rejected.has(k) && !newer.asserted.has(k) && !valueLike(k));
    const oldOnly = count(old, (k) => !newer.keys.has(k) && !valueLike(k));
    if (newerOnly >= 2 && oldOnly >= 2) return false;
    const context = count(newer.keys, (k) => old.has(k) && !newer.rejected.has(k));
    const bare = count(newer.keys, (k) => !newer.rejected.has(k)) <= 2;
    // Most of the older text is said again (it is about the same thing), or the correction is bare ("no, use pnpm").
    const unsaid = count(old, (k) => !newer.keys.has(k));
    return (context >= 2 && unsaid <= Math.max(1, Math.floor(old.size * 0.4))) || (bare && isClaim(olderText));
  }
  // The same subject, another value: all the older words but one are said again, and that one is a
  // value (about as rare as the rarest shared word, or rarer), not a subject word.
  const shared = [...old].filter((k) => newer.keys.has(k));
  const gone = [...old].filter((k) => !newer.keys.has(k));
  if (shared.length < 2 || gone.length !== 1) return false;
  return rarity(gone[0]!) <= Math.min(...shared.map(rarity)) * 3;
}
