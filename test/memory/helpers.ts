/**
 * A real memory service on a real SQLite file in a temp dir, with a controllable clock and the
 * real tokenizer: the schema is the project's migrations plus 005-memory.sql, as the engine will
 * open it once migrations.ts lists it.
 */
import { join } from "node:path";
import type { Config } from "../../src/config.ts";
import { MIGRATIONS } from "../../src/db/migrations.ts";
import { type Db, openDatabase } from "../../src/db/open.ts";
import { createMemoryService, type MemoryService } from "../../src/memory/service.ts";
import { answerOf, type EventKind, type MemoryAnswer, type MemoryRequest } from "../../src/memory/types.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { tempDir, testConfig } from "../helpers.ts";

export const MEMORY_MIGRATIONS: readonly string[] = MIGRATIONS;

export const realCount = async (texts: string[]) => texts.reduce((n, t) => n + countTokens(t), 0);

export type TestMemory = {
  db: Db;
  path: string;
  config: Config;
  clock: { t: number };
  service: MemoryService;
  /** Whole texts kept in the "context store" (a map here: the store itself is not this subsystem). */
  wholes: Map<string, string>;
  /** handle() that throws on a failure (tests that expect success). */
  ok<T extends MemoryAnswer["type"]>(request: MemoryRequest, type: T): Promise<Extract<MemoryAnswer, { type: T }>>;
  add(kind: EventKind, text: string, session?: string): Promise<string>;
};

export const PROJECT = "/work/project-a";

/** The ids of a search's hits in PROJECT, best first (the top five unless told). */
export async function hitIds(m: TestMemory, query: string, limit = 5): Promise<string[]> {
  return (await m.ok({ type: "search", project: PROJECT, query, limit }, "search")).hits.map((h) => h.id);
}

export function openMemoryDb(path: string): Db {
  return openDatabase(path, { migrations: MEMORY_MIGRATIONS });
}

export function testMemory(patch: (c: Config) => void = () => {}, path = join(tempDir("memory-"), "sidecar.db")): TestMemory {
  const config = testConfig(path, patch);
  const clock = { t: Date.UTC(2026, 10, 22, 8, 0, 0) };
  const db = openMemoryDb(path);
  const wholes = new Map<string, string>();
  const service = createMemoryService({
    db,
    config,
    now: () => clock.t,
    count: realCount,
    storeWhole: async (text) => {
      const sourceId = `ctx_${wholes.size + 1}`;
      wholes.set(sourceId, text);
      return { sourceId };
    },
    dropWhole: async (sourceId) => void wholes.delete(sourceId),
  });
  const ok: TestMemory["ok"] = async (request, type) => {
    const r = await service.handle(request);
    if (!r.ok) throw new Error(`${request.type} failed: ${r.code}: ${r.message}`);
    return answerOf(r, type);
  };
  return {
    db,
    path,
    config,
    clock,
    service,
    wholes,
    ok,
    add: async (kind, text, session = "s1") => (await ok({ type: "add", project: PROJECT, session, kind, text }, "add")).id,
  };
}

/** Everyday chatter, a prompt and its answer per round, so a history's words are not all rare. */
export async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you rerun the parser ${i} benchmarks again`, "s1");
    await m.add("answer", `Ran the parser ${i} benchmarks: all green, the tokenizer takes ${i + 20} ms.`, "s1");
  }
}

/**
 * An older statement between rounds of chatter, then a newer one in session s2, in a new memory:
 * the older statement's id and what the newer one replaces.
 */
export async function supersession(
  older: [EventKind, string],
  newer: [EventKind, string],
  rounds = 30,
): Promise<{ old: string; supersedes: readonly string[] }> {
  const m = testMemory();
  await chatter(m, rounds);
  const old = await m.add(older[0], older[1], "s1");
  await chatter(m, rounds);
  const added = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: newer[0], text: newer[1] }, "add");
  return { old, supersedes: added.supersedes };
}
