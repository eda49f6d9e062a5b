/**
 * /context-purge in real pi, on Bun (the engine in pi's process) and on Node (the engine in a
 * child over stdio): the deletes answer at once, the file is rewritten off pi's thread, and the
 * user is told when that ended; afterwards none of the purged output can be read from the file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, BIN, RUNTIMES, runPi, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

/** About 400 KB of log lines with a word of their own on every line. */
const BIG = `seq 1 11000 | awk '{printf "event %06d status=ok latency=%dms marker=quorvexalt%d\\n", $1, $1%97, $1%13}'`;
const once = writeScript(
  `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: ${JSON.stringify(BIG)} } }] };`,
);

function readable(path: string, word: string): boolean {
  return [path, `${path}-wal`].some((f) => existsSync(f) && readFileSync(f).toString("latin1").includes(word));
}

describe("/context-purge in pi", () => {
  for (const runtime of Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[]) {
    test(`on ${runtime}: answered, then the user is told the file was rewritten; nothing of it is left`, () => {
      const dir = agentDir();
      const run = runPi({ runtime, script: once, prompt: "run it", agentDir: dir, cwd: tempDir("pi-cwd-") });
      expect(run.code).toBe(0);
      const env = { PATH: process.env.PATH ?? "", HOME: dir, PI_CODING_AGENT_DIR: dir };
      const list = Bun.spawnSync([BIN, "list", "--json"], { env, stdout: "pipe", stderr: "pipe" });
      const sources = JSON.parse(list.stdout.toString()).sources as { sourceId: string }[];
      expect(sources.length).toBe(1);
      const db = join(dir, "sidecar.db");
      expect(readable(db, "quorvexalt")).toBe(true);

      const purged = runPi({
        runtime,
        script: once,
        prompt: `/context-purge ${sources[0]!.sourceId}`,
        agentDir: dir,
        cwd: tempDir("pi-cwd-"),
      });
      expect(purged.code).toBe(0);
      const lines = purged.stdout.trim().split("\n");
      expect(lines[0]).toContain("Purged 1 source");
      expect(lines[0]).toContain("being rewritten in the background");
      expect(lines[1]).toMatch(/^pi-sidecar: The file was rewritten \(.+\): no copy of the deleted text is left in it\.$/);
      expect(readable(db, "quorvexalt")).toBe(false);
      const after = Bun.spawnSync([BIN, "list", "--json"], { env, stdout: "pipe" });
      expect(JSON.parse(after.stdout.toString()).sources).toEqual([]);
    }, 240_000);
  }
});
