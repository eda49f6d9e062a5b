/**
 * Runs a memory evaluation set (sets.ts) the way a user would: each project's history imported
 * as `memory add --jsonl` does, up to the moment each question is asked (askedAfterTs), then
 * `memory search QUERY --limit 5` and `memory recall --prompt QUERY` (default budget). Either on
 * the built binary (`--bin dist/pi-sidecar`: one process per call, a scratch HOME) or in-process
 * on the same service (faster, for tuning). Per question:
 *
 * - fact / corrected: answered when a top-5 hit (an event, or a summary line) holds answerContains
 *   and is not marked replaced;
 * - corrected: "stale above" when a hit holding staleContains (and not the answer) ranks above
 *   the answer, or is shown unmarked while the answer is missing;
 * - absent: a false recall when any top-5 hit holds a planted fact (facts.json);
 * - injection: recall's real token count within its budget, and whether it holds the answer.
 *
 *   bun bench/memory/eval-set.ts bench/memory/sets/tuning [--bin dist/pi-sidecar] [--verbose]
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/open.ts";
import { createMemoryService } from "../../src/memory/service.ts";
import { answerOf, type EventKind, type MemoryAnswer, type MemoryRequest } from "../../src/memory/types.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { type EvalSet, loadSet, norm, type SetEvent, type SetQuestion } from "./sets.ts";

export type Unit = { text: string; replaced: boolean };
export type Backend = {
  name: string;
  import(project: string, events: SetEvent[]): Promise<void>;
  search(project: string, query: string): Promise<Unit[][]>;
  recall(project: string, query: string): Promise<{ text: string; tokens: number; budget: number }>;
  close(): void;
  /** The database, in-process (for looking into what was stored). */
  db?: import("../../src/db/open.ts").Db;
};

type Hit = { type: string; text: string; supersededBy: string | null };

/** A hit as the statements it shows: an event, or a summary's lines (the header left out). */
function unitsOf(h: Hit): Unit[] {
  if (h.type !== "summary") return [{ text: norm(h.text), replaced: h.supersededBy !== null }];
  return h.text
    .split("\n")
    .slice(1)
    .map((l) => ({ text: norm(l), replaced: l.includes("[replaced by") }));
}

export function inProcessBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), "memory-eval-"));
  const path = join(dir, "sidecar.db");
  const db = openDatabase(path);
  const config = defaultConfig({ HOME: dir });
  config.db = path;
  const service = createMemoryService({ db, config, now: Date.now, count: async (ts) => ts.reduce((n, t) => n + countTokens(t), 0) });
  const call = async <T extends MemoryAnswer["type"]>(r: MemoryRequest, type: T) => {
    const a = await service.handle(r);
    if (!a.ok) throw new Error(`${r.type}: ${a.message}`);
    return answerOf(a, type);
  };
  return {
    db,
    name: "in-process service",
    async import(project, events) {
      let pending = false;
      for (let i = 0; i < events.length; i += 5000) {
        const batch = events.slice(i, i + 5000).map((e) => ({
          kind: e.kind as EventKind,
          text: e.text,
          session: e.session,
          ...(e.ts === null ? {} : { ts: e.ts }),
        }));
        const r = await call({ type: "addMany", project, events: batch }, "addMany");
        if (r.rejected.length > 0) throw new Error(`${project}: rejected ${JSON.stringify(r.rejected[0])}`);
        pending = r.pending;
      }
      while (pending) pending = (await call({ type: "summarize", project, steps: 200 }, "summarize")).pending;
    },
    async search(project, query) {
      return (await call({ type: "search", project, query, limit: 5 }, "search")).hits.map(unitsOf);
    },
    async recall(project, query) {
      const r = await call({ type: "recall", project, session: "eval", prompt: query }, "recall");
      return { text: r.text, tokens: r.tokens, budget: r.budget };
    },
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function binaryBackend(bin: string): Backend {
  const home = mkdtempSync(join(tmpdir(), "memory-eval-home-"));
  const env = { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
  const run = (args: string[], input?: string) => {
    const r = spawnSync(bin, args, { env, input, cwd: home, maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0 && r.status !== 1) throw new Error(`${bin} ${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
    return r.stdout.toString();
  };
  return {
    name: `binary ${bin}`,
    async import(project, events) {
      run(["memory", "add", "--jsonl", "--project", project, "--json"], events.map((e) => e.raw).join("\n"));
    },
    async search(project, query) {
      const out = JSON.parse(run(["memory", "search", query, "--limit", "5", "--project", project, "--json"])) as { hits: Hit[] };
      return out.hits.map(unitsOf);
    },
    async recall(project, query) {
      const r = JSON.parse(run(["memory", "recall", "--prompt", query, "--session", "eval", "--project", project, "--json"]));
      return { text: r.text, tokens: r.tokens, budget: r.budget };
    },
    close: () => rmSync(home, { recursive: true, force: true }),
  };
}

export type QuestionResult = {
  id: string;
  project: string;
  kind: SetQuestion["kind"];
  query: string;
  answered: boolean;
  staleAbove: boolean;
  falseRecall: boolean;
  tokens: number;
  withinBudget: boolean;
  answerInjected: boolean;
  top: string[];
};

export type SetResult = {
  set: string;
  backend: string;
  projects: number;
  events: number;
  questions: QuestionResult[];
  answerable: number;
  answered: number;
  recallAt5: number;
  corrected: number;
  staleAbove: number;
  absent: number;
  falseRecalls: number;
  falseRecall: number;
  withinBudget: number;
  answerInjected: number;
  ms: number;
};

export function judge(q: SetQuestion, hits: Unit[][], facts: string[]): Pick<QuestionResult, "answered" | "staleAbove" | "falseRecall"> {
  const units = hits.flat();
  const answerAt = units.findIndex((u) => !u.replaced && q.answer.some((a) => u.text.includes(a)));
  const staleAt = units.findIndex((u) => q.stale.some((s) => u.text.includes(s)) && !q.answer.some((a) => u.text.includes(a)));
  const staleAbove = q.kind === "corrected" && staleAt !== -1 && (answerAt === -1 ? !units[staleAt]!.replaced : staleAt < answerAt);
  const falseRecall = q.kind === "absent" && units.some((u) => facts.some((f) => u.text.includes(f)));
  return { answered: answerAt !== -1, staleAbove, falseRecall };
}

export async function runSet(set: EvalSet, backend: Backend): Promise<SetResult> {
  const started = performance.now();
  const results: QuestionResult[] = [];
  let events = 0;
  for (const p of set.projects) {
    const project = `/eval/${set.name}/${p.name}`;
    const imported = new Set<number>();
    const questions = [...p.questions].sort((a, b) => a.askedAfterTs - b.askedAfterTs);
    events += p.events.length;
    for (const q of questions) {
      const due = p.events.flatMap((e, i) => (!imported.has(i) && (e.ts === null || e.ts <= q.askedAfterTs) ? [i] : []));
      if (due.length > 0) {
        await backend.import(
          project,
          due.map((i) => p.events[i]!),
        );
        for (const i of due) imported.add(i);
      }
      const hits = await backend.search(project, q.query);
      const recall = await backend.recall(project, q.query);
      const injected = norm(recall.text);
      results.push({
        id: q.id,
        project: p.name,
        kind: q.kind,
        query: q.query,
        ...judge(q, hits, p.facts),
        tokens: recall.tokens,
        withinBudget: recall.tokens <= recall.budget,
        answerInjected: q.answer.some((a) => injected.includes(a)),
        top: hits.map((h) => h.map((u) => `${u.replaced ? "[replaced] " : ""}${u.text.slice(0, 140)}`).join(" | ")),
      });
    }
  }
  const of = (k: SetQuestion["kind"][]) => results.filter((r) => k.includes(r.kind));
  const answerable = of(["fact", "corrected"]);
  const absent = of(["absent"]);
  const rate = (n: number, d: number) => (d === 0 ? 0 : n / d);
  return {
    set: set.name,
    backend: backend.name,
    projects: set.projects.length,
    events,
    questions: results,
    answerable: answerable.length,
    answered: answerable.filter((r) => r.answered).length,
    recallAt5: rate(answerable.filter((r) => r.answered).length, answerable.length),
    corrected: of(["corrected"]).length,
    staleAbove: results.filter((r) => r.staleAbove).length,
    absent: absent.length,
    falseRecalls: absent.filter((r) => r.falseRecall).length,
    falseRecall: rate(absent.filter((r) => r.falseRecall).length, absent.length),
    withinBudget: results.filter((r) => r.withinBudget).length,
    answerInjected: answerable.filter((r) => r.answerInjected).length,
    ms: Math.round(performance.now() - started),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith("--") && args[args.indexOf(a) - 1] !== "--bin");
  if (!dir) throw new Error("usage: bun bench/memory/eval-set.ts SET_DIR [--bin dist/pi-sidecar] [--verbose]");
  const binAt = args.indexOf("--bin");
  const backend = binAt === -1 ? inProcessBackend() : binaryBackend(resolve(args[binAt + 1]!));
  try {
    const r = await runSet(loadSet(resolve(dir)), backend);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    console.log(
      `${r.set} (${r.backend}): ${r.projects} projects, ${r.events} events; recall@5 ${r.answered}/${r.answerable} (${pct(r.recallAt5)}); ` +
        `stale above its correction ${r.staleAbove}/${r.corrected}; false recall ${r.falseRecalls}/${r.absent} (${pct(r.falseRecall)}); ` +
        `injection within budget ${r.withinBudget}/${r.questions.length}; answer injected ${r.answerInjected}/${r.answerable}; ${r.ms} ms`,
    );
    for (const q of r.questions) {
      const bad = (q.kind !== "absent" && !q.answered) || q.staleAbove || q.falseRecall;
      if (!bad && !args.includes("--all")) continue;
      const what = q.falseRecall ? "FALSE RECALL" : q.staleAbove ? (q.answered ? "STALE ABOVE" : "MISS+STALE") : q.answered ? "ok" : "MISS";
      console.log(`  ${what} ${q.project}/${q.id}: ${q.query}`);
      if (args.includes("--verbose")) for (const t of q.top) console.log(`      - ${t}`);
    }
  } finally {
    backend.close();
  }
}
