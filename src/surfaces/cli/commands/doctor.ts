import { spawnSync } from "node:child_process";
import { agentDir } from "../../../paths.ts";
import { type Command, pathOption, printJson, UsageError } from "../command.ts";
import { type Check, runDoctor } from "../doctor-checks.ts";

function nodeVersion(node: string): string | null {
  const r = spawnSync(node, ["--version"], { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
  return r.status === 0 ? r.stdout.trim() : null;
}

function format(checks: Check[]): string {
  const lines = checks.flatMap((c) => [
    `${c.status.padEnd(5)} ${c.id.padEnd(20)} ${c.summary}`,
    ...(c.fix ? [`${"".padEnd(26)} fix: ${c.fix}`] : []),
  ]);
  const fails = checks.filter((c) => c.status === "fail").length;
  const warns = checks.filter((c) => c.status === "warn").length;
  const verdict =
    fails + warns === 0
      ? "Everything looks right."
      : `${fails} problem${fails === 1 ? "" : "s"}, ${warns} warning${warns === 1 ? "" : "s"}.`;
  return `${lines.join("\n")}\n${verdict}\n`;
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check the setup: this binary, the database, the pi extension, pi and its MCP, the code index, a browser",
  usage: "pi-sidecar doctor [--pi PATH] [--json]",
  options: { pi: { type: "string", help: "the pi to look at (default: `pi` on PATH)", value: "PATH" } },
  async run(ctx) {
    if (ctx.positionals.length > 0) throw new UsageError(`doctor takes no arguments (got ${JSON.stringify(ctx.positionals[0])})`);
    const checks = await runDoctor(
      { config: ctx.loaded.config, env: ctx.env, cwd: ctx.cwd, agentDir: agentDir(ctx.env), pi: pathOption(ctx.values.pi) },
      nodeVersion,
    );
    const code = checks.some((c) => c.status === "fail") ? 1 : 0;
    if (ctx.json) printJson(ctx, { ok: code === 0, checks });
    else ctx.out(format(checks));
    return code;
  },
};
