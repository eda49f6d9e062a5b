/**
 * `pi-sidecar memory ...` as a script uses it, against the built binary (`bun build.ts`): exit
 * codes 0/1/2, `--json` shapes, a JSON Lines import with bad lines reported by number, and the
 * same memory seen from another process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, ROOT, runCli, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

const BIN = join(ROOT, "dist/pi-sidecar");

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`node_modules/.bin/bun build.ts\` first`);
});

function setup() {
  const home = tempDir("memory-cli-");
  const project = tempDir("memory-cli-project-");
  const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
  const run = (args: string[], stdin?: string) => runCli(args, { bin: BIN, env, stdin, cwd: project });
  return { project, run };
}

describe("pi-sidecar memory", () => {
  test("add, search --json, recall, forget, stats: a correction wins, and forgetting it is final", () => {
    const { project, run } = setup();
    const first = run(
      ["memory", "add", "--kind", "prompt", "--session", "s1", "--json"],
      "Always use npm to install packages in this repo.",
    );
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ id: "e1", kind: "prompt", cut: false, supersedes: [] });
    const fix = JSON.parse(run(["memory", "add", "--kind", "prompt", "--session", "s2", "--json"], "no, use pnpm, not npm").stdout);
    expect(fix).toMatchObject({ id: "e2", kind: "correction", supersedes: ["e1"] });

    const search = run(["memory", "search", "install", "packages", "--json"]);
    expect(search.code).toBe(0);
    const { hits } = JSON.parse(search.stdout);
    expect(hits[0]).toEqual({
      id: "e2",
      type: "event",
      kind: "correction",
      ts: expect.any(Number),
      session: "s2",
      text: "no, use pnpm, not npm",
      score: expect.any(Number),
      supersededBy: null,
    });
    expect(hits[1]).toMatchObject({ id: "e1", supersededBy: "e2" });
    expect(run(["memory", "search", "install", "--project", project]).stdout).toContain("replaced by e2 (not current)");

    const recall = run(["memory", "recall", "--prompt", "install the dependencies", "--json"]);
    const r = JSON.parse(recall.stdout);
    expect(r.text).toContain("pnpm");
    expect(r.text).not.toContain("Always use npm");
    expect(r.tokens).toBeLessThanOrEqual(r.budget);

    const stats = JSON.parse(run(["memory", "stats", "--json"]).stdout);
    expect(stats.projects).toEqual([expect.objectContaining({ project, events: 2, supersessions: 1, enabled: true })]);

    const forgot = JSON.parse(run(["memory", "forget", "--query", "pnpm", "--json"]).stdout);
    expect(forgot).toMatchObject({ events: 1, ids: ["e2"] });
    expect(JSON.parse(run(["memory", "search", "pnpm", "--json"]).stdout).hits).toEqual([]);
    expect(JSON.parse(run(["memory", "search", "install", "--json"]).stdout).hits[0]).toMatchObject({ id: "e1", supersededBy: null });
    expect(run(["memory", "forget", "e1"]).stdout).toContain("Deleted 1 event");
    expect(run(["memory", "forget", "e1"])).toMatchObject({ code: 1, stderr: expect.stringContaining("No event e1") });
  });

  test("add --jsonl imports a history; bad lines are reported by number and the rest is stored", () => {
    const { run } = setup();
    // Recent times: archived events older than memory.keepDays (30) would be dropped by retention at once.
    const start = Date.now() - 86_400_000;
    const lines = [
      ...Array.from({ length: 120 }, (_, i) =>
        JSON.stringify({
          kind: "prompt",
          session: `s${Math.floor(i / 40)}`,
          text: `Task ${i}: look at src/m${i}.ts`,
          ts: start + i * 60_000,
        }),
      ),
      "not json",
      JSON.stringify({ kind: "gossip", text: "x" }),
      JSON.stringify({ kind: "note", text: "" }),
      JSON.stringify({ kind: "decision", session: "s9", text: "Decided to ship the importer." }),
    ];
    const r = run(["memory", "add", "--jsonl", "--json"], `${lines.join("\n")}\n`);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.added).toBe(121);
    expect(out.rejected.map((x: { line: number }) => x.line)).toEqual([121, 122, 123]);
    expect(r.stderr).toContain("line 121 not stored: not JSON");
    // 121 events, windows of 50: two summaries were written on the way.
    const stats = JSON.parse(run(["memory", "stats", "--json"]).stdout);
    expect(stats.projects[0]).toMatchObject({ events: 121, sessions: 4 });
    expect(stats.projects[0].summaries).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(run(["memory", "search", "importer", "--json"]).stdout).hits[0]).toMatchObject({ kind: "decision", session: "s9" });
  });

  test("off stores nothing (exit 1, says how to turn it on); usage errors exit 2", () => {
    const { run } = setup();
    expect(JSON.parse(run(["memory", "off", "--json"]).stdout)).toMatchObject({ enabled: false });
    const refused = run(["memory", "add", "--kind", "note"], "remember this");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("pi-sidecar memory on");
    expect(run(["memory", "on"]).code).toBe(0);
    expect(run(["memory", "add", "--kind", "note"], "remember this").code).toBe(0);
    for (const args of [
      ["memory"],
      ["memory", "frobnicate"],
      ["memory", "add"],
      ["memory", "add", "--kind", "gossip"],
      ["memory", "search"],
      ["memory", "search", "x", "--limit", "0"],
      ["memory", "forget"],
      ["memory", "forget", "e1", "--query", "x"],
    ]) {
      const r = run(args, "text");
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toStartWith("pi-sidecar: ");
    }
    const empty = run(["memory", "add", "--kind", "note"], "   ");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("The event is empty");
    const bad = run(["memory", "forget", "banana"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not a memory id");
  });
});
