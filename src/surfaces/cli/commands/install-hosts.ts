/**
 * `install <host>` and `uninstall <host>` for the agent hosts (Claude Code, Codex, Cursor,
 * OpenCode, Gemini CLI): plan the file changes, then print them (`--dry-run`) or apply them with a
 * backup of every file that already existed, and say what to do next.
 */
import { homedir } from "node:os";
import { resolve } from "node:path";
import { AppError } from "../../../errors.ts";
import { type Applied, applyChanges, diffOf, effective } from "../../install/files.ts";
import type { HostSetup } from "../../install/hosts.ts";
import { selfCommand } from "../../pi/install.ts";
import { type CommandContext, printJson } from "../command.ts";

export async function runHostSetup(ctx: CommandContext, host: HostSetup, remove: boolean): Promise<number> {
  const scope = ctx.values.project === true ? "project" : "user";
  const setup = {
    scope,
    project: resolve(ctx.cwd),
    home: ctx.env.HOME || homedir(),
    env: ctx.env,
    bin: selfCommand(),
    hook: ctx.values["no-hook"] !== true,
  } as const;
  let plan: ReturnType<HostSetup["install"]>;
  try {
    plan = remove ? host.uninstall(setup) : host.install(setup);
  } catch (error) {
    if (error instanceof AppError) {
      ctx.err(`pi-sidecar: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const changes = effective(plan.changes);
  const verb = remove ? "uninstall" : "install";
  if (ctx.values["dry-run"] === true) {
    if (ctx.json)
      printJson(ctx, { host: host.name, scope, dryRun: true, changes: changes.map((c) => ({ path: c.path, diff: diffOf(c) })) });
    else
      ctx.out(
        changes.length === 0
          ? `Nothing to change: ${host.label} is ${remove ? "not set up" : "already set up"} (${scope}).\n`
          : `${changes.map(diffOf).join("\n")}\n(dry run: nothing was written; run without --dry-run to ${verb})\n`,
      );
    return 0;
  }
  let applied: Applied[];
  try {
    applied = applyChanges(changes);
  } catch (error) {
    ctx.err(`pi-sidecar: could not write ${host.label}'s files: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if (ctx.json) {
    printJson(ctx, { host: host.name, scope, files: applied, notes: remove ? [] : plan.notes });
    return 0;
  }
  if (applied.length === 0) {
    ctx.out(`Nothing to change: ${host.label} is ${remove ? "not set up" : "already set up"} (${scope}).\n`);
    return 0;
  }
  const lines = [
    `${remove ? "Removed pi-sidecar from" : "Set up pi-sidecar for"} ${host.label} (${scope}):`,
    ...applied.map((a) => `  ${a.action} ${a.path}${a.backup ? ` (backup: ${a.backup})` : ""}`),
  ];
  if (!remove)
    lines.push(
      ...plan.notes.map((n) => `- ${n}`),
      `Undo with: pi-sidecar uninstall ${host.name}${scope === "project" ? " --project" : ""}`,
    );
  ctx.out(`${lines.join("\n")}\n`);
  return 0;
}
