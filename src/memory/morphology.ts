/**
 * The other forms of a word, so "deploy" finds "deployment", "logger" finds "logging" and
 * "rebuild" finds "rebuilt". SQLite's porter tokenizer (stem.ts) already folds most inflections
 * ("connection", "connected"), but not all: "deploy" stems to "deploi" and "deployment" to
 * "deploy", "logger" keeps its -er, irregular verbs keep their own forms. A query word is taken
 * back to its likely bases (English suffix rules: -s, -es, -ies, -ed, -ing, -er, -or, -ment, -ion,
 * -ation, -able, with doubled consonants and a silent e restored) and each base forward again, and
 * the irregular verbs of English (the standard table of base, past and past participle, with the
 * prefixes re-, un-, over-, under-, out-, mis-, pre-, up-) add theirs. What comes back is the set
 * of index stems the forms stem to: a query word matches any of them, each with its weight
 * (inflections and irregular forms 1, derived words such as the agent -er or -ment a little less).
 */
import { derivedWords } from "./derivations.ts";
import { porterStem } from "./stem.ts";

/** Base, past, past participle (a form may list alternatives with /). */
const IRREGULAR =
  "arise arose arisen|awake awoke awoken|bear bore borne|beat beat beaten|become became become|begin began begun|" +
  "bend bent bent|bet bet bet|bid bid bid|bind bound bound|bite bit bitten|bleed bled bled|blow blew blown|break broke broken|" +
  "breed bred bred|bring brought brought|build built built|burn burnt/burned burnt/burned|buy bought bought|cast cast cast|" +
  "catch caught caught|choose chose chosen|cling clung clung|come came come|cost cost cost|creep crept crept|cut cut cut|" +
  "deal dealt dealt|dig dug dug|do did done|draw drew drawn|dream dreamt/dreamed dreamt/dreamed|drink drank drunk|" +
  "drive drove driven|eat ate eaten|fall fell fallen|feed fed fed|feel felt felt|fight fought fought|find found found|" +
  "flee fled fled|fling flung flung|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|" +
  "freeze froze frozen|get got got/gotten|give gave given|go went gone|grind ground ground|grow grew grown|hang hung hung|" +
  "have had had|hear heard heard|hide hid hidden|hit hit hit|hold held held|hurt hurt hurt|keep kept kept|kneel knelt knelt|" +
  "know knew known|lay laid laid|lead led led|lean leant/leaned leant/leaned|leap leapt/leaped leapt/leaped|learn learnt/learned learnt/learned|" +
  "leave left left|lend lent lent|let let let|lie lay lain|light lit lit|lose lost lost|make made made|mean meant meant|" +
  "meet met met|pay paid paid|prove proved proven|put put put|quit quit quit|read read read|rid rid rid|ride rode ridden|" +
  "ring rang rung|rise rose risen|run ran run|say said said|see saw seen|seek sought sought|sell sold sold|send sent sent|" +
  "set set set|sew sewed sewn|shake shook shaken|shed shed shed|shine shone shone|shoot shot shot|show showed shown|" +
  "shrink shrank shrunk|shut shut shut|sing sang sung|sink sank sunk|sit sat sat|slay slew slain|sleep slept slept|" +
  "slide slid slid|sling slung slung|slit slit slit|smell smelt/smelled smelt/smelled|speak spoke spoken|speed sped sped|" +
  "spell spelt/spelled spelt/spelled|spend spent spent|spill spilt/spilled spilt/spilled|spin spun spun|spit spat spat|" +
  "split split split|spoil spoilt/spoiled spoilt/spoiled|spread spread spread|spring sprang sprung|stand stood stood|" +
  "steal stole stolen|stick stuck stuck|sting stung stung|stink stank stunk|stride strode stridden|strike struck struck|" +
  "string strung strung|strive strove striven|swear swore sworn|sweep swept swept|swell swelled swollen|swim swam swum|" +
  "swing swung swung|take took taken|teach taught taught|tear tore torn|tell told told|think thought thought|" +
  "throw threw thrown|thrust thrust thrust|tread trod trodden|wake woke woken|wear wore worn|weave wove woven|" +
  "weep wept wept|wet wet wet|win won won|wind wound wound|wring wrung wrung|write wrote written";

const PREFIXES = ["re", "un", "over", "under", "out", "mis", "pre", "up"];

/** Every irregular form -> all forms of its verb. */
const irregular = new Map<string, string[]>();
for (const entry of IRREGULAR.split("|")) {
  const forms = entry.split(" ").flatMap((f) => f.split("/"));
  for (const f of forms) irregular.set(f, [...new Set([...(irregular.get(f) ?? []), ...forms])]);
}

/** The irregular verb a word is a form of, with a prefix kept ("rebuilt": rebuild, rebuilt). */
function irregularForms(word: string): string[] {
  const own = irregular.get(word);
  if (own) return own;
  for (const p of PREFIXES) {
    if (word.length - p.length < 3 || !word.startsWith(p)) continue;
    const rest = irregular.get(word.slice(p.length));
    if (rest) return rest.map((f) => p + f);
  }
  return [];
}

const VOWEL = /[aeiouy]/;
const isConsonant = (c: string | undefined) => c !== undefined && /[a-z]/.test(c) && !/[aeiou]/.test(c);

/**
 * Porter's *o condition with measure 1 (step 1b): one vowel group ending consonant-vowel-consonant,
 * the last not w, x or y ("stor", "tim", "hop"). Such a word takes its consonant doubled before a
 * suffix ("hopped"), so a stem left single by -ed, -ing or -er had a silent e ("hoped": hope).
 */
function shortCvc(stem: string): boolean {
  const groups = stem.match(/[aeiou]+|y(?=[^aeiou])/g) ?? [];
  const n = stem.length;
  return (
    groups.length === 1 &&
    n >= 3 &&
    isConsonant(stem[n - 1]) &&
    !/[wxy]/.test(stem[n - 1]!) &&
    /[aeiou]/.test(stem[n - 2]!) &&
    isConsonant(stem[n - 3])
  );
}

/**
 * A base with a doubled final consonant undone ("logg" -> "log"), or with a silent e back ("stor"
 * -> "store"); a short stem ending consonant-vowel-consonant had its e ("stored" is store + d:
 * "stor" + ed would be "storred"), so it is no base of its own.
 */
function bases(stem: string): string[] {
  if (stem.length < 2 || !VOWEL.test(stem)) return [];
  const out = [stem];
  const n = stem.length;
  if (n >= 3 && stem[n - 1] === stem[n - 2] && isConsonant(stem[n - 1]) && !/[lsz]$/.test(stem)) out.push(stem.slice(0, -1));
  if (!stem.endsWith("e")) out.push(`${stem}e`);
  if (shortCvc(stem)) return out.slice(1);
  return out;
}

type Suffix = { suffix: string; derived: boolean };
const SUFFIXES: Suffix[] = [
  { suffix: "ies", derived: false },
  { suffix: "es", derived: false },
  { suffix: "s", derived: false },
  { suffix: "ied", derived: false },
  { suffix: "ed", derived: false },
  { suffix: "ing", derived: false },
  { suffix: "ers", derived: true },
  { suffix: "er", derived: true },
  { suffix: "ors", derived: true },
  { suffix: "or", derived: true },
  { suffix: "ments", derived: true },
  { suffix: "ment", derived: true },
  { suffix: "ations", derived: true },
  { suffix: "ation", derived: true },
  { suffix: "ions", derived: true },
  { suffix: "ion", derived: true },
  { suffix: "able", derived: true },
];

/** Likely bases of a word: the word itself when no known suffix ends it, else what is left when the suffix comes off. */
function baseForms(word: string): { base: string; derived: boolean }[] {
  const out: { base: string; derived: boolean }[] = [];
  for (const { suffix, derived } of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    if (suffix === "s" && /(ss|us|is)$/.test(word)) continue;
    const stem = word.slice(0, -suffix.length);
    // -es follows a sibilant or an o ("boxes", "fixes", "goes"); "times" is time + s, not tim + es.
    if (suffix === "es" && !/(s|x|z|ch|sh|o)$/.test(stem)) continue;
    // -s and -es only append; the others may have dropped a silent e or doubled a consonant.
    const restored = suffix === "ies" || suffix === "ied" ? [`${stem}y`] : suffix === "s" || suffix === "es" ? [stem] : bases(stem);
    for (const base of restored) out.push({ base, derived });
  }
  return out.length > 0 ? out : [{ base: word, derived: false }];
}

/** A base's forms: its inflections, and its agent (-er) and action (-ment, -ion) nouns. */
function forward(base: string): { form: string; derived: boolean }[] {
  const out: { form: string; derived: boolean }[] = [{ form: base, derived: false }];
  const last = base.at(-1)!;
  const e = last === "e";
  const stem = e ? base.slice(0, -1) : base;
  const y = last === "y" && isConsonant(base.at(-2));
  // A short word ending consonant-vowel-consonant doubles its consonant (log -> logging, logger).
  const cvc = base.length <= 4 && isConsonant(last) && !/[wxy]/.test(last) && /[aeiou]/.test(base.at(-2) ?? "") && isConsonant(base.at(-3));
  const dbl = cvc ? base + last : stem;
  out.push(
    { form: y ? `${base.slice(0, -1)}ies` : /(s|x|z|ch|sh)$/.test(base) ? `${base}es` : `${base}s`, derived: false },
    { form: y ? `${base.slice(0, -1)}ied` : e ? `${base}d` : `${dbl}ed`, derived: false },
    { form: `${dbl}ing`, derived: false },
    { form: e ? `${base}r` : `${dbl}er`, derived: true },
    { form: `${base}ment`, derived: true },
  );
  if (/(ct|ss|pt|ate|ute|ite|ize|ise)$/.test(base))
    out.push({ form: /(ate|ute|ite|ize|ise)$/.test(base) ? `${stem}ion` : `${base}ion`, derived: true });
  return out;
}

/** How much a derived form counts against the word itself. */
export const DERIVED_WEIGHT = 0.8;
const MAX_STEMS = 8;

export type Form = { word: string; stem: string; weight: number };

const cache = new Map<string, Form[]>();

/**
 * The index stems a folded word matches, each with a word to send to the index (FTS5 stems it to
 * that stem) and its weight; the word's own stem first. Words with digits or shorter than three
 * letters match only themselves.
 */
export function wordForms(word: string): Form[] {
  const cached = cache.get(word);
  if (cached) return cached;
  const own: Form = { word, stem: porterStem(word), weight: 1 };
  const out = new Map<string, Form>([[own.stem, own]]);
  const listed = new Set<string>();
  if (/^[a-z]{3,}$/.test(word)) {
    const add = (form: string, weight: number) => {
      const stem = porterStem(form);
      const prior = out.get(stem);
      if (!prior || prior.weight < weight) out.set(stem, { word: prior?.word ?? form, stem, weight: Math.max(weight, prior?.weight ?? 0) });
    };
    for (const f of irregularForms(word)) add(f, 1);
    add(word, 1);
    const bases = baseForms(word);
    for (const { base, derived } of bases) {
      for (const f of irregularForms(base)) add(f, derived ? DERIVED_WEIGHT : 1);
      for (const f of forward(base)) add(f.form, derived || f.derived ? DERIVED_WEIGHT : 1);
    }
    // What a dictionary derives from the word or one of its bases (derivations.ts); the index's
    // stem covers the partner's inflections: "stores" finds "storage", "decisions" finds "decided".
    for (const base of new Set([word, ...bases.map((b) => b.base)]))
      for (const partner of derivedWords(base)) {
        if (listed.has(porterStem(partner))) continue;
        add(partner, DERIVED_WEIGHT);
        listed.add(porterStem(partner));
      }
  }
  // The word's own forms first, then the dictionary's derivations, then the rules' guesses ("storement") when the list is cut.
  const rank = (f: Form) => (f === own ? 3 : f.weight >= 1 ? 2 : listed.has(f.stem) ? 1 : 0);
  const forms = [...out.values()].sort((a, b) => rank(b) - rank(a) || b.weight - a.weight).slice(0, MAX_STEMS);
  if (cache.size > 20_000) cache.clear();
  cache.set(word, forms);
  return forms;
}

/** Whether a derived word's base forms it again ("logger" of "log", "deployments" of "deploy"). */
function forms(base: string, word: string): boolean {
  return forward(base).some((f) => f.form === word || `${f.form}s` === word);
}

const keys = new Map<string, string>();

/**
 * One key per word family, for comparing two texts' words (supersession): the shortest (then
 * first) index stem among the forms of the word's bases, so "deploy" and "deployment", "log" and
 * "logger" share one. Taking a suffix off guesses ("plates" may be "plate" + s or "plat" + es,
 * "stored" "store" + d or "stor" + ed): a base that takes an inflection off counts when the
 * Porter stemmer (stem.ts) stems it as it stems the word, one that takes a derivation off (-er,
 * -ment, -ion, -able) when its forms give the word back. An irregular verb's forms all count as
 * its base ("rebuilt", "met": rebuild, meet). So "plates" and "plate" share a key, as do
 * "stored" and "store", "sizes" and "size".
 */
export function familyKey(word: string): string {
  const known = keys.get(word);
  if (known !== undefined) return known;
  const own = porterStem(word);
  let key = own;
  const take = (form: string) => {
    const stem = porterStem(form);
    if (stem.length < key.length || (stem.length === key.length && stem < key)) key = stem;
  };
  // A base's forms, and those of the bases it is derived from ("answered": answer, answ). A guessed
  // base counts by its inflections, not bare: "pars" (of "parser") is no word, and Porter stems it
  // to "par" where "parses" and "parsing" stem to "pars".
  const visit = (w: string, word: boolean) => {
    const verb = irregularForms(w)[0];
    for (const f of forward(verb ?? w)) if (word || verb !== undefined || f.form !== w) take(f.form);
    if (verb !== undefined) return;
    const stem = porterStem(w);
    for (const { base, derived } of baseForms(w))
      if (base !== w && (derived ? forms(base, w) : word && porterStem(base) === stem)) visit(base, false);
  };
  if (/^[a-z]{3,}$/.test(word)) {
    const verb = irregularForms(word)[0];
    if (verb !== undefined) key = porterStem(verb);
    visit(word, true);
  }
  if (keys.size > 20_000) keys.clear();
  keys.set(word, key);
  return key;
}
