/**
 * A scripted agent loop that acts like Claude Code on real tool outputs (bench/retrieval: the
 * held-out set first, then the tuning set): for each output the "model" runs `cat FILE` with its
 * Bash tool, then asks each of that output's questions. Three ways the tool results reach the
 * model, all from the same runs:
 *
 * - raw: the whole output (a host that sends it all, as Codex or Gemini CLI do up to their cut);
 * - claude: what Claude Code 2.1.332 sends by itself (measured with the real binary and a scripted
 *   model): an output over 30,000 characters becomes a <persisted-output> note with its first
 *   2 KB; to answer, the model then greps the saved file (`grep -n -i -E 'words' | head -40`);
 * - pi-sidecar: the Bash call goes through `pi-sidecar hook claude` (the real hook process; the
 *   rewritten command run by bash), then each question is a `context_search` over MCP stdio to a
 *   real `pi-sidecar mcp`.
 *
 * Tokens are o200k (the project's tokenizer) of every tool result the model is sent. A question
 * counts as answered when its answer text is in what the model was sent.
 *
 *   bun bench/hosts/agent-loop.ts [--set holdout|tuning|both]     (uses dist/pi-sidecar; PI_SIDECAR_BIN overrides)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "../../src/tokens/count.ts";
import { loadFixture, loadQuestions, type Question } from "../retrieval/run.ts";

const ROOT = join(import.meta.dir, "../..");
const BIN = process.env.PI_SIDECAR_BIN ?? join(ROOT, "dist/pi-sidecar");
/** Claude Code 2.1.332: Bash output over this many characters is saved to a file and previewed. */
export const CLAUDE_PERSIST_CHARS = 30_000;
const CLAUDE_PREVIEW_BYTES = 2048;

type Set = "holdout" | "tuning";
type Side = { tokens: number; answered: number };
export type LoopResult = {
  set: Set;
  fixtures: number;
  questions: number;
  raw: Side;
  claude: Side & { followUps: number };
  piSidecar: Side & { searches: number; receiptOnly: number; answeredBySearch: number };
  rows: { fixture: string; bytes: number; raw: number; claude: number; piSidecar: number; stored: boolean }[];
};

function bash(command: string, cwd: string, env: Record<string, string>): string {
  const p = Bun.spawnSync(["bash", "-c", command], { cwd, env, stdout: "pipe", stderr: "pipe" });
  return p.stdout.toString() + p.stderr.toString();
}

/** What Claude Code sends for a Bash output by itself. */
export function claudeNative(output: string, savedAs: string): string {
  if (output.length <= CLAUDE_PERSIST_CHARS) return output;
  const preview = Buffer.from(output)
    .subarray(0, CLAUDE_PREVIEW_BYTES)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const kb = (Buffer.byteLength(output) / 1024).toFixed(1);
  return `<persisted-output>\nOutput too large (${kb}KB). Full output saved to: ${savedAs}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
}

function grepFor(query: string, file: string): string {
  const words = query
    .split(/\s+/)
    .filter((w) => w.length >= 3)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("'", "'\\''"));
  const pattern = words.length > 0 ? words.join("|") : query.replaceAll("'", "'\\''");
  return `grep -n -i -E -- '${pattern}' ${file} | head -40`;
}

function fileName(fixture: string): string {
  return fixture.replace(/\.gz$/, "");
}

export async function agentLoop(set: Set): Promise<LoopResult> {
  const scratch = mkdtempSync(join(tmpdir(), "bench-hosts-"));
  const home = join(scratch, "home");
  const project = join(scratch, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = { PATH: process.env.PATH ?? "", HOME: home, PI_SIDECAR_DB: join(home, "sidecar.db"), PI_SIDECAR_SETTLE: "inline" };
  const client = new Client({ name: "bench-claude-like", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BIN, args: ["mcp", "--no-servers"], cwd: project, env, stderr: "ignore" }));
  const questions = loadQuestions(set);
  const fixtures = [...new Set(questions.map((q) => q.fixture))];
  const result: LoopResult = {
    set,
    fixtures: fixtures.length,
    questions: questions.length,
    raw: { tokens: 0, answered: 0 },
    claude: { tokens: 0, answered: 0, followUps: 0 },
    piSidecar: { tokens: 0, answered: 0, searches: 0, receiptOnly: 0, answeredBySearch: 0 },
    rows: [],
  };
  try {
    for (const fixture of fixtures) {
      const name = fileName(fixture);
      const text = loadFixture(fixture, set);
      writeFileSync(join(project, name), text);
      const command = `cat ${name}`;
      const raw = bash(command, project, env);
      const native = claudeNative(raw, join(home, ".claude", "tool-results", `${name}.txt`));
      const hookInput = {
        session_id: `bench-${set}`,
        transcript_path: join(home, "t.jsonl"),
        cwd: project,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command, description: `show ${name}` },
        tool_use_id: `toolu_${name}`,
      };
      const hook = Bun.spawnSync([BIN, "hook", "claude"], {
        stdin: Buffer.from(JSON.stringify(hookInput)),
        env: { ...env, CLAUDE_PROJECT_DIR: project },
      });
      const answer = JSON.parse(hook.stdout.toString() || "null")?.hookSpecificOutput;
      if (answer?.permissionDecision !== "allow") throw new Error(`the hook did not rewrite ${command}: ${hook.stdout}${hook.stderr}`);
      const viaHook = bash(answer.updatedInput.command, project, env);
      const source = /Source (ctx_\w+)/.exec(viaHook)?.[1];
      // Each row's counts grow with the follow-up calls its questions make.
      const row = {
        fixture,
        bytes: Buffer.byteLength(raw),
        raw: countTokens(raw),
        claude: countTokens(native),
        piSidecar: countTokens(viaHook),
        stored: !!source,
      };
      for (const q of questions.filter((x) => x.fixture === fixture))
        await ask(q, { raw, native, viaHook, source, name, project, env, row, result, client });
      result.raw.tokens += row.raw;
      result.claude.tokens += row.claude;
      result.piSidecar.tokens += row.piSidecar;
      result.rows.push(row);
    }
  } finally {
    await client.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return result;
}

type AskContext = {
  raw: string;
  native: string;
  viaHook: string;
  source: string | undefined;
  name: string;
  project: string;
  env: Record<string, string>;
  row: LoopResult["rows"][number];
  result: LoopResult;
  client: Client;
};

async function ask(q: Question, c: AskContext): Promise<void> {
  const want = q.answer.text;
  if (c.raw.includes(want)) c.result.raw.answered++;
  // Claude Code alone: the preview, else a grep of the saved file.
  if (c.native.includes(want)) c.result.claude.answered++;
  else {
    const grep = bash(grepFor(q.query, c.name), c.project, c.env);
    const t = countTokens(grep);
    c.row.claude += t;
    c.result.claude.followUps++;
    if (grep.includes(want)) c.result.claude.answered++;
  }
  // pi-sidecar: the receipt (or the output itself, when small), else context_search.
  if (!c.source) {
    if (c.viaHook.includes(want)) c.result.piSidecar.answered++;
    return;
  }
  if (c.viaHook.includes(want)) {
    c.result.piSidecar.answered++;
    c.result.piSidecar.receiptOnly++;
    return;
  }
  const r = (await c.client.callTool({ name: "context_search", arguments: { query: q.query, source: c.source } })) as {
    content: { type: string; text: string }[];
  };
  const text = r.content.map((b) => b.text).join("\n");
  c.row.piSidecar += countTokens(text);
  c.result.piSidecar.searches++;
  if (text.includes(want)) {
    c.result.piSidecar.answered++;
    c.result.piSidecar.answeredBySearch++;
  }
}

function line(r: LoopResult): string {
  const pct = (n: number) => `${((100 * n) / r.questions).toFixed(0)}%`;
  const k = (n: number) => n.toLocaleString("en-US");
  return [
    `${r.set}: ${r.fixtures} real outputs, ${r.questions} questions`,
    `  raw (whole output sent):       ${k(r.raw.tokens)} tokens, ${r.raw.answered}/${r.questions} answered (${pct(r.raw.answered)})`,
    `  claude 2.1.332 alone:          ${k(r.claude.tokens)} tokens incl. ${r.claude.followUps} grep follow-ups, ${r.claude.answered}/${r.questions} answered (${pct(r.claude.answered)})`,
    `  pi-sidecar (hook + search):    ${k(r.piSidecar.tokens)} tokens incl. ${r.piSidecar.searches} context_search calls, ${r.piSidecar.answered}/${r.questions} answered (${pct(r.piSidecar.answered)}: ${r.piSidecar.receiptOnly} from the receipt, ${r.piSidecar.answeredBySearch} through context_search)`,
  ].join("\n");
}

if (import.meta.main) {
  const arg = process.argv.indexOf("--set");
  const which = arg === -1 ? "both" : process.argv[arg + 1];
  const sets: Set[] = which === "both" ? ["holdout", "tuning"] : [which as Set];
  const results: LoopResult[] = [];
  for (const s of sets) results.push(await agentLoop(s));
  for (const r of results) console.log(line(r));
  if (process.argv.includes("--json")) console.log(JSON.stringify(results, null, 2));
}
