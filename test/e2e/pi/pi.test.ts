/**
 * The real pi CLI, offline, with a scripted model, under Bun (in-process engine) and under
 * Node 22 (stdio engine). The sidecar is installed by the real binary (`install pi`).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { cleanupTempDirs, ROOT, tempDir, testSeed } from "../../helpers.ts";
import { agentDir, type PiVersion, piCli, RUNTIMES, type Runtime, runPi, toolCallsOf, toolResultsOf, writeScript } from "./harness.ts";
import { noisyLog, SCENARIOS, type Scenario } from "./scenarios.ts";

afterAll(cleanupTempDirs);

function play(s: Scenario, runtime: Runtime, pi: PiVersion, control: boolean, seed = testSeed(`${s.name} on ${runtime}`)) {
  const cwd = tempDir("pi-cwd-");
  const expected = s.setup(cwd, seed);
  const run = runPi({
    runtime,
    pi,
    script: writeScript(control ? s.controlScript : s.sidecarScript),
    prompt: s.prompt(expected),
    agentDir: agentDir(control),
    cwd,
  });
  let answer: unknown = null;
  try {
    answer = JSON.parse(run.stdout.trim());
  } catch {
    answer = run.stdout;
  }
  return { run, expected, answer, seed };
}

// Each runtime on one pi version here; versions.test.ts runs the core on all four combinations.
for (const [runtime, pi] of [
  ["bun", "0.87.1"],
  ["node", "1.3.0"],
] as const) {
  describe(`pi ${pi} on ${runtime}`, () => {
    test("seed: the agent finds TARGET_VALUE through the receipt and one search, for <= 25% of the tokens", () => {
      const side = play(noisyLog, runtime, pi, false);
      const ctrl = play(noisyLog, runtime, pi, true, side.seed);
      expect(side.run.stderr).toContain(`engine: ${runtime === "bun" ? "in-process" : "stdio"}`);
      expect(side.answer).toEqual(side.expected);
      expect(ctrl.answer).toEqual(ctrl.expected);
      expect(toolCallsOf(side.run)).toEqual(["bash", "context_search"]);
      const receipt = toolResultsOf(side.run)[0]!.text;
      expect(receipt).toContain("was stored instead of shown");
      expect(receipt).toContain(`context_search {"query"`);
      expect(side.run.tokensSent).toBeLessThanOrEqual(ctrl.run.tokensSent * 0.25);
    });

    for (const s of SCENARIOS.filter((x) => x !== noisyLog)) {
      test(`${s.name}: answered with at most two retrieval calls`, () => {
        const { run, expected, answer } = play(s, runtime, pi, false);
        expect(answer).toEqual(expected);
        const retrievals = toolCallsOf(run).filter((n) => n.startsWith("context_"));
        expect(retrievals.length).toBeLessThanOrEqual(2);
      });
    }

    test("/context-stats works headless", () => {
      const dir = agentDir();
      const cwd = tempDir("pi-cwd-");
      noisyLog.setup(cwd, 1);
      const script = writeScript(
        `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };`,
      );
      expect(runPi({ runtime, pi, script, prompt: "cat it", agentDir: dir, cwd }).stdout.trim()).toBe("done");
      const stats = runPi({ runtime, pi, script, prompt: "/context-stats", agentDir: dir, cwd });
      expect(stats.code).toBe(0);
      expect(stats.stdout).toMatch(
        /All sessions: 1 stored output, [\d,]+ tokens kept out; receipts cost [\d,]+, retrieval 0; net saved [\d,]+ tokens/,
      );
      expect(stats.calls.length).toBe(0); // a command, not a model call
    });
  });
}

describe("when the engine cannot be reached", () => {
  test("the tool result still arrives, cut like pi cuts, with the full text in a 0600 temp file", () => {
    const dir = agentDir();
    const cwd = tempDir("pi-cwd-");
    const expected = noisyLog.setup(cwd, 3);
    const script = writeScript(
      `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };`,
    );
    // Under Node the extension runs the stdio engine: point it at a binary that does not exist.
    const run = runPi({
      runtime: "node",
      script,
      prompt: noisyLog.prompt(expected),
      agentDir: dir,
      cwd,
      env: { PI_SIDECAR_BIN: `${cwd}/missing/pi-sidecar` },
    });
    expect(run.stdout.trim()).toBe("done");
    const result = toolResultsOf(run)[0]!.text;
    const m = /pi-sidecar could not store this output \((.+?)\)\. The full output is in (\S+) \(readable only by you\)/.exec(result);
    expect(m).not.toBeNull();
    const path = m![2]!;
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe(readFileSync(`${cwd}/service.log`, "utf8"));
    expect(result).toContain(`TARGET_VALUE=${expected.uuid}`); // the tail the model sees, as with plain pi
    expect(result).toMatch(/\[Showing lines \d+-1400 of 1400\.\]/);
  });
});

describe("install pi / uninstall pi", () => {
  test("install writes the extension that pi loads; uninstall removes it and pi runs plain again", () => {
    const dir = agentDir(); // installed with the real binary
    const cwd = tempDir("pi-cwd-");
    noisyLog.setup(cwd, 9);
    const script = writeScript(
      `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };`,
    );
    const installed = runPi({ runtime: "node", pi: "1.3.0", script, prompt: "cat", agentDir: dir, cwd });
    expect(toolResultsOf(installed)[0]!.text).toContain("[pi-sidecar]");
    const un = Bun.spawnSync([`${import.meta.dir}/../../../dist/pi-sidecar`, "uninstall", "pi"], {
      env: { PATH: process.env.PATH ?? "", PI_CODING_AGENT_DIR: dir, HOME: dir },
      stdout: "pipe",
    });
    expect(un.stdout.toString()).toContain("Removed");
    const plain = runPi({ runtime: "node", pi: "1.3.0", script, prompt: "cat", agentDir: dir, cwd });
    expect(toolResultsOf(plain)[0]!.text).not.toContain("[pi-sidecar]");
    expect(toolResultsOf(plain)[0]!.text).toContain("[Showing lines");
  });
});

describe("the repository as a pi package", () => {
  test("`pi install <repo>` (pi 1.3.0) loads the extension from dist/extension, in-process on Bun and over stdio on Node", () => {
    const dir = agentDir(true);
    const install = Bun.spawnSync([RUNTIMES.node, piCli("1.3.0"), "install", ROOT], {
      env: { PATH: process.env.PATH ?? "", HOME: dir, PI_CODING_AGENT_DIR: dir, PI_OFFLINE: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(install.exitCode).toBe(0);
    expect(readFileSync(`${dir}/settings.json`, "utf8")).toContain("packages");
    const cwd = tempDir("pi-cwd-");
    noisyLog.setup(cwd, 12);
    const script = writeScript(
      `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };`,
    );
    for (const runtime of ["bun", "node"] as const) {
      const run = runPi({ runtime, pi: "1.3.0", script, prompt: "cat", agentDir: dir, cwd });
      expect(toolResultsOf(run)[0]!.text).toContain("[pi-sidecar] bash output");
      expect(run.stderr).toContain(`engine: ${runtime === "bun" ? "in-process" : "stdio"}`);
    }
  });
});
