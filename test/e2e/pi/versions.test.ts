/**
 * The same session on pi 0.87.1 and pi 1.3.0, under Bun and under Node 22: the extension loads on
 * the running pi's own modules, pi's own MCP support is left in place (1.3.0 prints no warning that
 * an extension took `/mcp`), a big bash output becomes a receipt that one search reaches, and a
 * repeated read is answered by the read cache. The other end-to-end files split their tests
 * between the two versions; PI_SIDECAR_TEST_PI=1.3.0 runs all of them on 1.3.0.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, PI_VERSIONS, runPi, stepsScript, toolCallsOf } from "./harness.ts";

afterAll(cleanupTempDirs);

const NEEDLE = "checksum mismatch in shard 7731";
const steps = stepsScript([
  { name: "bash", arguments: { command: `seq 1 40000 | sed 's/^/event /'; echo '${NEEDLE}'; seq 1 2000` } },
  { name: "context_search", arguments: { query: "checksum mismatch shard" } },
  { name: "read", arguments: { path: "notes.md" } },
  { name: "read", arguments: { path: "notes.md" } },
]);

for (const pi of PI_VERSIONS) {
  for (const runtime of ["bun", "node"] as const) {
    describe(`pi ${pi} on ${runtime}`, () => {
      test("its own modules and MCP; a receipt one search reaches; a repeated read answered by the read cache", () => {
        const cwd = tempDir("pi-versions-");
        writeFileSync(join(cwd, "notes.md"), `${Array.from({ length: 80 }, (_, i) => `note ${i + 1}: keep the cache warm`).join("\n")}\n`);
        const run = runPi({ runtime, pi, script: steps, prompt: "find the checksum problem", agentDir: agentDir(), cwd });
        expect(run.code).toBe(0);
        expect(run.stderr).toContain(`pi-sidecar: pi ${pi} on ${runtime === "bun" ? "Bun" : "Node"}`);
        expect(run.stderr).toContain(pi.startsWith("1.") ? "with its own MCP support" : `pi ${pi} on`);
        expect(run.stderr).not.toContain("was not loaded");
        expect(run.stderr).toContain(`engine: ${runtime === "bun" ? "in-process" : "stdio"}`);
        expect(toolCallsOf(run)).toEqual(["bash", "context_search", "read", "read"]);
        const [receipt, search, first, second] = JSON.parse(run.stdout.trim()) as string[];
        expect(receipt).toContain("was stored instead of shown");
        expect(receipt).not.toContain(NEEDLE);
        expect(search).toContain(NEEDLE);
        expect(first).toContain("note 80: keep the cache warm");
        expect(second).toStartWith("[readcache: unchanged]");
      }, 120_000);
    });
  }
}
