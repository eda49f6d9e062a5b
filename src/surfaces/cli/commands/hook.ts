/**
 * `pi-sidecar hook claude|codex|gemini`: what the host runs before its shell tool. Reads the
 * hook's JSON on stdin and prints the rewritten call (or nothing: the call runs as it was).
 * It never blocks the agent: bad input, an unknown event or any fault is "no answer", exit 0.
 * `--explain` says on stderr why a command was or was not rewritten.
 */
import { HOOK_HOSTS, type HookHost, hookAnswer } from "../../hooks/hosts.ts";
import { selfCommand } from "../../pi/install.ts";
import { type Command, UsageError } from "../command.ts";

export const hookCommand: Command = {
  name: "hook",
  summary: "the hook an agent host runs before its shell tool: rewrites the call so large output becomes a receipt",
  usage: `pi-sidecar hook (${HOOK_HOSTS.join(" | ")}) [--explain] < hook-input.json`,
  options: { explain: { type: "boolean", help: "say on stderr why the command was or was not rewritten" } },
  async run(ctx) {
    const [host, ...extra] = ctx.positionals;
    if (!HOOK_HOSTS.includes(host as HookHost) || extra.length > 0)
      throw new UsageError(`hook takes one host: ${HOOK_HOSTS.join(", ")} (install it with \`pi-sidecar install HOST\`)`);
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(await ctx.readStdin()));
    } catch {
      if (ctx.values.explain) ctx.err("pi-sidecar hook: the input is not JSON; the call runs as it was\n");
      return 0;
    }
    try {
      const answer = hookAnswer(host as HookHost, input, { bin: selfCommand(), env: ctx.env });
      if (ctx.values.explain)
        ctx.err(
          answer.wrap === null
            ? "pi-sidecar hook: not a shell call this hook handles; it runs as it was\n"
            : answer.wrap.wrapped
              ? "pi-sidecar hook: rewritten\n"
              : `pi-sidecar hook: left alone: ${answer.wrap.reason}\n`,
        );
      if (answer.output) ctx.out(`${JSON.stringify(answer.output)}\n`);
    } catch (error) {
      if (ctx.values.explain) ctx.err(`pi-sidecar hook: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    return 0;
  },
};
