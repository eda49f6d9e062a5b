/**
 * `pi-sidecar install pi`: writes the extension where pi discovers extensions, pointing at this
 * binary, with no npm and no network. `uninstall pi` removes exactly what install wrote.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fail, type Result } from "../../errors.ts";
import { agentDir } from "../../paths.ts";
import { VERSION } from "../../version.ts";
import { embeddedRoot, writeParserBindings } from "./parser-binding.ts";

export const MARKER = "install.json";

export type InstallTarget = { dir: string; scope: "global" | "project" };

export function installTarget(project: boolean, cwd: string, env: Record<string, string | undefined>): InstallTarget {
  return project
    ? { dir: join(resolve(cwd), ".pi", "extensions", "pi-sidecar"), scope: "project" }
    : { dir: join(agentDir(env), "extensions", "pi-sidecar"), scope: "global" };
}

/** How to run this pi-sidecar again: the compiled binary itself, or bun + src/main.ts in a checkout. */
export function selfCommand(): string[] {
  const main = process.argv[1];
  const compiled = !main || embeddedRoot(main) !== null || resolve(main) === resolve(process.execPath);
  return compiled ? [process.execPath] : [process.execPath, resolve(main)];
}

export async function installPi(target: InstallTarget): Promise<Result<{ files: string[]; command: string[] }>> {
  let files: Readonly<Record<string, string>>;
  try {
    files = (await import("./extension-files.ts")).EXTENSION_FILES;
  } catch {
    return fail(
      "NOT_BUILT",
      "The extension bundles are missing from this checkout: run `npm run build` (or use the compiled dist/pi-sidecar) and try again.",
    );
  }
  const marker = join(target.dir, MARKER);
  if (existsSync(target.dir) && !existsSync(marker)) {
    return fail("EXISTS", `${target.dir} exists and was not written by pi-sidecar; move it away first.`);
  }
  mkdirSync(target.dir, { recursive: true });
  const written: string[] = [];
  for (const [name, path] of Object.entries(files)) {
    writeFileSync(join(target.dir, name), readFileSync(path));
    written.push(join(target.dir, name));
  }
  written.push(...writeParserBindings(target.dir));
  const command = selfCommand();
  writeFileSync(
    marker,
    `${JSON.stringify({ version: VERSION, binary: command[0], command, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  written.push(marker);
  return { ok: true, files: written, command };
}

export function uninstallPi(target: InstallTarget): Result<{ removed: string | null }> {
  if (!existsSync(target.dir)) return { ok: true, removed: null };
  const marker = join(target.dir, MARKER);
  if (!existsSync(marker)) return fail("NOT_OURS", `${target.dir} was not written by pi-sidecar (no ${MARKER}); leaving it alone.`);
  try {
    JSON.parse(readFileSync(marker, "utf8"));
  } catch {
    return fail("NOT_OURS", `${marker} is not pi-sidecar's; leaving ${target.dir} alone.`);
  }
  rmSync(target.dir, { recursive: true, force: true });
  return { ok: true, removed: target.dir };
}

export function mcpSnippets(command: string[]): string {
  const [cmd, ...rest] = command;
  const args = [...rest, "mcp"];
  const json = JSON.stringify({ mcpServers: { "pi-sidecar": { command: cmd, args } } }, null, 2);
  const shell = [cmd, ...args].map((a) => (/[\s"'$]/.test(a!) ? JSON.stringify(a) : a)).join(" ");
  return [
    "pi-sidecar as an MCP server (stdio). Add it to your client:",
    "",
    "Claude Code:",
    `  claude mcp add pi-sidecar -- ${shell}`,
    "",
    "Cursor (.cursor/mcp.json), Claude Desktop, and other clients that read mcpServers JSON:",
    json
      .split("\n")
      .map((l) => `  ${l}`)
      .join("\n"),
    "",
    "Codex (~/.codex/config.toml):",
    "  [mcp_servers.pi-sidecar]",
    `  command = ${JSON.stringify(cmd)}`,
    `  args = ${JSON.stringify(args)}`,
    "",
    "Tools: context_index (store a big file or text), context_search, context_get, context_stats, context_purge.",
    "",
  ].join("\n");
}
