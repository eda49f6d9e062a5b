/**
 * A word's weight is counted among the project's own events: a project's search answers the same
 * whether the database holds it alone or beside other projects (a user with many projects), and
 * other projects' events never make a word of this one look rarer than it is.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { candidates } from "../../src/memory/candidates.ts";
import { queryGroups } from "../../src/memory/query.ts";
import type { EventKind } from "../../src/memory/types.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const OTHER = "/work/project-b";

/** This project's history: a word in most events (its common words are estimated, not counted), a few statements. */
function ownEvents(from: number, to: number): { kind: EventKind; text: string }[] {
  const out: { kind: EventKind; text: string }[] = [];
  for (let i = from; i < to; i++) {
    if (i % 50 === 7) out.push({ kind: "decision", text: `decision: the greenhouse sensor reports humidity over mqtt` });
    else if (i % 3 === 0) out.push({ kind: "command", text: `make build target-${i}` });
    else out.push({ kind: "prompt", text: `please build the watering schedule page ${i} and check the sensor wiring` });
  }
  return out;
}

/** Another project's history: none of this project's words. */
function otherEvents(from: number, to: number): { kind: EventKind; text: string }[] {
  return Array.from({ length: to - from }, (_, k) => ({
    kind: "answer" as EventKind,
    text: `invoice ledger ${from + k} reconciled against the bank export`,
  }));
}

async function addAll(m: TestMemory, project: string, events: { kind: EventKind; text: string }[]) {
  await m.ok({ type: "addMany", project, session: "s1", events }, "addMany");
}

const QUERIES = ["greenhouse humidity sensor", "which broker carries sensor humidity", "build watering schedule", "mqtt"];

describe("word weights by the project's own events", () => {
  test("a project's weights and answers are the same alone and beside another project's events", async () => {
    const alone = testMemory();
    const shared = testMemory();
    // The same history for this project; in the shared database other projects' events come before and between.
    await addAll(shared, OTHER, otherEvents(0, 600));
    await addAll(alone, PROJECT, ownEvents(0, 250));
    await addAll(shared, PROJECT, ownEvents(0, 250));
    await addAll(shared, OTHER, otherEvents(600, 1400));
    await addAll(alone, PROJECT, ownEvents(250, 500));
    await addAll(shared, PROJECT, ownEvents(250, 500));

    for (const query of QUERIES) {
      const groups = queryGroups(query);
      const weights = (m: TestMemory, single: boolean) => {
        const id = m.db.query<{ id: number }, [string]>("SELECT id FROM memory_projects WHERE path = ?").get(PROJECT)!.id;
        return candidates(m.db, "events", groups, { projectId: id, single, keep: 60 }).groups.map((g) => ({
          word: g.word,
          df: g.df,
          rows: g.rows,
          idf: g.idf,
        }));
      };
      const own = weights(alone, true);
      const beside = weights(shared, false);
      expect(beside.map((g) => [g.word, g.df, g.rows])).toEqual(own.map((g) => [g.word, g.df, g.rows]));
      for (const [i, g] of beside.entries()) expect(g.idf).toBeCloseTo(own[i]!.idf, 9);
      // The common word ("build", in two thirds of the events) is estimated from the newest rows:
      // counted among the project's rows in their reach, not among every project's.
      if (query.includes("build")) expect(own.find((g) => g.word === "build")!.df).toBeGreaterThan(150);

      const hits = async (m: TestMemory) =>
        (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => [
          h.text.replace(/^e\d+ /, ""),
          h.score,
        ]);
      // The same hits with the same scores.
      const a = await hits(alone);
      const b = await hits(shared);
      expect(b.map((h) => h[0]).sort()).toEqual(a.map((h) => h[0]).sort());
      const scores = (x: (string | number)[][]) => x.map((h) => h[1] as number).sort((p, q) => p - q);
      for (const [i, v] of scores(b).entries()) expect(v).toBeCloseTo(scores(a)[i]!, 3);
    }
    expect(
      (await alone.ok({ type: "search", project: PROJECT, query: "greenhouse humidity sensor", limit: 5 }, "search")).hits.length,
    ).toBeGreaterThan(0);
    alone.db.close();
    shared.db.close();
  });
});

describe("supersession by the project's own events", () => {
  /** Statements naming one subject ("billing") among everyday chatter, then a change to another side of it. */
  const history: [EventKind, string][] = [
    ["decision", "billing: invoices and credit notes live in Postgres 16 (db-ledger-02), migrations via dbmate"],
    ["note", "billing: the nightly export writes a CSV per customer to the reports share"],
    ["decision", "billing: amounts are stored in cents, rounded half-even on the invoice total"],
    ["note", "billing: the dunning emails go out through the mailer worker at 07:00"],
  ];
  const change: [EventKind, string] = ["prompt", "billing: move the audit log table to its own schema"];

  async function run(m: TestMemory): Promise<readonly (readonly string[])[]> {
    const linked: (readonly string[])[] = [];
    const add = async ([kind, text]: [EventKind, string]) => {
      const r = await m.ok({ type: "add", project: PROJECT, session: "s1", kind, text }, "add");
      linked.push(
        r.supersedes.map(
          (id) =>
            m.db.query<{ content: string }, [number]>("SELECT content FROM memory_events WHERE id = ?").get(Number(id.replace(/^e/, "")))
              ?.content ?? id,
        ),
      );
    };
    for (let i = 0; i < 20; i++) {
      await add(["prompt", `can you rerun the parser ${i} benchmarks again`]);
      await add(["answer", `Ran the parser ${i} benchmarks: all green, the tokenizer takes ${i + 20} ms.`]);
    }
    for (const h of history) await add(h);
    await add(change);
    return linked;
  }

  test("a change links to the same statements whether or not another project's events came first", async () => {
    const alone = testMemory();
    const shared = testMemory();
    await addAll(shared, OTHER, otherEvents(0, 1500));
    const a = await run(alone);
    const b = await run(shared);
    expect(b).toEqual(a);
    // Moving the audit table replaces nothing said of where the invoices live.
    expect(a.at(-1)).toEqual([]);
    alone.db.close();
    shared.db.close();
  });
});
