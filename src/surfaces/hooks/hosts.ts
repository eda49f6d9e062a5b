/**
 * The hook answers, one per host, in each host's documented format. All three rewrite the
 * agent's own shell tool before it runs (rewrite.ts), so its output reaches the model through
 * `pi-sidecar capture --passthrough`:
 *
 * - Claude Code: PreToolUse on `Bash`; `hookSpecificOutput.updatedInput` replaces the whole
 *   input, so every other field (description, timeout) is kept.
 * - Codex CLI: PreToolUse on `Bash`; Codex applies `updatedInput.command` only beside
 *   `permissionDecision: "allow"` (it rejects a rewrite without it, and `ask`).
 * - Gemini CLI: BeforeTool on `run_shell_command`; `hookSpecificOutput.tool_input` is merged
 *   into the arguments.
 *
 * Anything that is not such a call, or a command that must not be wrapped, gets no answer at all
 * (exit 0, nothing printed): the host runs the call as it was.
 */
import { type Wrap, wrapCommand } from "./rewrite.ts";

export const HOOK_HOSTS = ["claude", "codex", "gemini"] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

export type HookContext = { bin: string[]; env: Record<string, string | undefined> };
export type HookAnswer = { output: Record<string, unknown> | null; wrap: Wrap | null };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/**
 * Claude Code: the rewrite is applied with `allow` (the documented pairing) only where Claude
 * would not have asked anyway; elsewhere with `ask`, so the person still approves the command
 * (now shown wrapped). `bypassPermissions` sessions get the rewrite with no decision: there a
 * decision makes Claude drop `updatedInput`.
 */
export function claudeDecision(permissionMode: unknown): "allow" | "ask" | undefined {
  if (permissionMode === "bypassPermissions") return undefined;
  if (permissionMode === "acceptEdits" || permissionMode === "dontAsk" || permissionMode === "auto") return "allow";
  return "ask";
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
    const decision = claudeDecision(input.permission_mode);
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
