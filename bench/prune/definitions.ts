/**
 * What pi-sidecar adds to every request before any tool runs: tool definitions and system-prompt
 * lines, in tokens (o200k), measured on the first request real pi sends, plain and with the
 * sidecar's default configuration, in a folder with no code (no kota tools) and in a TypeScript
 * project (the session benchmark measures its own configurations in hono).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentDir, type PiVersion, runPi, stepsScript } from "../../test/e2e/pi/harness.ts";
import { tempDir } from "../../test/helpers.ts";
import { tokensOf } from "./analyze.ts";
import type { LoggedCall } from "./session.ts";

export type AddedDefinitions = { pi: PiVersion; variant: string; tokens: number };

function firstRequest(pi: PiVersion, sidecar: boolean, cwd: string): number {
  const run = runPi({ pi, runtime: "node", script: stepsScript([]), prompt: "hello", agentDir: agentDir(!sidecar), cwd });
  const call = run.calls[0];
  if (!call) throw new Error(`pi ${pi} sent no request: ${run.stderr.slice(-500)}`);
  // The first request's definitions (system prompt and tools); its one message is the same either way.
  const request: LoggedCall = { callIndex: 0, systemPrompt: call.systemPrompt, tools: call.tools, messages: [] };
  return tokensOf([request])[0]!.definitions;
}

export function benchDefinitions(versions: readonly PiVersion[]): AddedDefinitions[] {
  const noCode = tempDir("defs-nocode-");
  writeFileSync(join(noCode, "notes.md"), "# notes\n");
  const code = tempDir("defs-code-");
  mkdirSync(join(code, "src"));
  writeFileSync(join(code, "package.json"), '{ "name": "app", "type": "module" }\n');
  writeFileSync(join(code, "src/index.ts"), "export const answer = 42;\n");
  return versions.flatMap((pi) =>
    [
      { variant: "default, a folder with no code", cwd: noCode },
      { variant: "default, a TypeScript project", cwd: code },
    ].map(({ variant, cwd }) => ({ pi, variant, tokens: firstRequest(pi, true, cwd) - firstRequest(pi, false, cwd) })),
  );
}
