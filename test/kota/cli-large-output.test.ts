/**
 * The built binary prints a whole answer to a pipe whose reader is slow: the process waits for its
 * last write to reach the pipe before it exits (it once exited with 64 KiB sent and the rest lost,
 * so a `kota usages --json` of a much-used symbol came out as broken JSON).
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const BIN = join(import.meta.dir, "../../dist/pi-sidecar");

test.skipIf(!existsSync(BIN))(
  "kota usages --json over 64 KiB arrives whole at a reader that starts late",
  async () => {
    const calls = Array.from({ length: 3000 }, (_, i) => `export const v${i} = used(${i});`).join("\n");
    const repo = writeRepo({
      "src/used.ts": "export function used(n: number) {\n  return n;\n}\n",
      "src/calls.ts": `import { used } from "./used";\n${calls}\n`,
    });
    const home = tempDir("kota-large-out-");
    const env = { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: home };
    const db = join(home, "s.db");
    const indexed = Bun.spawnSync([BIN, "kota", "index", "--repo", repo, "--db", db, "--json"], { env, stdout: "pipe", stderr: "pipe" });
    expect(indexed.exitCode).toBe(0);
    // The reader starts a second late (a shell pipe: Bun would read a pipe of its own at once).
    const args = ["kota", "usages", "used", "--file", "src/used.ts", "--repo", repo, "--db", db, "--json"];
    const proc = Bun.spawnSync(["sh", "-c", '"$0" "$@" | (sleep 1; cat)', BIN, ...args], { env, stdout: "pipe", stderr: "pipe" });
    expect(proc.exitCode).toBe(0);
    const text = proc.stdout.toString();
    expect(text.length).toBeGreaterThan(65_536);
    const answer = JSON.parse(text) as { usages: { file: string }[] };
    expect(answer.usages.filter((u) => u.file === "src/calls.ts").length).toBe(3001);
  },
  60_000,
);
