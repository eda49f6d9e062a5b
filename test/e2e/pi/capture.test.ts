/**
 * A failing command's long output is stored whole in every pi version: pi 0.87.1's bash throws
 * on a non-zero exit (the whole output is then only in pi's temp file, named in the cut text),
 * pi 1.3.0 returns it with the file in its details, and both throw on a timeout.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../../helpers.ts";
import { agentDir, PI_VERSIONS, type Runtime, runPi, stepsScript, toolResultsOf } from "./harness.ts";

afterAll(cleanupTempDirs);

function failing(version: (typeof PI_VERSIONS)[number], runtime: Runtime, command: string, timeout?: number) {
  const run = runPi({
    pi: version,
    runtime,
    agentDir: agentDir(),
    prompt: "run it, then find 12345",
    script: stepsScript([
      { name: "bash", arguments: { command, ...(timeout ? { timeout } : {}) } },
      { name: "context_search", arguments: { query: "12345" } },
    ]),
  });
  expect(run.code).toBe(0);
  const [receipt, search] = toolResultsOf(run).map((r) => r.text);
  return { receipt: receipt!, search: search! };
}

for (const version of PI_VERSIONS) {
  describe(`pi ${version}`, () => {
    const runtimes: Runtime[] = version === "0.87.1" ? ["bun", "node"] : ["bun"];
    for (const runtime of runtimes) {
      test(`on ${runtime}: \`seq 1 30000; exit 1\` is stored whole and a search finds line 12345`, () => {
        const { receipt, search } = failing(version, runtime, "seq 1 30000; exit 1");
        expect(receipt).toContain("bash output (164.9 KiB, 30,000 lines) was stored");
        expect(receipt).toContain("(Command exited with code 1; the stored text is its whole output.)");
        expect(receipt).not.toContain("Full output:");
        expect(search).toMatch(/^12345: 12345$/m);
      });
    }

    test("a command that times out after printing is stored whole too", () => {
      const { receipt, search } = failing(version, "bun", "seq 1 30000; sleep 30", 3);
      expect(receipt).toContain("30,000 lines) was stored");
      expect(receipt).toContain("(Command timed out after 3 seconds; the stored text is its whole output.)");
      expect(search).toMatch(/^12345: 12345$/m);
    });
  });
}
