/**
 * The extension runs on the modules of the pi that loaded it, whatever Bun's cache holds: with an
 * empty Bun cache and the registry reachable nothing is installed into it, and with a cache that
 * holds another pi (marked so that loading it leaves a trace) that pi is never loaded. Both pi
 * versions, both entry points (the `pi` command's bundle, and dist/cli.js where Bun imports an
 * extension natively first), under Bun, with the extension installed by the real binary.
 *
 * A control extension that names pi by bare import, loaded the same way, proves the conditions:
 * Bun auto-installs another pi into this very cache, and loads the marked copy afterwards.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, PI_VERSIONS, type PiEntry, runPi, stepsScript } from "./harness.ts";

afterAll(cleanupTempDirs);

const cache = tempDir("bun-cache-");
const marker = join(tempDir("cache-marker-"), "loaded.txt");
const env = { BUN_INSTALL_CACHE_DIR: cache, CACHE_MARKER: marker };
const ENTRIES: PiEntry[] = ["unbundled", "bundle"];

/**
 * A pi extension written the careless way: pi's package by its bare name, and a package.json that
 * depends on pi 1.3.0 (without one Bun fetches the newest pi, whose whole tree this registry may
 * not serve: its import then fails and pi falls back to its own copy after the download).
 */
function controlExtension(): string {
  const dir = tempDir("control-ext-");
  const path = join(dir, "control.js");
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "control", type: "module", dependencies: { "@earendil-works/pi-coding-agent": "1.3.0" } }),
  );
  writeFileSync(
    path,
    `import { VERSION } from "@earendil-works/pi-coding-agent";
export default function (pi) { pi.on("session_start", () => { process.stderr.write("control: pi " + VERSION + "\\n"); }); }
`,
  );
  return path;
}

/** A task whose output is stored: the engine, the worker and the tokenizer all load. */
const task = stepsScript([{ name: "bash", arguments: { command: "seq 1 30000" } }]);

function runOurs(pi: (typeof PI_VERSIONS)[number], entry: PiEntry) {
  const run = runPi({ runtime: "bun", pi, entry, script: task, prompt: "go", agentDir: agentDir(), env });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(`pi-sidecar: pi ${pi} on Bun`);
  expect(run.stderr).toContain("engine: in-process");
  expect(run.stdout).toContain("was stored instead of shown");
  return run;
}

/** The control extension on pi 0.87.1's dist/cli.js under Bun, where Bun imports extensions natively first. */
const runControl = () =>
  runPi({
    runtime: "bun",
    entry: "unbundled",
    script: task,
    prompt: "go",
    agentDir: agentDir(true),
    extensions: [controlExtension()],
    env,
  });

const cachedPis = () => {
  const scope = join(cache, "@earendil-works");
  return existsSync(scope) ? readdirSync(scope).filter((n) => /^pi-coding-agent@/.test(n)) : [];
};

describe("pi's own modules, whatever Bun's cache holds", () => {
  test("an empty Bun cache with the registry reachable stays empty", () => {
    for (const pi of PI_VERSIONS) for (const entry of ENTRIES) runOurs(pi, entry);
    expect(readdirSync(cache)).toEqual([]);

    // The control: the same start with a bare import fetches another pi into this cache.
    const control = runControl();
    expect(control.stderr).toContain("control: pi 1.3.0"); // Bun's copy, not the running 0.87.1
    expect(cachedPis().length).toBeGreaterThan(0);
  }, 300_000);

  test("a Bun cache holding another pi: that pi is never loaded", () => {
    const cached = cachedPis();
    expect(cached.length).toBeGreaterThan(0); // filled by the control above
    // Mark every cached copy of pi's main module and of typebox: loading one appends its URL to the marker file.
    const trace = `\nimport { appendFileSync as __trace } from "node:fs";\nif (process.env.CACHE_MARKER) __trace(process.env.CACHE_MARKER, import.meta.url + "\\n");\n`;
    const marked: string[] = [];
    for (const name of cached) {
      const main = join(cache, "@earendil-works", name, "dist/index.js");
      if (existsSync(main)) marked.push(main);
    }
    for (const name of existsSync(cache) ? readdirSync(cache).filter((n) => /^typebox@/.test(n)) : []) {
      const main = join(cache, name, "build/index.mjs");
      if (existsSync(main)) marked.push(main);
    }
    expect(marked.length).toBeGreaterThan(0);
    for (const file of marked) appendFileSync(file, trace);

    // The control loads the marked copy, so the mark works.
    const control = runControl();
    expect(control.stderr).toContain("control: pi 1.3.0");
    expect(readFileSync(marker, "utf8")).toContain(cache);
    writeFileSync(marker, "");

    for (const pi of PI_VERSIONS) for (const entry of ENTRIES) runOurs(pi, entry);
    expect(readFileSync(marker, "utf8")).toBe("");
  }, 300_000);
});
