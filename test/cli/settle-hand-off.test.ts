/**
 * A one-shot capture answers with its receipt and hands indexing and counting to a detached
 * `pi-sidecar settle` (hand-off.ts). That process's main thread waits on its prep helper thread for
 * a large text's batches; with nothing else keeping the process alive it must not end before the
 * queue is empty (it once did, now and then, leaving the capture for the next command).
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN } from "../e2e/pi/harness.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

/** About 2 MiB of a build log, different each round (so no capture is a duplicate of another). */
function buildLog(round: number): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 2 << 20; i++) {
    const line = `[${round}:${i}] compiling packages/mod_${(i * 7 + round) % 131}/src/unit_${i}.ts (${(i * 37) % 997} ms) cache ${i % 3 ? "hit" : "miss"}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

function queued(db: string): number | null {
  try {
    const d = new Database(db, { readonly: true });
    try {
      return d.query<{ n: number }, []>("SELECT (SELECT count(*) FROM index_queue) + (SELECT count(*) FROM blob_count_queue) AS n").get()!
        .n;
    } finally {
      d.close();
    }
  } catch {
    return null; // busy: the settle is writing
  }
}

describe("the capture's hand-off to a detached settle", () => {
  test("every round, the detached settle empties the queue of a 2 MiB capture", async () => {
    const dir = tempDir("settle-hand-off-");
    const env = { PATH: process.env.PATH ?? "", HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") };
    for (let round = 0; round < 6; round++) {
      const input = join(dir, `in-${round}.log`);
      writeFileSync(input, buildLog(round));
      const db = join(dir, `round-${round}.db`);
      const r = Bun.spawnSync([BIN, "--db", db, "capture", "--tool", "bash"], {
        stdin: Bun.file(input),
        env,
        cwd: dir,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.toString()).toContain("was stored instead of shown");
      let left = queued(db);
      for (let waited = 0; left !== 0 && waited < 20_000; waited += 100) {
        await Bun.sleep(100);
        left = queued(db);
      }
      expect({ round, left }).toEqual({ round, left: 0 });
    }
  }, 180_000);
});
