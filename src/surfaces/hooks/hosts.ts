/**
 * The hook answers, one per host, in each host's documented format. All three rewrite the
 * agent's own shell tool before it runs (rewrite.ts), so its output reaches the model through
 * `pi-sidecar capture --passthrough`:
 *
 * - Claude Code: PreToolUse on `Bash`; `hookSpecificOutput.updatedInput` replaces the whole
 *   input, so every other field (description, timeout) is kept; only commands Claude Code would
 *   run without asking are rewritten (claudeVerdict).
 * - Codex CLI: PreToolUse on `Bash`; Codex applies `updatedInput.command` only beside
 *   `permissionDecision: "allow"` (it rejects a rewrite without it, and `ask`).
 * - Gemini CLI: BeforeTool on `run_shell_command`; `hookSpecificOutput.tool_input` is merged
 *   into the arguments.
 *
 * Anything that is not such a call, or a command that must not be wrapped, gets no answer at all
 * (exit 0, nothing printed): the host runs the call as it was.
 */
import { claudeRules, claudeWouldAllow } from "./claude-permissions.ts";
import { type Wrap, wrapCommand } from "./rewrite.ts";

export const HOOK_HOSTS = ["claude", "codex", "gemini"] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

export type HookContext = { bin: string[]; env: Record<string, string | undefined> };
export type HookAnswer = { output: Record<string, unknown> | null; wrap: Wrap | null };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/**
 * Claude Code applies `updatedInput` only beside `permissionDecision: "allow"`, and its own
 * command checks refuse the wrapped form when the hook leaves the decision to it (both measured
 * on Claude Code 2.1.332). So the rewrite goes out with `allow` only where Claude Code would run
 * the command without asking anyway (claude-permissions.ts); in `bypassPermissions` everything
 * runs, and the rewrite needs no decision. Any other command is left to Claude Code, unchanged.
 */
export function claudeVerdict(input: Json, command: string, project: string, env: Record<string, string | undefined>) {
  if (input.permission_mode === "bypassPermissions") return { rewrite: true, decision: undefined };
  if (claudeWouldAllow(command, project, claudeRules(project, env))) return { rewrite: true, decision: "allow" as const };
  return { rewrite: false, decision: undefined };
}

function wrapFor(command: string, input: Json, projectEnv: string | undefined, ctx: HookContext): Wrap {
  return wrapCommand(command, {
    bin: ctx.bin,
    session: text(input.session_id),
    project: text(projectEnv) ?? text(input.cwd),
  });
}

export function hookAnswer(host: HookHost, input: unknown, ctx: HookContext): HookAnswer {
  if (!isObject(input)) return { output: null, wrap: null };
  const event = input.hook_event_name;
  const toolInput = input.tool_input;
  if (!isObject(toolInput)) return { output: null, wrap: null };
  const command = text(toolInput.command);
  if (!command) return { output: null, wrap: null };
  if (host === "claude") {
    if ((event !== undefined && event !== "PreToolUse") || input.tool_name !== "Bash") return { output: null, wrap: null };
    if (toolInput.run_in_background === true) return { output: null, wrap: { wrapped: false, reason: "it runs in the background" } };
    const wrap = wrapFor(command, input, ctx.env.CLAUDE_PROJECT_DIR, ctx);
    if (!wrap.wrapped) return { output: null, wrap };
    const project = text(ctx.env.CLAUDE_PROJECT_DIR) ?? text(input.cwd) ?? process.cwd();
    const { rewrite, decision } = claudeVerdict(input, command, project, ctx.env);
    if (!rewrite) return { output: null, wrap: { wrapped: false, reason: "Claude Code would ask before running it: left to Claude Code" } };
    return {
      wrap,
      output: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          ...(decision ? { permissionDecision: decision, permissionDecisionReason: "pi-sidecar stores large output" } : {}),
          updatedInput: { ...toolInput, command: wrap.command },
        },
      },
    };
  }
  if (host === "codex") {
    if ((event !== undefined && event !== "PreToolUse") || input.tool_name !== "Bash") return { output: null, wrap: null };
    const wrap = wrapFor(command, input, undefined, ctx);
    if (!wrap.wrapped) return { output: null, wrap };
    return {
      wrap,
      output: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: wrap.command } } },
    };
  }
  if ((event !== undefined && event !== "BeforeTool") || input.tool_name !== "run_shell_command") return { output: null, wrap: null };
  const wrap = wrapFor(command, input, ctx.env.GEMINI_PROJECT_DIR, ctx);
  if (!wrap.wrapped) return { output: null, wrap };
  return { wrap, output: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: wrap.command } } } };
}
