/**
 * What pi-sidecar adds to every request before any tool runs: tool definitions and system-prompt
 * lines, in tokens (o200k), measured on the first request real pi sends, plain and with the
 * sidecar's default configuration, in a folder with no code (no kota tools) and in a TypeScript
 * project (the session benchmark measures its own configurations in hono).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../src/tokens/count.ts";
import { agentDir, type PiVersion, runPi, stepsScript } from "../../test/e2e/pi/harness.ts";
import { tempDir } from "../../test/helpers.ts";
import { tokensOf } from "./analyze.ts";
import type { LoggedCall } from "./session.ts";

export type AddedDefinitions = { pi: PiVersion; variant: string; tokens: number };
/** One part of what the sidecar adds: a tool it registers, a built-in tool it changes, or the system prompt's added lines. */
export type AddedPart = { pi: PiVersion; part: string; tokens: number };

type Request = { definitions: number; systemPrompt: string; tools: { name: string }[] };

function firstRequest(pi: PiVersion, sidecar: boolean, cwd: string): Request {
  const run = runPi({ pi, runtime: "node", script: stepsScript([]), prompt: "hello", agentDir: agentDir(!sidecar), cwd });
  const call = run.calls[0];
  if (!call) throw new Error(`pi ${pi} sent no request: ${run.stderr.slice(-500)}`);
  // The first request's definitions (system prompt and tools); its one message is the same either way.
  const request: LoggedCall = { callIndex: 0, systemPrompt: call.systemPrompt, tools: call.tools, messages: [] };
  return { definitions: tokensOf([request])[0]!.definitions, systemPrompt: call.systemPrompt, tools: call.tools };
}

/** Each added or changed tool's definition (name, description, parameters as JSON), and the system prompt's growth. */
function parts(pi: PiVersion, plain: Request, sidecar: Request): AddedPart[] {
  const tokens = (x: unknown) => countTokens(JSON.stringify(x));
  const before = new Map(plain.tools.map((t) => [t.name, tokens(t)]));
  const out = sidecar.tools.flatMap((t) => {
    const was = before.get(t.name);
    const now = tokens(t);
    if (was === now) return [];
    return [{ pi, part: was === undefined ? t.name : `${t.name} (pi's, changed)`, tokens: now - (was ?? 0) }];
  });
  out.push({ pi, part: "system prompt", tokens: countTokens(sidecar.systemPrompt) - countTokens(plain.systemPrompt) });
  return out;
}

export function benchDefinitions(versions: readonly PiVersion[]): { added: AddedDefinitions[]; parts: AddedPart[] } {
  const noCode = tempDir("defs-nocode-");
  writeFileSync(join(noCode, "notes.md"), "# notes\n");
  const code = tempDir("defs-code-");
  mkdirSync(join(code, "src"));
  writeFileSync(join(code, "package.json"), '{ "name": "app", "type": "module" }\n');
  writeFileSync(join(code, "src/index.ts"), "export const answer = 42;\n");
  const added: AddedDefinitions[] = [];
  const byPart: AddedPart[] = [];
  for (const pi of versions)
    for (const { variant, cwd } of [
      { variant: "default, a folder with no code", cwd: noCode },
      { variant: "default, a TypeScript project", cwd: code },
    ]) {
      const plain = firstRequest(pi, false, cwd);
      const sidecar = firstRequest(pi, true, cwd);
      added.push({ pi, variant, tokens: sidecar.definitions - plain.definitions });
      if (cwd === code) byPart.push(...parts(pi, plain, sidecar));
    }
  return { added, parts: byPart };
}
