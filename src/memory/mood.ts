/**
 * Mood and speech act of a sentence, from closed-class words only: whether it asks (a question),
 * asks for something (a wish reported of others) or names a thing with a word that is also a verb
 * of change ("my change to the key columns", "lint on changed files"). None of these states what
 * holds now, so none of them replaces an earlier statement (change-cues.ts).
 *
 * The word classes are the closed classes of English grammar as listed in Quirk, Greenbaum, Leech
 * and Svartvik, A Comprehensive Grammar of the English Language (1985): the determiners (central
 * determiners, possessives and demonstratives, ch. 5), the simple prepositions (ch. 9), the
 * interrogative words and the operators that open a yes-no question (ch. 11, on questions and on
 * indirect speech acts), and the verbs of volition (want, wish, hope, would like: ch. 4, on
 * modality). No word here comes from a project's text.
 */

/** Central determiners, possessive and demonstrative determiners: what follows heads or modifies a noun phrase. */
const DETERMINERS = "the a an my our your his her its their this that these those every each no some any";
/** Simple prepositions (not "to", which also marks an infinitive). */
const PREPOSITIONS = "on in at of for with by about after before during under over into onto through without";

/**
 * A word of change used as a noun or adjective: right after a determiner ("my change to", "the
 * move to") or, as a past participle, right after a preposition ("on changed files"): a noun
 * phrase, not a verb saying something changed.
 */
export function nominalUses(forms: readonly string[], past: readonly string[]): RegExp {
  return new RegExp(
    `\\b(?:(?:${DETERMINERS.split(" ").join("|")})\\s+(?:${forms.join("|")})|(?:${PREPOSITIONS.split(" ").join("|")})\\s+(?:${past.join("|")}))\\b`,
    "gi",
  );
}

/** Words that open a question: interrogative words and the operators of a yes-no question. */
const INTERROGATIVES = "what which where who whom whose why how when";
const OPERATORS = "is are was were do does did can could would should will shall have has may might";
/** Personal and indefinite pronouns an operator is followed by in a question ("did something", "can u"). */
const PRONOUNS = "i you u we it they he she someone something anyone anything somebody anybody";

/**
 * A clause tacked on with a comma that asks: an interrogative word, or an operator before a
 * pronoun ("..., what did i do", "..., can you find out why"). Where sentences() splits.
 */
export const ASKED_CLAUSE = new RegExp(
  `,\\s+(?=(?:${INTERROGATIVES.split(" ").join("|")})\\s+(?:${OPERATORS.split(" ").join("|")})\\b|(?:${OPERATORS.split(" ").join("|")})\\s+(?:${PRONOUNS.split(" ").join("|")})\\b)`,
  "i",
);

/**
 * A wish reported of others: a subject other than the speaker ("members", "the designers") with a
 * verb of volition in the present ("members want an sms reminder"). It asks for something; it
 * does not say what holds. "I want X, not Y" (the speaker's own directive) is left to the cues of
 * correction.
 */
const VOLITION = /\b(?:wants?|wish(?:es)?|hopes?|would like|'d like|are asking for|is asking for|ask for|asks for)\b/i;
const SPEAKER = /\b(?:i|we|i'd|we'd)\s*$/i;

export function reportsWish(sentence: string): boolean {
  const m = VOLITION.exec(sentence);
  if (!m) return false;
  const before = sentence.slice(0, m.index).trim();
  // A subject of one to four words before it, not the speaker, and no clause boundary between.
  if (before === "" || /[,;:]/.test(before) || SPEAKER.test(before)) return false;
  const words = before.split(/\s+/);
  return words.length <= 4 && !/^(?:do|does|did|don'?t|doesn'?t)$/i.test(words.at(-1)!);
}

/**
 * Speech reported of others: a subject other than the speaker with a verb of saying ("a customer
 * says the export is gone", "ops told us X moved"; Quirk et al. 1985, ch. 14 on reported speech;
 * "reports" and "claims" are as often nouns).
 * What they say is their report, not what the speaker states holds.
 */
const SAYING = /\b(?:says|said|tells|told)\b/i;

export function reportsSpeech(sentence: string): boolean {
  const m = SAYING.exec(sentence);
  if (!m) return false;
  const before = sentence.slice(0, m.index).trim();
  // "the page now says X" tells what a thing shows now, not what someone reported.
  if (before === "" || /[,;:]/.test(before) || SPEAKER.test(before) || /\bnow\b/i.test(before)) return false;
  const words = before.split(/\s+/);
  return words.length <= 4 && !/^(?:i|we|you|u)$/i.test(words[0]!);
}

/** Words that open a request before its verb: greetings, discourse openers and "please" (as TASK in change-cues.ts). */
const OPENERS = /^\s*(?:(?:hi|hello|ok|okay|so|and|also|now|then|next|please)[\s,!:]+)*/i;
/** A finite operator or copula, or its contraction ("the port's 8081"). */
const FINITE = new RegExp(`\\b(?:${OPERATORS.split(" ").join("|")}|am|had|must)\\b|\\w['’](?:s|re)\\b`, "i");
/** Determiners and quantifiers that open the object of an imperative verb. */
const OBJECT_START = new RegExp(`^(?:${DETERMINERS.split(" ").join("|")}|all)$`, "i");
/**
 * Past forms heading a note whose subject is left out ("took the flag out"): the commonest
 * irregular past forms of transitive verbs (Quirk et al. 1985, Appendix I, irregular verbs),
 * read as a statement, not as an imperative.
 */
const IRREGULAR_PAST = new Set(
  "took made put set got gave wrote built left kept ran sent found brought told had did bought began".split(" "),
);

/**
 * An imperative: a clause without a subject that opens with a verb in its plain form, then its
 * object ("paginate the admin list", "please sort the rows"). Read from the shape alone: the first
 * word is no function word (isFunctionWord), no past, -s or -ing form, and the next word opens a
 * noun phrase (a determiner). A verb of change in the imperative ("drop the enum") is a decision,
 * not a request: the caller leaves those out.
 */
export function opensImperative(sentence: string, isFunctionWord: (w: string) => boolean): boolean {
  // The verb and the first word of its object, with nothing but a space between ("nice, no more X" is no verb and object).
  const [, verb, next] = /^([\p{L}'’]+) +([\p{L}'’]+)/u.exec(sentence.replace(OPENERS, "").toLowerCase()) ?? [];
  if (verb === undefined || next === undefined || !OBJECT_START.test(next)) return false;
  if (isFunctionWord(verb) || IRREGULAR_PAST.has(verb) || /(?:ed|ing|[^s]s)$/.test(verb)) return false;
  // An imperative has no subject, so no finite operator of its own: "btw the port is 8081 now" is
  // a statement whose subject follows an aside (its first clause, up to a comma, is read).
  const clause = sentence.split(/[,;:]/)[0]!;
  return !FINITE.test(clause);
}

const ASKING_WORDS = new Set(INTERROGATIVES.split(" "));

/**
 * A question asked with its interrogative word left in place or at the end ("drop the old column
 * when", "you said what"): the sentence ends in an interrogative word after a content word
 * (not a cleft such as "that's why").
 */
export function asksInSitu(sentence: string, isFunctionWord: (w: string) => boolean): boolean {
  // The end of the sentence is enough: the last two words.
  const words = sentence
    .slice(-40)
    .toLowerCase()
    .split(/[^\p{L}'’]+/u)
    .filter((w) => w !== "");
  const last = words.at(-1);
  const before = words.at(-2);
  return last !== undefined && before !== undefined && ASKING_WORDS.has(last) && !isFunctionWord(before);
}

/** A clause of condition (Quirk et al. 1985, ch. 15: conditional clauses). */
const CONDITION = /\b(?:if|unless)\b/i;
/** A verb group that speaks of a change to come: a modal, or a present passive ("gets cut", "will be dropped"). */
const TO_COME = /\b(?:will|'ll|would|'d|shall|gonna|going to|gets?|is|are|be)\s+(?:be\s+|get\s+)?$/i;

/**
 * A change said under a condition, still to come ("the map gets cut if it isn't done by friday",
 * "we'll drop X unless Y"): a plan, not what holds. `cue` finds the sentence's cues of change; a
 * cue said as done ("we cut X if ...": a past form with no auxiliary of the future before it) is
 * a change all the same.
 */
export function conditionalPlan(sentence: string, cue: RegExp): boolean {
  if (!CONDITION.test(sentence)) return false;
  const global = new RegExp(cue.source, cue.flags.includes("g") ? cue.flags : `${cue.flags}g`);
  const found = [...sentence.matchAll(global)];
  return found.length > 0 && found.every((m) => TO_COME.test(sentence.slice(0, m.index)));
}

/** Modal auxiliaries (Quirk et al. 1985, ch. 4: the central modals and the semi-modals of obligation; not "had to", a past that says it happened). */
const MODALS = "should|must|could|would|might|may|can|ought to|needs? to|has to|have to";

/**
 * A change in a modal passive ("X should be bumped", "Y could get dropped"), or in a progressive
 * passive ("X is being retired", Quirk et al. 1985, ch. 4 on aspect): what ought to or may
 * happen, or is under way, not what was done. `past` are the past participles of the verbs of change.
 */
export function modalPassives(past: readonly string[]): RegExp {
  return new RegExp(
    `\\b(?:(?:${MODALS})\\s+(?:not\\s+|still\\s+|also\\s+)?(?:be|get)|(?:is|are|am)\\s+(?:now\\s+|still\\s+)?being)\\s+(?:${past.join("|")})\\b`,
    "gi",
  );
}

/**
 * An adverbial clause of time or reason with a subject of its own ("after we renamed the key",
 * "because they moved it"; Quirk et al. 1985, ch. 15 on adverbial clauses): the circumstances of
 * what the main clause reports, not what the sentence says holds now.
 */
export const CIRCUMSTANCE = new RegExp(
  `\\b(?:after|when|whenever|since|once|because|before|until|till)\\s+(?:${PRONOUNS.split(" ").join("|")})\\s+[^,;.!?]*`,
  "gi",
);
