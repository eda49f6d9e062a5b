/**
 * The ranked units a search would choose its five from (up to 50 per question), each with what the
 * gate and the ranking know of it as numbers (hitFeatures), whether it answers the question
 * (holds answerContains, not replaced) and whether it holds a planted statement (facts.json).
 * For trying rules that tell answering hits from hits about a neighbouring property offline
 * (rule-search.ts): dropping units and taking the first five hits left is what the gate would do.
 */
import { candidates } from "../../src/memory/candidates.ts";
import {
  type GateContext,
  gateContext,
  heldFor,
  holdsAllKnown,
  holdsRareWord,
  MIN_SHARE,
  RECORD_SHARE,
  relevant,
} from "../../src/memory/gate.ts";
import { aboutQuery } from "../../src/memory/holds-now.ts";
import { familyKey } from "../../src/memory/morphology.ts";
import { type QueryGroup, queryGroups } from "../../src/memory/query.ts";
import { rankedHits } from "../../src/memory/search.ts";
import { foldText, porterStem, wordsOf } from "../../src/memory/stem.ts";
import { isStopWord } from "../../src/memory/stopwords.ts";
import type { Unit } from "../../src/memory/units.ts";
import { inProcessBackend } from "./eval-set.ts";
import { replay } from "./replay.ts";
import type { EvalSet } from "./sets.ts";
import { norm } from "./sets.ts";

export type FeatureUnit = { f: Record<string, number>; answer: boolean; fact: boolean; text: string };
export type FeatureQuestion = { set: string; id: string; kind: "fact" | "corrected" | "absent"; query: string; hits: FeatureUnit[][] };

/** Third person pronouns and @handles: a text naming who does something (for "who" questions). */
const PERSON = /\b(?:she|her|hers|he|him|his)\b|@[a-z]/i;
const WH = new Set(["what", "which", "whats", "who", "whom", "whose", "where", "when", "why", "how"]);

/**
 * The question's shape: its question word and the words it asks about (its head: the noun phrase
 * after "what"/"which", the words after "who", a keyword query's last word), by group.
 */
export function questionShape(query: string, groups: QueryGroup[]): { wh: string; head: Set<number> } {
  const words = wordsOf(foldText(query));
  const byKey = new Map(groups.map((g) => [familyKey(g.word), g.group]));
  const groupOf = (w: string) => byKey.get(familyKey(w));
  const first = words[0] ?? "";
  const wh = WH.has(first)
    ? first.replace("whats", "what")
    : /^(?:is|are|does|do|did|can|should|has|have)$/.test(first)
      ? "yesno"
      : "keyword";
  const head = new Set<number>();
  const run = (from: number) => {
    let i = from;
    while (i < words.length && isStopWord(words[i]!)) i++;
    for (; i < words.length && !isStopWord(words[i]!); i++) {
      const g = groupOf(words[i]!);
      if (g !== undefined) head.add(g);
    }
  };
  if (wh === "what" || wh === "which" || wh === "who") run(1);
  if (wh === "keyword") {
    const last = [...words].reverse().find((w) => !isStopWord(w));
    const g = last === undefined ? undefined : groupOf(last);
    if (g !== undefined) head.add(g);
  }
  return { wh, head };
}

/** The fewest consecutive words of a unit holding a form of each query group it holds. */
function span(u: Unit, groups: QueryGroup[]): number {
  const want = groups.filter((g) => u.match.groups.has(g.group));
  const at = wordsOf(foldText(u.text)).map((w) => {
    const s = porterStem(w);
    return want.findIndex((g) => g.forms.some((f) => f.stem === s));
  });
  let best = at.length;
  for (let i = 0; i < at.length; i++) {
    if (at[i] === -1) continue;
    const seen = new Set<number>();
    for (let j = i; j < at.length && j - i < best; j++) {
      if (at[j]! >= 0) seen.add(at[j]!);
      if (seen.size === want.length) {
        best = j - i + 1;
        break;
      }
    }
  }
  return best;
}

/** What is known of a ranked unit, as numbers (flags as 0 or 1; -1 when the question has no head). */
export function hitFeatures(u: Unit, c: GateContext, shape: ReturnType<typeof questionShape>, best: number): Record<string, number> {
  const { held, matched } = heldFor(u, c);
  const idf = new Map(c.scoring.map((g) => [g.group, g.idf]));
  const heldIdf = [...u.match.groups.keys()].flatMap((g) => idf.get(g) ?? []);
  const missed = c.scoring.filter((g) => !u.match.groups.has(g.group)).map((g) => g.idf);
  const commonest = Math.min(...idf.values());
  const byShare = held >= MIN_SHARE * c.knownWeight;
  const mostlyKnown = 3 * c.scoring.length >= c.groups.length;
  const asked = byShare && held >= MIN_SHARE * c.asked;
  const rare = byShare && mostlyKnown && holdsRareWord(u.match, c.rare);
  const all = byShare && holdsAllKnown({ ...u.match, matched }, c.scoring.length);
  const record = u.record && held >= RECORD_SHARE * c.knownWeight && mostlyKnown && aboutQuery(u, c.groups);
  const knownHead = [...shape.head].filter((g) => idf.has(g));
  const flag = (b: boolean) => (b ? 1 : 0);
  return {
    heldShare: c.knownWeight > 0 ? held / c.knownWeight : 0,
    askedShare: c.asked > 0 ? held / c.asked : 0,
    matched,
    known: c.scoring.length,
    unknown: c.groups.length - c.scoring.length,
    record: flag(u.record),
    score: u.score,
    ratioToBest: best > 0 ? u.score / best : 0,
    passes: flag(relevant(c)(u)),
    recordOnly: flag(record && !asked && !rare && !all && !c.quantity),
    rareWord: flag(rare),
    allKnown: flag(all),
    person: flag(PERSON.test(u.text)),
    number: flag(/(?<![\p{L}\p{N}_])\d/u.test(u.text)),
    words: wordsOf(foldText(u.text)).length,
    span: span(u, c.groups),
    missedMaxIdf: Math.max(0, ...missed),
    heldMinIdf: Math.min(99, ...heldIdf),
    heldMaxIdf: Math.max(0, ...heldIdf),
    onlyCommonest: flag(heldIdf.length > 0 && Math.max(...heldIdf) <= commonest && c.scoring.length > 1),
    headHeld: knownHead.length === 0 ? -1 : flag(knownHead.some((g) => u.match.groups.has(g))),
    whWhat: flag(shape.wh === "what" || shape.wh === "which"),
    whWho: flag(shape.wh === "who"),
    whHow: flag(shape.wh === "how"),
    keyword: flag(shape.wh === "keyword"),
  };
}

/** A set's questions, each with its ranked units and their features. */
export async function setFeatures(set: EvalSet): Promise<FeatureQuestion[]> {
  const backend = inProcessBackend();
  const out: FeatureQuestion[] = [];
  try {
    for await (const { p, q, deps, pid } of replay(set, backend)) {
      const groups = queryGroups(q.query).slice(0, 8);
      const found = candidates(backend.db!, "events", groups, { projectId: pid, single: deps.registry.single(), keep: 60 });
      const c = gateContext(q.query, groups, found.groups);
      const shape = questionShape(q.query, groups);
      const ranked = rankedHits(deps, pid, q.query, 50);
      const units = ranked.flatMap((h) => (h.type === "event" ? [h.unit] : h.lines));
      const best = Math.max(0, ...units.map((u) => u.score));
      const unit = (u: Unit): FeatureUnit => {
        const t = norm(u.text);
        return {
          f: hitFeatures(u, c, shape, best),
          answer: u.replacedBy === null && q.answer.some((a) => t.includes(a)),
          fact: p.facts.some((x) => t.includes(x)),
          text: t.slice(0, 120),
        };
      };
      out.push({
        set: set.name,
        id: `${p.name}/${q.id}`,
        kind: q.kind,
        query: q.query,
        hits: ranked.map((h) => (h.type === "event" ? [unit(h.unit)] : h.lines.map(unit))),
      });
    }
  } finally {
    backend.close();
  }
  return out;
}
