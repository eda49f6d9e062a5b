/**
 * A generated, seeded multi-session history of a coding project for the memory benchmark: many
 * sessions of everyday work (task prompts, answers, failing commands, errors, edited files,
 * decisions) with planted facts and preferences, corrections that replace them (some twice), the
 * assistant acknowledging what it was told, and questions asked sessions later. Each planted
 * event carries what it states, so the benchmark knows which event answers each question and
 * which ones are no longer true.
 */
import type { EventKind } from "../../src/memory/types.ts";
import type { Rng } from "../prng.ts";
import { COMPONENTS, ENVS, type Fact, factCatalog, PEOPLE } from "./world.ts";

export type Plant = { key: string; value: string; role: "state" | "correct" | "ack"; template?: string };

export type PlannedEvent = {
  kind: EventKind;
  text: string;
  session: string;
  ts: number;
  plant?: Plant;
  /** A question: evaluated before it is stored (the history up to it is what memory has). */
  question?: { key: string; current: string; corrected: boolean };
};

export type History = { sessions: number; events: PlannedEvent[]; facts: Fact[] };

const AREAS = COMPONENTS.map((c) => c.split(" ")[0]!);
const FILE_NAMES = ["handler", "client", "routes", "schema", "worker", "queue", "retry", "config", "index", "utils", "cache", "model"];
const BUGS = ["race condition", "off-by-one", "memory leak", "null check", "timezone bug", "flaky retry", "stale cache", "encoding bug"];
const FEATURES = ["pagination", "rate limiting", "CSV export", "dark mode", "audit log", "bulk delete", "search filters", "webhooks"];
const PROPS = ["id", "user", "length", "items", "token", "config", "status", "map"];
const TABLES = ["orders", "invoices", "users", "sessions", "events", "jobs"];
const REASONS = [
  "the cache key ignored the tenant",
  "the retry loop never backed off",
  "a missing await",
  "the schema allowed null",
  "the env var was unset",
];

function file(rng: Rng): string {
  return `src/${rng.pick(AREAS)}/${rng.pick(FILE_NAMES)}.ts`;
}

/** One event of everyday work. */
export function noise(rng: Rng): { kind: EventKind; text: string } {
  const c = rng.pick(COMPONENTS);
  const f = file(rng);
  const port = rng.range(3000, 9999);
  switch (rng.int(14)) {
    case 0:
      return { kind: "prompt", text: `Fix the ${rng.pick(BUGS)} in ${f}.` };
    case 1:
      return { kind: "prompt", text: `Add ${rng.pick(FEATURES)} to the ${c}.` };
    case 2:
      return {
        kind: "prompt",
        text: `Why does the ${rng.pick(ENVS)} ${c} return ${rng.pick([500, 502, 404, 429])} on /api/${rng.pick(TABLES)}?`,
      };
    case 3:
      return { kind: "prompt", text: `Write tests for ${rng.pick(FILE_NAMES)}() in ${f} and run them.` };
    case 4:
      return { kind: "answer", text: `I changed ${f}: ${rng.pick(REASONS)}. The tests pass now.` };
    case 5:
      return {
        kind: "answer",
        text: `The ${c} failed because ${rng.pick(REASONS)}; I added a regression test in ${f.replace(".ts", ".test.ts")}.`,
      };
    case 6:
      return { kind: "command", text: `command failed (exit 1): npm run test -- ${f.replace(".ts", ".test.ts")}` };
    case 7:
      return { kind: "command", text: `command failed (exit 7): curl -s http://${rng.pick(ENVS)}.internal:${port}/health` };
    case 8:
      return {
        kind: "error",
        text: `TypeError: Cannot read properties of undefined (reading '${rng.pick(PROPS)}')\n    at ${rng.pick(FILE_NAMES)} (${f}:${rng.range(10, 400)}:${rng.range(1, 60)})`,
      };
    case 9:
      return { kind: "error", text: `connect ECONNREFUSED 127.0.0.1:${port} while calling the ${c}` };
    case 10:
      return { kind: "files", text: `edited: ${f}, ${file(rng)}` };
    case 11:
      return { kind: "decision", text: `Decided to split ${f} into smaller modules before adding ${rng.pick(FEATURES)}.` };
    case 12:
      return { kind: "error", text: `error: relation "${rng.pick(TABLES)}" does not exist (${c} migration ${rng.range(1, 40)})` };
    default:
      return { kind: "answer", text: `Done: ${rng.pick(FEATURES)} for the ${c} is in ${f}; ${rng.pick(PEOPLE)} may want to review it.` };
  }
}

type Schedule = { session: number; act: "state" | "correct" | "ack" | "ask"; fact: Fact; value: number };

export function generateHistory(rng: Rng, options: { sessions?: number; eventsPerSession?: [number, number] } = {}): History {
  const sessions = options.sessions ?? 60;
  const [lo, hi] = options.eventsPerSession ?? [60, 100];
  const facts = factCatalog(rng);
  const schedule: Schedule[] = [];
  const lastStatementSession = Math.floor(sessions * 0.6);
  for (const fact of facts) {
    let at = rng.range(0, lastStatementSession);
    schedule.push({ session: at, act: "state", fact, value: 0 });
    if (rng.chance(0.3)) schedule.push({ session: at, act: "ack", fact, value: 0 });
    let value = 0;
    const corrections = rng.chance(0.5) ? (rng.chance(0.3) ? 2 : 1) : 0;
    for (let i = 0; i < corrections && at + 2 < sessions - 4; i++) {
      at = rng.range(at + 2, Math.min(sessions - 4, at + 15));
      value++;
      schedule.push({ session: at, act: "correct", fact, value });
      if (rng.chance(0.3)) schedule.push({ session: at, act: "ack", fact, value });
    }
    const ask = rng.range(Math.min(at + 3, sessions - 1), sessions - 1);
    schedule.push({ session: ask, act: "ask", fact, value });
  }
  const events: PlannedEvent[] = [];
  let ts = Date.UTC(2026, 0, 5, 9, 0, 0);
  for (let s = 0; s < sessions; s++) {
    const session = `session-${String(s + 1).padStart(3, "0")}-${rng.hex(6)}`;
    const planted = schedule.filter((x) => x.session === s);
    const count = rng.range(lo, hi);
    // Where in the session each planted act goes (questions come after the session has started).
    const slots = planted.map((p) => ({ p, at: p.act === "ask" ? rng.range(Math.floor(count / 4), count) : rng.range(0, count) }));
    for (let i = 0; i <= count; i++) {
      for (const { p } of slots.filter((x) => x.at === i).sort((a, b) => order(a.p) - order(b.p))) {
        ts += rng.range(20_000, 120_000);
        events.push(plantedEvent(rng, p, session, ts));
      }
      if (i === count) break;
      ts += rng.range(20_000, 180_000);
      events.push({ ...noise(rng), session, ts });
    }
    ts += rng.range(12, 30) * 3_600_000;
  }
  return { sessions, events, facts };
}

const order = (p: Schedule) => ({ state: 0, correct: 0, ack: 1, ask: 2 })[p.act];

function plantedEvent(rng: Rng, p: Schedule, session: string, ts: number): PlannedEvent {
  const value = p.fact.values[p.value]!;
  switch (p.act) {
    case "state":
      return {
        kind: rng.chance(0.75) ? "prompt" : "note",
        text: p.fact.state(value, rng),
        session,
        ts,
        plant: { key: p.fact.key, value, role: "state" },
      };
    case "correct": {
      const c = p.fact.correct(value, p.fact.values[p.value - 1]!, rng);
      // Stored as the user's prompt: the service has to recognise the correction itself.
      return { kind: "prompt", text: c.text, session, ts, plant: { key: p.fact.key, value, role: "correct", template: c.template } };
    }
    case "ack":
      return {
        kind: "answer",
        text: `Got it, I'll keep that in mind: ${p.fact.state(value, rng).replace(/^[A-Z]/, (x) => x.toLowerCase())}`,
        session,
        ts,
        plant: { key: p.fact.key, value, role: "ack" },
      };
    case "ask":
      return { kind: "prompt", text: p.fact.ask(rng), session, ts, question: { key: p.fact.key, current: value, corrected: p.value > 0 } };
  }
}
