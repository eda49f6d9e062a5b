/**
 * What `pi-sidecar doctor` looks at, one check each: this binary, the database, the installed pi
 * extension against this binary, the pi on PATH (its version, its own MCP support and whether it
 * is on), the code-index backend, and a browser for the web page. Every problem carries the
 * command that fixes it. Nothing is written: the database is opened read-only, pi is not run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import { errorMessage } from "../../errors.ts";
import { formatBytes } from "../../units.ts";
import { VERSION } from "../../version.ts";
import { createWebViewer } from "../../web-viewer.ts";
import { installTarget, MARKER, selfCommand } from "../pi/install.ts";
import { builtinMcpDisabledBy, findPiInstall, onPath, type PiInstallInfo } from "../pi/pi-install-info.ts";

type Env = Record<string, string | undefined>;

export type CheckStatus = "ok" | "warn" | "fail";
/** `data`: the facts behind the summary, for `--json`. */
export type Check = { id: string; status: CheckStatus; summary: string; fix?: string; data?: Record<string, unknown> };

export type DoctorInput = { config: Readonly<Config>; env: Env; cwd: string; agentDir: string; pi?: string };

const ok = (id: string, summary: string): Check => ({ id, status: "ok", summary });
const warn = (id: string, summary: string, fix?: string): Check => ({ id, status: "warn", summary, ...(fix ? { fix } : {}) });
const failed = (id: string, summary: string, fix?: string): Check => ({ id, status: "fail", summary, ...(fix ? { fix } : {}) });
const withData = (check: Check, data: Record<string, unknown>): Check => ({ ...check, data });

export function checkBinary(): Check {
  const command = selfCommand();
  return withData(ok("binary", `pi-sidecar ${VERSION}: ${command.join(" ")}`), { version: VERSION, command });
}

export async function checkDatabase(config: Readonly<Config>): Promise<Check> {
  const path = config.db;
  if (!existsSync(path))
    return withData(ok("database", `${path} does not exist yet: pi-sidecar creates it with the first stored output`), {
      path,
      exists: false,
    });
  const viewer = createWebViewer({ config });
  try {
    const stats = await viewer.stats();
    const size = stats.database.fileBytes + stats.database.walBytes;
    return withData(ok("database", `${path}: ${stats.totals.captures} stored outputs, ${formatBytes(size)} on disk`), {
      path,
      exists: true,
      storedOutputs: stats.totals.captures,
      bytes: size,
    });
  } catch (error) {
    const message = errorMessage(error);
    if (/older pi-sidecar/.test(message))
      return withData(warn("database", message, `pi-sidecar --db "${path}" stats`), { path, exists: true });
    return withData(failed("database", message, `mv "${path}" "${path}.bad"   # pi-sidecar then starts a fresh store`), {
      path,
      exists: true,
    });
  } finally {
    await viewer.close().catch(() => {});
  }
}

/** Where this binary keeps the extension's files, by name; null in a checkout that was never built. */
async function embeddedFiles(): Promise<Readonly<Record<string, string>> | null> {
  try {
    return (await import("../pi/extension-files.ts")).EXTENSION_FILES;
  } catch {
    return null;
  }
}

function installed(dir: string): { version: string | null; binary: string | null } | null {
  if (!existsSync(join(dir, MARKER))) return null;
  try {
    const m = JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as { version?: unknown; binary?: unknown };
    return { version: typeof m.version === "string" ? m.version : null, binary: typeof m.binary === "string" ? m.binary : null };
  } catch {
    return { version: null, binary: null };
  }
}

/** `current`: the installed files are this binary's; `installed`: pi-sidecar wrote that folder. */
export type ExtensionState = { check: Check; current: boolean; installed: boolean };

/** The extension in the global agent dir and in this project, against this binary's own files. */
export async function checkExtension(input: DoctorInput): Promise<ExtensionState[]> {
  const files = await embeddedFiles();
  const states: ExtensionState[] = [];
  for (const project of [false, true]) {
    const target = installTarget(project, input.cwd, input.env);
    const fix = `pi-sidecar install pi${project ? " --project" : ""}`;
    if (!existsSync(target.dir)) continue;
    const id = project ? "extension (project)" : "extension";
    const m = installed(target.dir);
    const data = { dir: target.dir, scope: target.scope, version: m?.version ?? null, binary: m?.binary ?? null };
    if (!m) {
      states.push({
        check: withData(warn(id, `${target.dir} exists but was not written by pi-sidecar (no ${MARKER})`), data),
        current: false,
        installed: false,
      });
      continue;
    }
    // Each entry names where this binary keeps that file's bytes.
    const same = files !== null && Object.entries(files).every(([name, path]) => readText(join(target.dir, name)) === readText(path));
    if (m.binary && !existsSync(m.binary)) {
      states.push({
        check: withData(failed(id, `${target.dir} runs ${m.binary}, which is gone`, fix), { ...data, current: same }),
        current: same,
        installed: true,
      });
    } else if (!same) {
      const what =
        m.version === VERSION ? "differ from this binary's" : `are pi-sidecar ${m.version ?? "(unknown)"}, this binary is ${VERSION}`;
      states.push({
        check: withData(warn(id, `the extension files in ${target.dir} ${what}`, fix), { ...data, current: false }),
        current: false,
        installed: true,
      });
    } else {
      states.push({
        check: withData(ok(id, `pi-sidecar ${VERSION} in ${target.dir}, the same files as this binary`), { ...data, current: true }),
        current: true,
        installed: true,
      });
    }
  }
  if (states.length === 0) {
    const dir = installTarget(false, input.cwd, input.env).dir;
    const check = warn("extension", `not installed: pi does not load pi-sidecar (looked in ${dir})`, "pi-sidecar install pi");
    states.push({ check: withData(check, { dir, installed: false }), current: false, installed: false });
  }
  return states;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** `>=22.19.0` -> [22, 19, 0]; anything else null. */
function minimum(range: string | null): number[] | null {
  const m = range ? /^\s*>=\s*(\d+)\.(\d+)(?:\.(\d+))?\s*$/.exec(range) : null;
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

function below(version: number[], min: number[]): boolean {
  for (let i = 0; i < 3; i++) if ((version[i] ?? 0) !== (min[i] ?? 0)) return (version[i] ?? 0) < (min[i] ?? 0);
  return false;
}

export function checkPi(info: PiInstallInfo | null, env: Env, nodeVersion: (node: string) => string | null): Check {
  const check = piCheck(info, env, nodeVersion);
  return info
    ? withData(check, { command: info.command, packageDir: info.packageDir, version: info.version, builtinMcp: info.builtinMcp })
    : check;
}

function piCheck(info: PiInstallInfo | null, env: Env, nodeVersion: (node: string) => string | null): Check {
  if (!info) return warn("pi", "no `pi` on PATH", "npm install -g @earendil-works/pi-coding-agent");
  const where = info.packageDir ?? info.resolved;
  if (!info.version) return warn("pi", `pi at ${info.command} (${where}): its version is unknown`);
  const min = minimum(info.nodeRange);
  const node = onPath("node", env);
  const nodeV = node ? nodeVersion(node) : null;
  const parsed = nodeV ? nodeV.replace(/^v/, "").split(".").map(Number) : null;
  if (min && parsed && below(parsed, min)) {
    return warn(
      "pi",
      `pi ${info.version} at ${info.command} needs Node ${info.nodeRange}; \`node\` on PATH is ${nodeV}`,
      `install Node ${min.join(".")} or newer, or run pi with Bun: bun ${info.resolved}`,
    );
  }
  return ok("pi", `pi ${info.version} at ${info.command} (${where})`);
}

/** pi's own MCP support: there or not, switched on or off, and whether pi-sidecar's gateway runs beside it. */
export function checkMcp(info: PiInstallInfo | null, input: DoctorInput, extension: ExtensionState[]): Check {
  const disabledBy = info?.builtinMcp ? builtinMcpDisabledBy(input.agentDir, input.cwd) : null;
  const inPi = input.config.mcp.enabled ? input.config.mcp.inPi : "off";
  const builtinActive = Boolean(info?.builtinMcp) && !disabledBy;
  const gateway = inPi === "on" || (inPi === "auto" && !info?.builtinMcp);
  return withData(mcpCheck(info, input, extension, disabledBy), {
    builtin: info?.builtinMcp ?? null,
    builtinActive,
    disabledBy,
    gateway,
    inPi,
  });
}

function mcpCheck(info: PiInstallInfo | null, input: DoctorInput, extension: ExtensionState[], disabledBy: string | null): Check {
  const inPi = input.config.mcp.enabled ? input.config.mcp.inPi : "off";
  if (!info) return ok("mcp", `pi not found; pi-sidecar's gateway runs where pi has no MCP of its own (mcp.inPi ${inPi})`);
  if (!info.builtinMcp) {
    const gateway = inPi === "off" ? "off (mcp.inPi off)" : "on: mcp.json's servers behind its catalog (/sidecar mcp)";
    return ok("mcp", `pi ${info.version ?? "?"} has no MCP support of its own; pi-sidecar's gateway is ${gateway}`);
  }
  const stale = extension.some((e) => e.installed && !e.current);
  if (disabledBy) {
    if (inPi === "on") return ok("mcp", `pi's built-in MCP is off (${disabledBy}); pi-sidecar's gateway serves mcp.json (mcp.inPi on)`);
    return warn(
      "mcp",
      `pi's built-in MCP is switched off in ${disabledBy} and pi-sidecar's gateway is off in pi (mcp.inPi ${inPi}): nothing connects mcp.json's servers`,
      `remove "-builtin:mcp" from "extensions" in ${disabledBy}, or set "mcp": {"inPi": "on"} in ${join(input.agentDir, "pi-sidecar.json")}`,
    );
  }
  if (inPi === "on")
    return warn(
      "mcp",
      "pi's built-in MCP is active and pi-sidecar's gateway too (mcp.inPi on): both start the servers in mcp.json",
      `add "-builtin:mcp" to "extensions" in ${join(input.agentDir, "settings.json")}, or set mcp.inPi to auto`,
    );
  if (stale)
    return warn(
      "mcp",
      "pi's built-in MCP is there, but the installed extension is not this binary's: an older one registers /mcp, which switches pi's MCP off",
      "pi-sidecar install pi",
    );
  const stores = extension.some((e) => e.current) ? "; pi-sidecar stores its large results" : "";
  return ok("mcp", `pi's built-in MCP is active (mcp.json, /mcp, tool_search, codemode)${stores}`);
}

export function checkCodeIndex(config: Readonly<Config>, env: Env): Check {
  return withData(codeIndexCheck(config, env), { backend: config.kota.backend });
}

function codeIndexCheck(config: Readonly<Config>, env: Env): Check {
  if (config.kota.backend === "builtin") return ok("code-index", "built-in index (in this binary, offline)");
  const command = config.kota.command;
  const found = command.includes("/") ? (existsSync(command) ? command : null) : onPath(command, env);
  if (!found && command !== "bun")
    return failed(
      "code-index",
      `kota.backend kotadb runs \`${command}\`, which is not on PATH`,
      "set kota.backend to builtin, or kota.command to KotaDB's path",
    );
  const how = found ? `\`${command}\` (${found})` : "this binary standing in for bun (no bun on PATH)";
  return ok(
    "code-index",
    `KotaDB through ${how}; \`bun x kotadb@next\` is fetched from the registry on first use (offline: kota.backend builtin)`,
  );
}

const CHROMIUMS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export function checkBrowser(env: Env, platform = process.platform): Check {
  const chromium = env.PI_SIDECAR_CHROMIUM || CHROMIUMS.map((n) => onPath(n, env)).find(Boolean) || null;
  const opener = platform === "darwin" || platform === "win32" ? "system" : onPath("xdg-open", env);
  return withData(browserCheck(env, platform), { chromium, opener });
}

function browserCheck(env: Env, platform: string): Check {
  const configured = env.PI_SIDECAR_CHROMIUM;
  if (configured) {
    return existsSync(configured)
      ? ok("browser", `Chromium for the page: ${configured} (PI_SIDECAR_CHROMIUM)`)
      : failed("browser", `PI_SIDECAR_CHROMIUM=${configured} does not exist`, "unset PI_SIDECAR_CHROMIUM or point it at a Chromium");
  }
  const chromium = CHROMIUMS.map((n) => onPath(n, env)).find(Boolean);
  const opener = platform === "darwin" || platform === "win32" ? "the system's" : onPath("xdg-open", env) ? "xdg-open" : null;
  if (chromium) return ok("browser", `Chromium for the page: ${chromium}${opener ? `; \`web --open\` uses ${opener}` : ""}`);
  if (opener) return ok("browser", `no Chromium on PATH; \`pi-sidecar web --open\` opens the page with ${opener} (any browser works)`);
  return warn(
    "browser",
    "no Chromium and no xdg-open: `pi-sidecar web` prints the page's URL, open it in any browser yourself",
    platform === "linux" ? "sudo apt-get install chromium   # or: xdg-utils for --open" : undefined,
  );
}

export async function runDoctor(input: DoctorInput, nodeVersion: (node: string) => string | null): Promise<Check[]> {
  const info = findPiInstall(input.env, input.pi);
  const extension = await checkExtension(input);
  return [
    checkBinary(),
    await checkDatabase(input.config),
    ...extension.map((e) => e.check),
    checkPi(info, input.env, nodeVersion),
    checkMcp(info, input, extension),
    checkCodeIndex(input.config, input.env),
    checkBrowser(input.env),
  ];
}
