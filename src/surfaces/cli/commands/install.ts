import { HOSTS, hostNamed } from "../../install/hosts.ts";
import { installPi, installTarget, mcpSnippets, selfCommand, uninstallPi } from "../../pi/install.ts";
import { type Command, type OptionSpec, printJson, UsageError } from "../command.ts";
import { runHostSetup } from "./install-hosts.ts";

const HOST_NAMES = HOSTS.map((h) => h.name).join(" | ");
const TARGETS = `pi (the pi extension), ${HOSTS.map((h) => h.name).join(", ")} (an agent host), or mcp (print the MCP client config)`;

const HOST_OPTIONS: Record<string, OptionSpec> = {
  "dry-run": { type: "boolean", help: "print the changes as a diff and write nothing (hosts)" },
  "no-hook": { type: "boolean", help: "only the MCP server and instructions, no hook or plugin (hosts)" },
};

export const installCommand: Command = {
  name: "install",
  summary: "set pi-sidecar up in pi or an agent host (claude, codex, cursor, opencode, gemini)",
  usage: `pi-sidecar install (pi [--project] | ${HOST_NAMES} [--project] [--dry-run] [--no-hook] | mcp)`,
  options: {
    project: { type: "boolean", help: "this project's files (./.pi/extensions, ./.mcp.json, ...) instead of the user's" },
    ...HOST_OPTIONS,
  },
  async run(ctx) {
    const [what, ...extra] = ctx.positionals;
    if (extra.length > 0) throw new UsageError(`install takes one target, got also ${JSON.stringify(extra[0])}`);
    const host = hostNamed(what);
    if (host) return runHostSetup(ctx, host, false);
    if (ctx.values["dry-run"] === true || ctx.values["no-hook"] === true)
      throw new UsageError(`--dry-run and --no-hook go with an agent host: ${HOSTS.map((h) => h.name).join(", ")}`);
    if (what === "mcp") {
      if (ctx.json) printJson(ctx, { command: selfCommand(), args: ["mcp"] });
      else ctx.out(mcpSnippets(selfCommand()));
      return 0;
    }
    if (what !== "pi") throw new UsageError(`install needs a target: ${TARGETS}`);
    const target = installTarget(ctx.values.project === true, process.cwd(), ctx.env);
    const result = await installPi(target);
    if (!result.ok) {
      ctx.err(`pi-sidecar: ${result.message}\n`);
      return 1;
    }
    if (ctx.json) {
      printJson(ctx, { dir: target.dir, scope: target.scope, files: result.files, command: result.command });
      return 0;
    }
    ctx.out(
      [
        `Installed the pi extension (${target.scope}) in ${target.dir}:`,
        ...result.files.map((f) => `  ${f}`),
        `It uses this pi-sidecar: ${result.command.join(" ")}`,
        `Database: ${ctx.loaded.config.db}`,
        target.scope === "project"
          ? "pi loads project extensions once you trust the project (in -p mode pass -a). Check with: pi -p /context-stats"
          : "pi loads it on its next start. Check with: pi -p /context-stats",
        `Undo with: pi-sidecar uninstall pi${target.scope === "project" ? " --project" : ""}`,
        "",
      ].join("\n"),
    );
    return 0;
  },
};

export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "take out what `install` wrote (pi or an agent host)",
  usage: `pi-sidecar uninstall (pi | ${HOST_NAMES}) [--project] [--dry-run]`,
  options: {
    project: { type: "boolean", help: "this project's files instead of the user's" },
    "dry-run": HOST_OPTIONS["dry-run"]!,
  },
  async run(ctx) {
    const [what, ...extra] = ctx.positionals;
    const host = extra.length === 0 ? hostNamed(what) : undefined;
    if (host) return runHostSetup(ctx, host, true);
    if (ctx.values["dry-run"] === true) throw new UsageError(`--dry-run goes with an agent host: ${HOSTS.map((h) => h.name).join(", ")}`);
    if (what !== "pi" || extra.length > 0) throw new UsageError(`uninstall takes one target: pi, ${HOSTS.map((h) => h.name).join(", ")}`);
    const target = installTarget(ctx.values.project === true, process.cwd(), ctx.env);
    const result = uninstallPi(target);
    if (!result.ok) {
      ctx.err(`pi-sidecar: ${result.message}\n`);
      return 1;
    }
    if (ctx.json) printJson(ctx, { removed: result.removed });
    else
      ctx.out(
        result.removed
          ? `Removed ${result.removed}. The database is kept: ${ctx.loaded.config.db}\n`
          : `Nothing to remove: ${target.dir} does not exist.\n`,
      );
    return 0;
  },
};
