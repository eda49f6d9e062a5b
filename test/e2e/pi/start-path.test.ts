/**
 * What pi loads at start: only the tiny loader and the extension bundle. The engine, the
 * tokenizer tables and the background worker load when the first output is stored (on Node the
 * engine is a child process, so pi's own process never loads them at all). Asserted on what was
 * loaded (a require hook on Node, the extension's debug log on Bun), not on time.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers.ts";
import { agentDir, runPi, stepsScript, writeScript } from "./harness.ts";

/** A preload for Node that records every file `require` loads. */
function requireHook(): { hook: string; log: string } {
  const dir = tempDir("pi-load-");
  const log = join(dir, "loaded.txt");
  const hook = join(dir, "hook.cjs");
  writeFileSync(
    hook,
    `const M = require("node:module"); const fs = require("node:fs"); const load = M._load;
M._load = function (request, parent, isMain) {
  try { fs.appendFileSync(${JSON.stringify(log)}, M._resolveFilename(request, parent, isMain) + "\\n"); } catch {}
  return load.apply(this, arguments);
};`,
  );
  writeFileSync(log, "");
  return { hook, log };
}

const HEAVY = /engine\.cjs|tokenizer\.cjs|background-worker|@modelcontextprotocol|[/\\]ajv[/\\]|gpt-tokenizer|oxc-parser/;

describe("pi's start path", () => {
  test("Node (pi 1.3.0): a prompt with no tool call loads the loader and sidecar.cjs, nothing heavy; a stored output loads none of it into pi", () => {
    const { hook, log } = requireHook();
    const env = { NODE_OPTIONS: `--require ${hook}` };
    const quiet = runPi({
      runtime: "node",
      pi: "1.3.0",
      script: writeScript('export default () => "hi";'),
      prompt: "hello",
      agentDir: agentDir(),
      env,
    });
    expect(quiet.code).toBe(0);
    const loaded = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(loaded.some((f) => f.endsWith("sidecar.cjs"))).toBe(true);
    expect(loaded.filter((f) => HEAVY.test(f))).toEqual([]);

    writeFileSync(log, "");
    const busy = runPi({
      runtime: "node",
      pi: "1.3.0",
      script: stepsScript([{ name: "bash", arguments: { command: "seq 1 30000" } }]),
      prompt: "go",
      agentDir: agentDir(),
      env,
    });
    expect(busy.stdout).toContain("was stored instead of shown");
    expect(busy.stderr).toContain("engine: stdio");
    const after = readFileSync(log, "utf8").split("\n").filter(Boolean);
    expect(after.filter((f) => HEAVY.test(f))).toEqual([]);
  }, 120_000);

  test("Bun: no engine before the first output to store; then the in-process engine", () => {
    const quiet = runPi({ runtime: "bun", script: writeScript('export default () => "hi";'), prompt: "hello", agentDir: agentDir() });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain("engine:");
    const busy = runPi({
      runtime: "bun",
      script: stepsScript([{ name: "bash", arguments: { command: "seq 1 30000" } }]),
      prompt: "go",
      agentDir: agentDir(),
    });
    expect(busy.stderr).toContain("engine: in-process");
  }, 120_000);

  test("Bun loads sidecar-bun.cjs and the engine with their bytecode beside them; Node loads sidecar.cjs", () => {
    const agent = agentDir();
    const dir = join(agent, "extensions", "pi-sidecar");
    for (const f of ["sidecar-bun.cjs.jsc", "engine.cjs.jsc"]) expect(statSync(join(dir, f)).size).toBeGreaterThan(100_000);
    // Without Node's bundle pi on Bun still stores an output: it never needed it.
    rmSync(join(dir, "sidecar.cjs"));
    const onBun = runPi({
      runtime: "bun",
      script: stepsScript([{ name: "bash", arguments: { command: "seq 1 30000" } }]),
      prompt: "go",
      agentDir: agent,
    });
    expect(onBun.stdout).toContain("was stored instead of shown");
    expect(onBun.stderr).toContain("engine: in-process");
    // And Node never reads Bun's.
    const other = agentDir();
    rmSync(join(other, "extensions", "pi-sidecar", "sidecar-bun.cjs"));
    const onNode = runPi({
      runtime: "node",
      script: stepsScript([{ name: "bash", arguments: { command: "seq 1 30000" } }]),
      prompt: "go",
      agentDir: other,
    });
    expect(onNode.stdout).toContain("was stored instead of shown");
  }, 120_000);
});
