/**
 * A search the model makes in real pi is logged with pi's session id (the page's session filter and
 * `stats --session` find it), on Bun and on Node.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { openDatabase } from "../../../src/db/open.ts";
import { cleanupTempDirs, tempDir } from "../../helpers.ts";
import { agentDir, RUNTIMES, runPi, writeScript } from "./harness.ts";

afterAll(cleanupTempDirs);

const BIG = `seq 1 11000 | awk '{printf "event %06d status=ok latency=%dms\\n", $1, $1%97}'`;
// The fake model runs the command, then searches what was stored, then stops.
const script = writeScript(`let step = 0;
export default () => {
  step++;
  if (step === 1) return { toolCalls: [{ name: "bash", arguments: { command: ${JSON.stringify(BIG)} } }] };
  if (step === 2) return { toolCalls: [{ name: "context_search", arguments: { query: "event 004321" } }] };
  return "done";
};`);

describe("retrievals in pi carry the session", () => {
  for (const runtime of Object.keys(RUNTIMES) as (keyof typeof RUNTIMES)[]) {
    test(`on ${runtime}`, () => {
      const dir = agentDir();
      const run = runPi({ runtime, script, prompt: "go", agentDir: dir, cwd: tempDir("pi-cwd-"), sessionDir: tempDir("pi-sess-") });
      expect(run.code).toBe(0);
      const db = openDatabase(join(dir, "sidecar.db"), { readonly: true });
      const captured = db.query<{ session: string | null }, []>("SELECT DISTINCT session FROM sources").all();
      const searched = db.query<{ kind: string; session: string | null }, []>("SELECT kind, session FROM retrievals").all();
      db.close();
      expect(captured.length).toBe(1);
      expect(captured[0]!.session).toMatch(/\S/);
      expect(searched).toEqual([{ kind: "search", session: captured[0]!.session }]);
    }, 240_000);
  }
});
