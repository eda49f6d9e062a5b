/**
 * `pi-sidecar memory ...` as a script uses it, against the built binary (`bun build.ts`): exit
 * codes 0/1/2, `--json` shapes, a JSON Lines import with bad lines reported by number, and the
 * same memory seen from another process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
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
  return { project, home, run };
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

  test("forget by id and by --query leaves no readable copy in the database file or its WAL", () => {
    const { run, home } = setup();
    const secrets = ["alphaqozzle", "betaquimbly", "gammazorkin"];
    const start = Date.now() - 3_600_000;
    const lines = [
      { kind: "note", session: "s1", text: `The ${secrets[0]} key lives in vault path kv/alpha` },
      { kind: "prompt", session: "s2", text: `Remember ${secrets[1]} belongs to the billing team` },
      { kind: "correction", session: "s2", text: `no, ${secrets[2]} is the staging password hint, not delta` },
      ...Array.from({ length: 120 }, (_, i) => ({ kind: "prompt", session: "s1", text: `Task ${i}: look at src/m${i}.ts`, ts: start + i })),
    ];
    expect(run(["memory", "add", "--jsonl"], lines.map((l) => JSON.stringify(l)).join("\n")).code).toBe(0);
    const db = join(home, "agent", "sidecar.db");
    const onDisk = () => [db, `${db}-wal`].map((f) => (existsSync(f) ? readFileSync(f).toString("latin1") : "")).join("");
    for (const w of secrets) expect(onDisk()).toContain(w);
    expect(run(["memory", "forget", "e1"]).code).toBe(0);
    expect(run(["memory", "forget", "--query", secrets[1]!]).code).toBe(0);
    expect(run(["memory", "forget", "--query", `${secrets[2]} staging`]).code).toBe(0);
    const after = onDisk();
    for (const w of secrets) expect({ w, readable: after.includes(w) }).toEqual({ w, readable: false });
  });

  test("add --jsonl refuses out-of-range times and non-string ids per line; run again it stores nothing twice", () => {
    const { run } = setup();
    const start = Date.now() - 86_400_000;
    const good = Array.from({ length: 30 }, (_, i) =>
      JSON.stringify({ kind: "prompt", session: `s${i % 3}`, text: i % 10 === 0 ? "run the tests" : `Task ${i}`, ts: start + i * 1000 }),
    );
    const bad = [
      JSON.stringify({ kind: "note", text: "far future", ts: 1e300 }),
      JSON.stringify({ kind: "note", text: "negative", ts: -1 }),
      JSON.stringify({ kind: "note", text: "not a date", ts: "yesterday-ish" }),
      JSON.stringify({ kind: "note", session: {}, text: "object session" }),
      JSON.stringify({ kind: "note", session: 42, text: "number session" }),
      JSON.stringify({ kind: "note", text: 7 }),
      JSON.stringify({ kind: "note", id: 5, text: "number id" }),
    ];
    const iso = JSON.stringify({ kind: "decision", session: "s9", text: "Decided to keep the importer.", ts: "2026-01-05T10:00:00Z" });
    const all = [...good, ...bad, iso];
    const first = run(["memory", "add", "--jsonl", "--json"], `${all.join("\n")}\n`);
    expect(first.code).toBe(1);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({ added: 31, duplicates: 0 });
    expect(out.rejected.map((x: { line: number }) => x.line)).toEqual([31, 32, 33, 34, 35, 36, 37]);
    expect(out.rejected[0].reason).toContain("ts must be");
    expect(out.rejected[3].reason).toContain("session must be a string");
    expect(first.stderr).toContain("line 34 not stored: session must be a string");
    const stats = () => JSON.parse(run(["memory", "stats", "--json"]).stdout).projects[0];
    expect(stats().sessions).toBe(4);
    const search = JSON.parse(run(["memory", "search", "importer", "--json"]).stdout);
    expect(search.hits[0]).toMatchObject({ kind: "decision", ts: Date.parse("2026-01-05T10:00:00Z") });
    // The same file again (as after a killed run): nothing new; the repeated "run the tests" lines stay three.
    const again = JSON.parse(run(["memory", "add", "--jsonl", "--json"], `${all.join("\n")}\n`).stdout);
    expect(again).toMatchObject({ added: 0, duplicates: 31 });
    expect(stats().events).toBe(31);
    // A first run that stopped after a prefix, then the whole file: each event once.
    const other = setup();
    expect(other.run(["memory", "add", "--jsonl"], `${good.slice(0, 12).join("\n")}\n`).code).toBe(0);
    const whole = JSON.parse(other.run(["memory", "add", "--jsonl", "--json"], `${good.join("\n")}\n`).stdout);
    expect(whole).toMatchObject({ added: 18, duplicates: 12 });
    expect(JSON.parse(other.run(["memory", "stats", "--json"]).stdout).projects[0].events).toBe(30);
    expect(JSON.parse(other.run(["memory", "search", "run", "tests", "--json", "--limit", "10"]).stdout).hits.length).toBeGreaterThan(0);
  });

  test("a big import is summarised before the command returns (no backlog of windows left)", () => {
    const { run } = setup();
    const start = Date.now() - 86_400_000;
    // Two batches (MAX_BATCH is 5,000): the first batch's own maintenance, then the backlog the
    // command works off before returning. Small enough to finish on a loaded machine.
    const n = 6_000;
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({
        kind: i % 2 ? "answer" : "prompt",
        session: `s${Math.floor(i / 80)}`,
        text: `Step ${i}: changed src/mod${i % 97}.ts`,
        ts: start + i,
      }),
    );
    const r = run(["memory", "add", "--jsonl", "--json"], `${lines.join("\n")}\n`);
    expect(r.code).toBe(0);
    const stats = JSON.parse(run(["memory", "stats", "--json"]).stdout).projects[0];
    expect(stats.events).toBe(n);
    // Windows of 50: all but the last partial window are summaries.
    expect(stats.unarchived).toBeLessThan(50);
    expect(stats.summaries).toBeGreaterThanOrEqual(Math.floor(n / 50) - 1);
    // Its own answer says so too.
    expect(JSON.parse(r.stdout)).toMatchObject({ added: n, duplicates: 0, rejected: [] });
  }, 240_000);

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
      // Below memory.recallTokens' range not even the recall's header fits.
      ["memory", "recall", "--budget", "50"],
    ]) {
      const r = run(args, "text");
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toStartWith("pi-sidecar: ");
    }
    // The text may follow the flags instead of coming on stdin; with --jsonl it may not.
    const said = run(["memory", "add", "--kind", "note", "--json", "the", "preview", "site", "moved", "to", "fly.io"], "");
    expect(said.code).toBe(0);
    expect(JSON.parse(said.stdout)).toMatchObject({ kind: "note" });
    expect(run(["memory", "search", "preview", "site"]).stdout).toContain("the preview site moved to fly.io");
    expect(run(["memory", "add", "--jsonl", "stray"], "").code).toBe(2);
    const empty = run(["memory", "add", "--kind", "note"], "   ");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("The event is empty");
    // A project is keyed by its folder's path, which need not exist (an import before the checkout, a harness's own paths).
    const elsewhere = run(["memory", "add", "--kind", "note", "--project", "not/yet/cloned", "kept"]);
    expect({ code: elsewhere.code, stderr: elsewhere.stderr }).toEqual({ code: 0, stderr: "" });
    expect(run(["memory", "search", "kept", "--project", "not/yet/cloned"]).stdout).toContain("kept");
    const bad = run(["memory", "forget", "banana"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not a memory id");
  });
});
