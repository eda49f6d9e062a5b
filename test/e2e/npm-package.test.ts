/**
 * The npm package as a user gets it: `npm pack`, then the tarball installed into an empty prefix
 * (with this machine's platform package beside it, from a local tarball: nothing is published) and
 * into a scratch pi with `pi install npm:pi-sidecar@file:<tarball>`. Everything after packing runs
 * with the network namespace unshared where this machine allows it (root: `unshare -n`), and npm
 * runs with --offline besides, so no step can reach a registry. pi on Bun runs the engine in its
 * own process, which needs oxc's native binding: those runs also hide this checkout's
 * node_modules/@oxc-parser (a private mount namespace), so the binding must come with the install.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writePlatformPackage } from "../../scripts/platform-package.ts";
import { TARGETS } from "../../scripts/release.ts";
import { PLATFORMS, platformName, platformPackage } from "../../src/platforms.ts";
import { cleanupTempDirs, noisyLog, ROOT, tempDir } from "../helpers.ts";
import { PI_CLI, RUNTIMES, writeScript } from "./pi/harness.ts";

const BIN = join(ROOT, "dist", "pi-sidecar");
const FAKE = join(import.meta.dir, "pi", "fake-provider.ts");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const HOST = platformName();
const UNSHARE = Bun.spawnSync(["unshare", "-n", "true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
const OXC_HERE = join(ROOT, "node_modules", "@oxc-parser");
/** Root can hide this checkout's oxc bindings from one process tree (a tmpfs over them in its own mount namespace). */
const CAN_HIDE =
  Bun.spawnSync(["unshare", "-n", "-m", "sh", "-c", `mount -t tmpfs none "${OXC_HERE}"`], { stdout: "ignore", stderr: "ignore" })
    .exitCode === 0;
const BASE_PATH = "/usr/local/bin:/usr/bin:/bin"; // no pi-sidecar on it

let work = "";
let mainTarball = "";
let platformTarball = "";
let bindingTarball = "";
let prefix = "";

/** `cmd` with no network (unshare -n) where this machine allows it. */
function offline(cmd: string[]): string[] {
  return UNSHARE ? ["unshare", "-n", ...cmd] : cmd;
}

/** `cmd` with no network and without this checkout's oxc bindings (only where CAN_HIDE). */
function isolated(cmd: string[]): string[] {
  const quoted = cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return ["unshare", "-n", "-m", "sh", "-c", `mount -t tmpfs none "${OXC_HERE}" && exec ${quoted}`];
}

function run(cmd: string[], env: Record<string, string> = {}, stdin?: string) {
  const r = Bun.spawnSync(cmd, {
    env: { PATH: BASE_PATH, ...env },
    stdin: stdin === undefined ? "ignore" : Buffer.from(stdin),
    stdout: "pipe",
    stderr: "pipe",
    timeout: 300_000,
  });
  return { code: r.exitCode ?? -1, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** npm install of local tarballs into `into`, offline, with a scratch HOME and cache. */
function npmInstall(into: string, tarballs: string[]) {
  const home = tempDir("npm-home-");
  const r = run(offline(["npm", "install", "--prefix", into, "--offline", "--no-audit", "--no-fund", ...tarballs]), {
    HOME: home,
    npm_config_cache: join(home, "cache"),
  });
  if (r.code !== 0) throw new Error(`npm install failed: ${r.stderr}`);
}

/** oxc's name for this machine's binding (glibc on Linux). */
function oxcPlatform(): string {
  return TARGETS[HOST!].oxc.replace("@oxc-parser/binding-", "");
}

beforeAll(async () => {
  if (!existsSync(BIN)) await (await import("../../build.ts")).build(BIN);
  work = tempDir("npm-pack-");
  // --ignore-scripts: `npm test` built dist/ already; prepack would build it again.
  const packed = run(["npm", "pack", "--ignore-scripts", "--json", "--pack-destination", work], { HOME: tempDir() });
  if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  mainTarball = join(work, JSON.parse(packed.stdout)[0].filename);
  if (!HOST) return;
  // This machine's platform package, as scripts/release.ts writes it, packed as npm packs it
  // (a gzipped tar of package/), at gzip's fastest level: the binary is over 100 MB.
  const dir = writePlatformPackage(HOST, BIN, join(work, "platform"));
  platformTarball = join(work, `${platformPackage(HOST)}-${PKG.version}.tgz`);
  const tar = run([
    "sh",
    "-c",
    `tar -C "${dir}/.." -cf - --transform 's,^${platformPackage(HOST)},package,' ${platformPackage(HOST)} | gzip -1 > "${platformTarball}"`,
  ]);
  if (tar.code !== 0) throw new Error(`packing the platform package failed: ${tar.stderr}`);
  // oxc's binding for this machine, as the registry serves it (what npm installs for the optional dependency).
  const binding = run(
    ["npm", "pack", "--ignore-scripts", "--json", "--pack-destination", work, join(OXC_HERE, `binding-${oxcPlatform()}`)],
    {
      HOME: tempDir(),
    },
  );
  if (binding.code !== 0) throw new Error(`npm pack of the oxc binding failed: ${binding.stderr}`);
  bindingTarball = join(work, JSON.parse(binding.stdout)[0].filename);
  prefix = tempDir("npm-prefix-");
  npmInstall(prefix, [platformTarball, mainTarball]);
}, 600_000);
afterAll(cleanupTempDirs);

describe("the npm package", () => {
  test("is publishable: not private, MIT with its LICENSE, a bin, a pi manifest, one optional dependency per platform, nothing run at install", () => {
    expect(PKG.private).toBeUndefined();
    expect(PKG.license).toBe("MIT");
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toStartWith("MIT License");
    expect(PKG.bin).toEqual({ "pi-sidecar": "bin/pi-sidecar.js" });
    expect(PKG.pi).toEqual({ extensions: ["./dist/extension/index.js"] });
    expect(PKG.keywords).toContain("pi-package");
    const oxc = PKG.devDependencies["oxc-parser"];
    expect(PKG.optionalDependencies).toEqual({
      ...Object.fromEntries(PLATFORMS.map((p) => [platformPackage(p), PKG.version])),
      // What the engine requires in pi on Bun, at oxc-parser's version; npm installs the one that fits.
      ...Object.fromEntries(Object.values(TARGETS).map((t) => [t.oxc, oxc])),
      "@oxc-parser/binding-linux-x64-musl": oxc,
      "@oxc-parser/binding-linux-arm64-musl": oxc,
    });
    // Everything the extension and the launcher need is bundled: a user downloads nothing else.
    expect(PKG.dependencies).toBeUndefined();
    for (const script of ["preinstall", "install", "postinstall", "prepare"]) expect(PKG.scripts[script]).toBeUndefined();
  });

  test("the tarball holds exactly what a user needs", () => {
    const list = run(["tar", "-tzf", mainTarball]).stdout.trim().split("\n").sort();
    expect(list).toEqual(
      [
        "LICENSE",
        "README.md",
        "package.json",
        "bin/pi-sidecar.js",
        "dist/extension/index.js",
        "dist/extension/sidecar.cjs",
        "dist/extension/sidecar-bun.cjs",
        "dist/extension/sidecar-bun.cjs.jsc",
        "dist/extension/engine.cjs",
        "dist/extension/engine.cjs.jsc",
        "dist/extension/background-worker.js",
        "dist/extension/tokenizer.cjs",
      ]
        .map((f) => `package/${f}`)
        .sort(),
    );
  });

  test("bin/pi-sidecar.js knows the same platforms and packages as src/platforms.ts", () => {
    const launcher = readFileSync(join(ROOT, "bin", "pi-sidecar.js"), "utf8");
    const table = [...launcher.matchAll(/"(\w+ \w+)": "([\w-]+)"/g)].map((m) => [m[1], m[2]]);
    expect(table.map(([, name]) => name)).toEqual([...PLATFORMS]);
    for (const [node, name] of table) expect(platformName(...(node!.split(" ") as [string, string]))).toBe(name as never);
    expect(launcher).toMatch(/`pi-sidecar-\$\{name\}`/);
  });
});

describe.skipIf(!HOST)("installed from its tarball into an empty prefix", () => {
  test("its pi-sidecar runs this platform's binary, offline: --version, capture, search", () => {
    const bin = join(prefix, "node_modules", ".bin", "pi-sidecar");
    expect(readdirSync(join(prefix, "node_modules")).sort()).toEqual([".bin", ".package-lock.json", "pi-sidecar", platformPackage(HOST!)]);
    const env = { HOME: tempDir() };
    expect(run(offline([bin, "--version"]), env).stdout).toBe(`pi-sidecar ${PKG.version}\n`);
    const uuid = crypto.randomUUID();
    const cap = run(offline([bin, "capture", "--tool", "bash", "--json"]), env, noisyLog(1400, 3, { line: 1200, text: `x KEY=${uuid} y` }));
    expect(cap.code).toBe(0);
    const { sourceId } = JSON.parse(cap.stdout);
    const hit = JSON.parse(run(offline([bin, "search", `KEY=${uuid}`, "--json"]), env).stdout).hits[0];
    expect(hit).toMatchObject({ sourceId });
    expect(hit.text).toContain(`1200: x KEY=${uuid} y`);
    expect(run(offline([bin, "nonsense"]), env).code).toBe(2); // the binary's exit code comes through
  }, 120_000);

  test("the launcher passes SIGTERM on to the binary and leaves no process behind", async () => {
    const bin = join(prefix, "node_modules", ".bin", "pi-sidecar");
    const proc = Bun.spawn([bin, "mcp"], { env: { PATH: BASE_PATH, HOME: tempDir() }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    proc.stdin.write(`${JSON.stringify(init)}\n`);
    proc.stdin.flush();
    const reader = proc.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(first.split("\n")[0]!).id).toBe(1); // the binary answered through the launcher
    const children = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(proc.pid);
        } catch {
          return false;
        }
      });
    expect(children.length).toBe(1);
    proc.kill("SIGTERM");
    await proc.exited;
    expect(existsSync(`/proc/${children[0]}`)).toBe(false);
  }, 120_000);

  test("without its platform package the launcher says which package is missing and what to run", () => {
    const bare = tempDir("npm-bare-");
    npmInstall(bare, [mainTarball]);
    const r = run(offline([join(bare, "node_modules", ".bin", "pi-sidecar"), "--version"]), { HOME: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`optional dependency ${platformPackage(HOST!)}`);
    expect(r.stderr).toContain(`npm install ${platformPackage(HOST!)}`);
  }, 120_000);
});

type Runtime = keyof typeof RUNTIMES;

/** pi headless with the scripted model (`script`'s default export), offline; on Bun, also without this checkout's oxc. */
function pi(runtime: Runtime, agentDir: string, cwd: string, script: string) {
  const args = [RUNTIMES[runtime], PI_CLI, "--no-session", "-e", FAKE, "--provider", "fake", "--model", "fake-1", "-p", "go"];
  const r = Bun.spawnSync(runtime === "bun" ? isolated(args) : offline(args), {
    cwd,
    env: {
      PATH: BASE_PATH,
      HOME: agentDir,
      PI_CODING_AGENT_DIR: agentDir,
      TMPDIR: tempDir(),
      BUN_INSTALL_CACHE_DIR: tempDir(),
      PI_OFFLINE: "1",
      FAKE_SCRIPT: writeScript(script),
      PI_SIDECAR_DEBUG: "1",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 180_000,
  });
  return { stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

/** The agent runs `cat service.log` and answers with what the tool returned. */
function catLog(runtime: Runtime, agentDir: string) {
  const cwd = tempDir("pi-cwd-");
  writeFileSync(join(cwd, "service.log"), noisyLog(1400, 11));
  const script = `export default (ctx) => ctx.lastToolResults.length ? ctx.lastToolResultText : { toolCalls: [{ name: "bash", arguments: { command: "cat service.log" } }] };`;
  return pi(runtime, agentDir, cwd, script);
}

/** In a fresh TS project, the agent asks kota who uses `b` (the first call indexes: the parser runs). */
function kotaUsages(agentDir: string) {
  const cwd = tempDir("pi-kota-");
  const files: Record<string, string> = {
    "package.json": '{"name":"demo"}\n',
    "src/b.ts": "export function b() {\n  return 1;\n}\n",
    "src/c.ts": 'import { b } from "./b";\nexport const c = b();\n',
    ".pi/pi-sidecar.json": '{"kota":{"confirmIndex":false}}\n',
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(cwd, p)), { recursive: true });
    writeFileSync(join(cwd, p), text);
  }
  const script = `export default (ctx) => ctx.lastToolResults.length ? ctx.lastToolResultText : { toolCalls: [{ name: "kota_usages", arguments: { symbol: "b" } }] };`;
  return pi("bun", agentDir, cwd, script);
}

/** pi on Node stores an oversized output through the stdio engine; pi on Bun indexes and answers kota in process. */
function expectLoaded(agent: string): void {
  const node = catLog("node", agent);
  expect(node.stderr).toContain("engine: stdio");
  expect(node.stdout).toContain("[pi-sidecar] bash output");
  if (!CAN_HIDE) return;
  const bun = kotaUsages(agent);
  expect(bun.stderr).toContain("engine: in-process");
  expect(bun.stdout).toContain("usages of b (defined at src/b.ts:1): 2 uses in 1 file");
}

describe.skipIf(!HOST)("in pi", () => {
  test("`pi install npm:pi-sidecar@file:<tarball>` installs the extension; pi loads it offline: on Node it runs the platform package's binary, on Bun the engine parses with the installed binding", () => {
    const agent = join(tempDir("pi-npm-"), "agent");
    const env = {
      HOME: agent,
      PI_CODING_AGENT_DIR: agent,
      PI_OFFLINE: "1",
      npm_config_offline: "true",
      npm_config_cache: join(agent, "..", "cache"),
    };
    // Nothing is published: the optional dependencies for this machine come from their tarballs into pi's npm folder first.
    npmInstall(join(agent, "npm"), [platformTarball, bindingTarball]);
    const install = run(offline([RUNTIMES.node, PI_CLI, "install", `npm:pi-sidecar@file:${mainTarball}`]), env);
    expect(install.code).toBe(0);
    expect(readFileSync(join(agent, "settings.json"), "utf8")).toContain(`npm:pi-sidecar@file:${mainTarball}`);
    expect(existsSync(join(agent, "npm", "node_modules", "pi-sidecar", "dist", "extension", "index.js"))).toBe(true);
    // A receipt on Node: the engine ran, and the only binary it could find is the platform package's
    // (none on PATH, none beside the bundle).
    expectLoaded(agent);
  }, 300_000);

  test("air-gapped: the release binary alone writes the extension and its parser binding (`install pi`); pi loads it with no network, on Node and on Bun", () => {
    const agent = join(tempDir("pi-airgap-"), "agent");
    const install = run(offline([BIN, "install", "pi"]), { HOME: agent, PI_CODING_AGENT_DIR: agent });
    expect(install.code).toBe(0);
    const dir = join(agent, "extensions", "pi-sidecar");
    expect(readdirSync(dir).sort()).toEqual(
      [
        "background-worker.js",
        "engine.cjs",
        "engine.cjs.jsc",
        "index.js",
        "install.json",
        "node_modules",
        "sidecar.cjs",
        "sidecar-bun.cjs",
        "sidecar-bun.cjs.jsc",
        "tokenizer.cjs",
      ].sort(),
    );
    // The files are the build's, byte for byte, taken from inside the binary (the bytecode too); so is the binding.
    for (const f of [
      "index.js",
      "sidecar.cjs",
      "sidecar-bun.cjs",
      "sidecar-bun.cjs.jsc",
      "engine.cjs",
      "engine.cjs.jsc",
      "background-worker.js",
      "tokenizer.cjs",
    ]) {
      expect(readFileSync(join(dir, f))).toEqual(readFileSync(join(ROOT, "dist", "extension", f)));
    }
    const binding = `binding-${oxcPlatform()}`;
    expect(readFileSync(join(dir, "node_modules", "@oxc-parser", binding, `parser.${oxcPlatform()}.node`))).toEqual(
      readFileSync(join(OXC_HERE, binding, `parser.${oxcPlatform()}.node`)),
    );
    expectLoaded(agent);
  }, 300_000);
});
