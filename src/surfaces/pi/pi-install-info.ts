/**
 * The pi a user runs, seen from outside it (for `pi-sidecar doctor`): the `pi` command on PATH,
 * its package and version, whether that pi ships MCP support of its own (its built-in `mcp`
 * extension), and whether the user's settings turn that off. Read from files; nothing is run
 * except, for a compiled pi with no package next to it, `pi --help`.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readFileSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

type Env = Record<string, string | undefined>;

export type PiInstallInfo = {
  /** The `pi` found on PATH (or the path given). */
  command: string;
  /** The file it runs, through symlinks. */
  resolved: string;
  /** The package folder (the one with pi's package.json), when there is one. */
  packageDir: string | null;
  version: string | null;
  /** pi's `engines.node`, when its package says. */
  nodeRange: string | null;
  /** This pi has MCP support of its own (pi 1.x: mcp.json, /mcp, tool_search, codemode). */
  builtinMcp: boolean;
};

const PI_PACKAGES = /^@(earendil-works|mariozechner)\/pi-coding-agent$/;

/** The first executable `name` on PATH. */
export function onPath(name: string, env: Env = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Walks up from the file pi runs to the package.json that names pi (a compiled pi keeps a copy next to it). */
function packageOf(file: string): { dir: string; json: Record<string, unknown> } | null {
  let dir = dirname(file);
  for (let i = 0; i < 6; i++) {
    const json = readJson(join(dir, "package.json"));
    if (json && typeof json.name === "string" && PI_PACKAGES.test(json.name)) return { dir, json };
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** Finds pi (`explicit`, else `pi` on PATH) and what it is; null when there is none. */
export function findPiInstall(env: Env = process.env, explicit?: string): PiInstallInfo | null {
  const command = explicit ?? onPath("pi", env);
  if (!command || !existsSync(command)) return null;
  let resolved = command;
  try {
    resolved = realpathSync(command);
  } catch {
    // a dangling link: reported as found, unknown version
  }
  const pkg = packageOf(resolved);
  const engines = pkg?.json.engines as { node?: unknown } | undefined;
  const builtinMcp = pkg
    ? existsSync(join(pkg.dir, "dist", "extensions", "mcp")) || existsSync(join(pkg.dir, "extensions", "mcp"))
    : helpMentionsMcp(command, env);
  return {
    command,
    resolved,
    packageDir: pkg?.dir ?? null,
    version: typeof pkg?.json.version === "string" ? pkg.json.version : null,
    nodeRange: typeof engines?.node === "string" ? engines.node : null,
    builtinMcp,
  };
}

/** A compiled pi: its help lists `--no-mcp` when it has MCP support of its own. */
function helpMentionsMcp(command: string, env: Env): boolean {
  const r = spawnSync(command, ["--help"], { env: { ...env }, encoding: "utf8", timeout: 15_000, stdio: ["ignore", "pipe", "pipe"] });
  return /--no-mcp\b/.test(`${r.stdout ?? ""}${r.stderr ?? ""}`);
}

/**
 * Whether pi's settings switch its built-in `mcp` extension off (`"extensions": ["-builtin:mcp"]`):
 * the project's entry wins over the user's, as in pi. Returns where it was switched off, or null.
 */
export function builtinMcpDisabledBy(agentDir: string, cwd: string): string | null {
  const files = [join(cwd, ".pi", "settings.json"), join(agentDir, "settings.json")];
  for (const file of files) {
    const entries = readJson(file)?.extensions;
    if (!Array.isArray(entries)) continue;
    let verdict: boolean | null = null;
    for (const entry of entries) {
      if (typeof entry !== "string") continue;
      const m = /^([+!-])builtin:(mcp|\*)$/.exec(entry.trim());
      if (m) verdict = m[1] === "+";
    }
    if (verdict !== null) return verdict ? null : file;
  }
  return null;
}
