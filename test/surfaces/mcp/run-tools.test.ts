/**
 * context_run over `pi-sidecar mcp` as a client uses it: the exact bytes of a small output, a
 * receipt for a large one, the exit status in both, progress notifications while a command runs,
 * and a client's cancel stopping it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUN, cleanupTempDirs, noisyLog, ROOT, tempDir, waitFor } from "../../helpers.ts";

const cwd = tempDir();
const client = new Client({ name: "test", version: "1.0.0" });

beforeAll(async () => {
  writeFileSync(
    join(cwd, "build.log"),
    noisyLog(1500, 3, { line: 1200, text: "error TS2322: Type 'string' is not assignable to 'Widget'" }),
  );
  await client.connect(
    new StdioClientTransport({
      command: BUN,
      args: [join(ROOT, "src/main.ts"), "mcp", "--no-servers"],
      cwd,
      env: { HOME: tempDir(), PATH: process.env.PATH ?? "", PI_SIDECAR_SETTLE: "inline" },
      stderr: "pipe",
    }),
  );
});

afterAll(async () => {
  await client.close();
  cleanupTempDirs();
});

type Result = { content: { type: string; text: string }[]; isError?: boolean };
const call = async (args: Record<string, unknown>, options = {}) =>
  (await client.callTool({ name: "context_run", arguments: args }, undefined, options)) as Result;

describe("context_run over pi-sidecar mcp", () => {
  test("small output exact, large output a receipt, the exit status in both", async () => {
    const small = await call({ command: "printf 'one\\ttwo\\n\\nthree'; exit 4" });
    expect(small.content[0]!.text).toBe("one\ttwo\n\nthree\n[exit code 4]");
    expect(small.isError).toBe(true);
    const big = await call({ command: "cat build.log" });
    expect(big.isError).toBe(false);
    const receipt = big.content[0]!.text;
    const id = /Source (ctx_\w+)/.exec(receipt)![1]!;
    expect(receipt.length).toBeLessThan(4000);
    const hits = (await client.callTool({ name: "context_search", arguments: { query: "TS2322 Widget", source: id } })) as Result;
    expect(hits.content[0]!.text).toContain("1200: error TS2322");
    const failedBig = await call({ command: "cat build.log; false" });
    expect(failedBig.content[0]!.text).toEndWith("[exit code 1]");
  });

  test("progress arrives while it runs; a cancel stops it", async () => {
    const progress: { progress: number; message?: string }[] = [];
    const r = await call(
      { command: "echo warming; sleep 2.5; echo done" },
      { onprogress: (p: { progress: number; message?: string }) => progress.push(p) },
    );
    expect(r.content[0]!.text).toBe("warming\ndone\n");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.message).toContain("last: warming");
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 500);
    await expect(call({ command: "sleep 30 & echo $! > sleep.pid; wait" }, { signal: controller.signal })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(readFileSync(join(cwd, "sleep.pid"), "utf8"));
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, "the cancelled command's process group to be killed");
    // The server is still there and answers the next call.
    expect((await call({ command: "echo alive" })).content[0]!.text).toBe("alive\n");
  });
});
