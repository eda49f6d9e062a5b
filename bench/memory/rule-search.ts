/**
 * Whether any simple rule on what is known of a hit (hit-features.ts) tells the hits that answer
 * from those about a neighbouring property: every rule "drop a unit when feature A is past a
 * threshold" and every pair of them (A and B), each judged as the gate would apply it (units
 * dropped, the first five hits left shown) over all the sets given together. Per rule: the
 * questions answered gained minus lost, plus the false recalls removed, per set and in total;
 * the best rules are printed, with the score distributions of the answering and the planted hits.
 *
 *   bun bench/memory/rule-search.ts bench/memory/sets/tuning bench/memory/sets/memory-16 ... [--pairs] [--top 20]
 */
import { resolve } from "node:path";
import { type FeatureQuestion, type FeatureUnit, setFeatures } from "./hit-features.ts";
import { loadSet } from "./sets.ts";

type Condition = { feature: string; below: boolean; at: number };
type Judged = Map<string, { answered: number; falseRecalls: number }>;

const holds = (u: FeatureUnit, c: Condition) => (c.below ? u.f[c.feature]! <= c.at : u.f[c.feature]! >= c.at);
const label = (c: Condition) => `${c.feature} ${c.below ? "<=" : ">="} ${Number(c.at.toFixed(3))}`;

/** Each set's questions answered and falsely recalled when the units `drop` refuses are left out. */
export function judge(questions: FeatureQuestion[], drop: (u: FeatureUnit) => boolean): Judged {
  const out: Judged = new Map();
  for (const q of questions) {
    const r = out.get(q.set) ?? { answered: 0, falseRecalls: 0 };
    out.set(q.set, r);
    const shown: FeatureUnit[] = [];
    let hits = 0;
    for (const h of q.hits) {
      if (hits === 5) break;
      const kept = h.filter((u) => !drop(u));
      if (kept.length === 0) continue;
      hits++;
      shown.push(...kept);
    }
    if (q.kind === "absent") r.falseRecalls += shown.some((u) => u.fact) ? 1 : 0;
    else r.answered += shown.some((u) => u.answer) ? 1 : 0;
  }
  return out;
}

/** Per set: answered gained minus lost, plus false recalls removed. */
function gains(base: Judged, now: Judged): Map<string, number> {
  return new Map([...base].map(([set, b]) => [set, now.get(set)!.answered - b.answered + (b.falseRecalls - now.get(set)!.falseRecalls)]));
}

/** Thresholds: each feature's deciles over the units shown (all values when it has three or fewer). */
function conditions(questions: FeatureQuestion[]): Condition[] {
  const units = questions.flatMap((q) => q.hits.slice(0, 10).flat());
  const out: Condition[] = [];
  for (const feature of Object.keys(units[0]?.f ?? {})) {
    const values = [...new Set(units.map((u) => u.f[feature]!))].sort((a, b) => a - b);
    const at =
      values.length <= 3
        ? values
        : [...new Set([1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => values[Math.floor((d / 10) * (values.length - 1))]!))];
    for (const a of at) out.push({ feature, below: true, at: a }, { feature, below: false, at: a });
  }
  return out;
}

const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [0.1, 0.25, 0.5, 0.75, 0.9].map((p) => Number((s[Math.floor(p * (s.length - 1))] ?? 0).toFixed(2))).join(" / ");
};

if (import.meta.main) {
  const args = process.argv.slice(2);
  const dirs = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--top");
  const top = Number(args[args.indexOf("--top") + 1] ?? 15) || 15;
  const questions: FeatureQuestion[] = [];
  for (const d of dirs) questions.push(...(await setFeatures(loadSet(resolve(d)))));
  const base = judge(questions, () => false);
  console.log(`base: ${[...base].map(([s, r]) => `${s} ${r.answered} answered, ${r.falseRecalls} false`).join("; ")}`);
  // The distributions the rules work on: per question, the best answering unit shown, and the best planted one shown.
  for (const feature of ["score", "ratioToBest", "heldShare", "askedShare"]) {
    const best = (q: FeatureQuestion, pick: (u: FeatureUnit) => boolean) =>
      Math.max(
        -1,
        ...q.hits
          .slice(0, 5)
          .flat()
          .filter(pick)
          .map((u) => u.f[feature]!),
      );
    const a = questions
      .filter((q) => q.kind !== "absent")
      .map((q) => best(q, (u) => u.answer))
      .filter((x) => x >= 0);
    const f = questions
      .filter((q) => q.kind === "absent")
      .map((q) => best(q, (u) => u.fact))
      .filter((x) => x >= 0);
    console.log(`${feature} (p10 / p25 / p50 / p75 / p90): answering ${quantiles(a)} (${a.length}); planted ${quantiles(f)} (${f.length})`);
  }
  const conds = conditions(questions);
  const tried: { rule: string; total: number; worst: number; per: Map<string, number> }[] = [];
  const record = (rule: string, drop: (u: FeatureUnit) => boolean) => {
    const per = gains(base, judge(questions, drop));
    const values = [...per.values()];
    tried.push({ rule, total: values.reduce((a, b) => a + b, 0), worst: Math.min(...values), per });
  };
  for (const c of conds) record(label(c), (u) => holds(u, c));
  if (args.includes("--pairs"))
    for (let i = 0; i < conds.length; i++)
      for (let j = i + 1; j < conds.length; j++) {
        const [a, b] = [conds[i]!, conds[j]!];
        if (a.feature !== b.feature) record(`${label(a)} and ${label(b)}`, (u) => holds(u, a) && holds(u, b));
      }
  tried.sort((x, y) => y.total - x.total || y.worst - x.worst);
  console.log(`${tried.length} rules; the best (total: answered gained - lost + false recalls removed; worst set):`);
  for (const t of tried.slice(0, top))
    console.log(`  ${t.total} (worst ${t.worst}) drop when ${t.rule}: ${[...t.per].map(([s, v]) => `${s} ${v}`).join(", ")}`);
}
