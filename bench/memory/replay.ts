/**
 * A set's questions asked the way the eval run asks them: each project's history imported in
 * order, up to the time each question is asked (the weights of words depend on everything the
 * database holds), then the question searched and judged. For the tools that look into why a
 * question is answered as it is (diagnose.ts, gate-dump.ts).
 */
import type { MemoryDeps } from "../../src/memory/deps.ts";
import { createRegistry } from "../../src/memory/projects.ts";
import { type Backend, judge } from "./eval-set.ts";
import type { EvalSet, SetProject, SetQuestion } from "./sets.ts";

export type Replayed = { p: SetProject; project: string; q: SetQuestion; r: ReturnType<typeof judge>; deps: MemoryDeps; pid: number };

export async function* replay(set: EvalSet, backend: Backend): AsyncGenerator<Replayed> {
  for (const p of set.projects) {
    const project = `/eval/${set.name}/${p.name}`;
    const imported = new Set<number>();
    for (const q of [...p.questions].sort((a, b) => a.askedAfterTs - b.askedAfterTs)) {
      const due = p.events.flatMap((e, i) => (!imported.has(i) && (e.ts === null || e.ts <= q.askedAfterTs) ? [i] : []));
      if (due.length > 0)
        await backend.import(
          project,
          due.map((i) => p.events[i]!),
        );
      for (const i of due) imported.add(i);
      const r = judge(q, await backend.search(project, q.query), p.facts);
      const db = backend.db!;
      const deps = { db, now: Date.now, registry: createRegistry(db), log: () => {} } as unknown as MemoryDeps;
      yield { p, project, q, r, deps, pid: deps.registry.project(project, false)! };
    }
  }
}
