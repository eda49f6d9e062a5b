/**
 * The pi extension's parts that need no pi process: the status line as pi's footer renders it
 * (every extension's status joined by a bare space), the details a receipt carries (nothing pi
 * renders its "Truncated" footer from), the baseline a tool result brings, `/prune`'s counts and
 * `/kota`'s phrasing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createReadToolDefinition } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import { defaultConfig } from "../../src/config.ts";
import { forPiUser, registerKota } from "../../src/surfaces/pi/kota.ts";
import { formatPruneStatus } from "../../src/surfaces/pi/prune.ts";
import { SEPARATOR, statusLine } from "../../src/surfaces/pi/status.ts";
import { captureToolResult } from "../../src/surfaces/tools/capture-output.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs, noisyLog, tempDir, testEngine } from "../helpers.ts";

afterAll(cleanupTempDirs);

/** A pi that records what the extension registers, and a context whose status line renders as pi's footer does. */
function fakePi() {
  const handlers = new Map<string, ((event: unknown, ctx: unknown) => unknown)[]>();
  const pi = {
    on: (name: string, fn: (event: unknown, ctx: unknown) => unknown) => handlers.set(name, [...(handlers.get(name) ?? []), fn]),
    registerTool: () => {},
    registerCommand: () => {},
    appendEntry: () => {},
  };
  const statuses = new Map<string, string>();
  const ctx = {
    cwd: "",
    hasUI: true,
    ui: { setStatus: (key: string, text: string | undefined) => (text === undefined ? statuses.delete(key) : statuses.set(key, text)) },
    sessionManager: { getSessionId: () => "s1", getBranch: () => [] },
  };
  // pi's footer: statuses sorted by key, joined with one space.
  const footer = () =>
    [...statuses.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, t]) => t)
      .join(" ");
  return { pi, ctx, handlers, footer };
}

describe("the status line", () => {
  test("the saving and the code index's item are separated on pi's footer", async () => {
    const { pi, ctx, handlers, footer } = fakePi();
    const cwd = tempDir("pi-kota-");
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "package.json"), "{}\n");
    writeFileSync(join(cwd, "src/a.ts"), "export const a = 1;\n");
    ctx.cwd = cwd;
    const host = { Type, createReadToolDefinition, dir: cwd, piVersion: "0.87.1" };
    registerKota(
      pi as never,
      host,
      async () => null,
      defaultConfig({ HOME: cwd }),
      () => {},
      () => {},
      undefined,
      cwd,
    );
    for (const fn of handlers.get("session_start") ?? []) await fn({}, ctx);
    statusLine(pi as never).set(
      ctx as never,
      "sidecar",
      "sidecar: saved 12.4k tokens of what pi would have sent (1 output, 190.0k stored)",
    );
    const line = footer();
    expect(line).toContain(`190.0k stored)${SEPARATOR}kota: stopped`);
    statusLine(pi as never).set(ctx as never, "sidecar", undefined);
    expect(footer()).toStartWith("kota: stopped");
  });
});

describe("a receipt in place of pi's cut", () => {
  test("keeps none of the details pi renders its Truncated footer from; the baseline is the text pi cut", async () => {
    const engine = testEngine();
    const dir = tempDir();
    const whole = noisyLog(9000, 3);
    const file = join(dir, "pi-bash-1.log");
    writeFileSync(file, whole);
    const shown = `${whole.trimEnd().split("\n").slice(-700).join("\n")}\n\n[Showing lines 8301-9000 of 9000 (50.0KB limit). Full output: ${file}]`;
    const truncation = {
      truncated: true,
      truncatedBy: "bytes",
      outputLines: 700,
      totalLines: 9000,
      maxLines: 2000,
      maxBytes: 51200,
      content: shown,
    };
    const replaced = await captureToolResult(
      async () => engine,
      engine.config,
      {
        toolName: "bash",
        input: { command: "make" },
        content: [{ type: "text", text: shown }],
        details: { truncation, fullOutputPath: file },
        isError: false,
      },
      { session: "s1", project: dir, host: "pi 0.87.1" },
      () => "",
    );
    const details = replaced!.details;
    expect(details.truncation).toBeUndefined();
    expect(details.fullOutputPath).toBeUndefined();
    expect(details.hostCut).toMatchObject({ truncated: true, outputLines: 700, fullOutputPath: file });
    expect(JSON.stringify(details)).not.toContain("Showing lines"); // no second copy of the text
    const s = await engine.stats({});
    expect(s.totals.baselineTokens).toBe(countTokens(shown));
    expect(s.recent[0]!.baseline).toBe("pi 0.87.1's own cut of bash (at most 2,000 lines or 50.0 KiB, the whole in a file)");
    await engine.close();
  });
});

describe("/prune and /kota", () => {
  test("/prune says the database's counts: the same as stats and the web page", () => {
    const settings = defaultConfig({ HOME: tempDir() }).prune;
    const text = formatPruneStatus(
      settings,
      {
        results: 1,
        tokensBefore: 900,
        tokensAfter: 40,
        savedPerRequest: 860,
        batches: 1,
        larger: 0,
        retrievedTokens: 0,
        lastBatch: { id: 1, at: 0, session: "s", results: 1, tokensBefore: 900, tokensAfter: 40, adaptive: false },
      },
      null,
      null,
    );
    expect(text).toContain("This session: 1 result replaced by pointers in 1 batch; 860 tokens fewer on every later request");
    expect(text).toMatch(/Last batch: .+, 1 result, 900 -> 40 tokens\./);
  });

  test("/kota names its slash commands; a shell command stays as it is", () => {
    expect(forPiUser("not indexed yet (kota index)")).toBe("not indexed yet (/kota index)");
    expect(forPiUser("Run kota index first.")).toBe("Run /kota index first.");
    expect(forPiUser("run `pi-sidecar kota index` in the repository")).toBe("run `pi-sidecar kota index` in the repository");
    expect(forPiUser("run /kota index")).toBe("run /kota index");
  });
});
