import { installPi, installTarget, mcpSnippets, selfCommand, uninstallPi } from "../../pi/install.ts";
import { type Command, printJson, UsageError } from "../command.ts";

const TARGETS = "pi (the pi extension) or mcp (print the MCP client config)";

export const installCommand: Command = {
  name: "install",
  summary: "make pi load the extension (no npm, no network), or print the config MCP clients need",
  usage: "pi-sidecar install (pi [--project] | mcp)",
  options: { project: { type: "boolean", help: "install into ./.pi/extensions instead of the global agent dir" } },
  async run(ctx) {
    const [what, ...extra] = ctx.positionals;
    if (extra.length > 0) throw new UsageError(`install takes one target, got also ${JSON.stringify(extra[0])}`);
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
  summary: "remove the pi extension that `install pi` wrote",
  usage: "pi-sidecar uninstall pi [--project]",
  options: { project: { type: "boolean", help: "remove it from ./.pi/extensions instead of the global agent dir" } },
  async run(ctx) {
    const [what, ...extra] = ctx.positionals;
    if (what !== "pi" || extra.length > 0) throw new UsageError("uninstall takes one target: pi");
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
