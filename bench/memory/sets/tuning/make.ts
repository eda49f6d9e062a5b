/**
 * Writes the tuning histories (src/*.ts, written by hand for tuning; never the blind set) in the
 * set format bench/memory/sets.ts reads: projects/<name>/history.jsonl ({kind, session, text, ts}
 * per line), questions.json and facts.json.
 *
 *   bun bench/memory/sets/tuning/make.ts
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRng, type Rng } from "../../../prng.ts";
import { chatty } from "./src/chatty.ts";
import { commits } from "./src/commits.ts";
import { notes } from "./src/notes.ts";
import type { ProjectDef } from "./src/types.ts";

const MINUTE = 60_000;

/** `{a|b|c}` picks one alternative. */
const fill = (rng: Rng, text: string) => text.replace(/\{([^{}]*\|[^{}]*)\}/g, (_, alts: string) => rng.pick(alts.split("|")));

function render(def: ProjectDef, seed: number) {
  const rng = createRng(seed);
  const events: { kind: string; session: string; text: string; ts: number }[] = [];
  const sessionEnd = new Map<number, number>();
  for (let s = 1; s <= def.sessions; s++) {
    const session = `${def.name}-${String(s).padStart(2, "0")}-${rng.hex(4)}`;
    let ts = Date.parse(`${def.start}T09:00:00Z`) + (s - 1) * 86_400_000 + rng.range(0, 120) * MINUTE;
    const plants = def.plants.filter((p) => p.session === s);
    const n = rng.range(def.perSession[0], def.perSession[1]);
    const at = plants.map(() => rng.range(0, n));
    for (let i = 0; i <= n; i++) {
      plants.forEach((p, j) => {
        if (at[j] !== i) return;
        ts += rng.range(1, 6) * MINUTE;
        events.push({ kind: p.kind, session, text: p.text, ts });
      });
      if (i === n) break;
      const [kind, text] = rng.pick(def.chatter);
      ts += rng.range(1, 6) * MINUTE;
      events.push({ kind, session, text: fill(rng, text), ts });
    }
    sessionEnd.set(s, ts);
  }
  const questions = def.questions.map((q) => ({
    id: q.id,
    query: q.query,
    answerContains: q.kind === "absent" ? null : q.answer,
    staleContains: q.stale ?? null,
    askedAfterTs: sessionEnd.get(q.after ?? def.sessions)!,
    kind: q.kind,
  }));
  return { events, questions, facts: def.plants.map((p) => p.mark) };
}

const out = join(import.meta.dir, "projects");
[notes, chatty, commits].forEach((def, i) => {
  const { events, questions, facts } = render(def, 7001 + i);
  const dir = join(out, def.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "history.jsonl"), `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
  writeFileSync(join(dir, "questions.json"), `${JSON.stringify(questions, null, 2)}\n`);
  writeFileSync(join(dir, "facts.json"), `${JSON.stringify(facts, null, 2)}\n`);
  console.log(`${def.name}: ${events.length} events, ${questions.length} questions`);
});
