/**
 * The kotadb backend's process against the real KotaDB (the vendored snapshot, installed once under
 * .bench/kotadb/): it dies with ours even when we, or our whole process group, are killed with
 * SIGKILL, restarts after a crash, and says clearly when it cannot start. Its answers are held to
 * the contract by contract.test.ts, beside the built-in index's.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawn as spawnNode } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import type { KotaDbLaunch } from "../../src/kota/kotadb/launch.ts";
import { spawnKotaDb } from "../../src/kota/kotadb/server.ts";
import { createKotaService } from "../../src/kota/service.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";
import { installKotaDb } from "./kotadb-install.ts";

afterAll(cleanupTempDirs);

const install = installKotaDb();
const skip = "skip" in install ? install.skip : null;
if (skip) console.log(`kotadb tests skipped: ${skip}`);
const cli = "cli" in install ? install.cli : "";

const REPO = {
  "src/a.ts": 'import { b } from "./b";\nexport function a() {\n  return b() + 1;\n}\n',
  "src/b.ts": "export function b() {\n  return 1;\n}\n",
  "src/c.ts": 'import { a } from "./a";\nexport const c = a();\n',
  "src/a.test.ts": 'import { a } from "./a";\nconsole.log(a());\n',
};

function kotadbConfig(over: Record<string, unknown> = {}) {
  const base = defaultConfig({ HOME: tempDir() }).kota;
  return { kota: { ...base, backend: "kotadb" as const, command: process.execPath, args: [cli, "--stdio", "--toolset", "core"], ...over } };
}

/** Every process below `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of Bun.spawnSync(["ps", "-e", "-o", "pid=,ppid="]).stdout.toString().trim().split("\n")) {
    const [c, p] = line.trim().split(/\s+/).map(Number);
    children.set(p!, [...(children.get(p!) ?? []), c!]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
};

/** Reads a child's stdout until `done` says the text so far is enough. */
async function readUntil(stream: ReadableStream<Uint8Array>, done: (text: string) => boolean): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let out = "";
  while (!done(out)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    out += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return out;
}

/** Kills `parent` with SIGKILL and waits (15 s at most) for every process that was below it to be gone. */
async function killAndWatch(parent: ReturnType<typeof Bun.spawn>, family: number[]): Promise<number[]> {
  expect(family.every(alive)).toBe(true);
  parent.kill("SIGKILL");
  await parent.exited;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && family.some(alive)) await Bun.sleep(100);
  return family.filter(alive);
}

const BIN = join(import.meta.dir, "../../dist/pi-sidecar");

describe.skipIf(skip !== null)("kotadb backend (real KotaDB)", () => {
  test("KotaDB dies with its parent, even when the parent is killed with SIGKILL", async () => {
    const root = writeRepo(REPO);
    const parent = Bun.spawn(
      [process.execPath, join(import.meta.dir, "kotadb-parent.ts"), cli, root, join(tempDir("kota-orphan-"), "s.db")],
      {
        stdout: "pipe",
        stderr: "inherit",
      },
    );
    const printed = JSON.parse(await readUntil(parent.stdout, (t) => t.includes("\n"))) as { pid: number | null; error?: string };
    expect(printed.error).toBeUndefined();
    const family = descendants(parent.pid);
    expect(family).toContain(printed.pid!);
    // The watchdog and KotaDB (with bun x or not, at least two processes) are running.
    expect(family.length).toBeGreaterThanOrEqual(2);
    expect(await killAndWatch(parent, family)).toEqual([]);
  }, 120_000);

  test("KotaDB dies when its parent's whole process group is killed with SIGKILL (the watchdog with it)", async () => {
    const root = writeRepo(REPO);
    // The parent leads a process group of its own, as a shell job or a supervised service does.
    const parent = spawnNode(
      process.execPath,
      [join(import.meta.dir, "kotadb-parent.ts"), cli, root, join(tempDir("kota-group-"), "s.db")],
      { detached: true, stdio: ["ignore", "pipe", "inherit"] },
    );
    const line = await new Promise<string>((done) => {
      let text = "";
      parent.stdout!.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("\n")) done(text);
      });
      parent.on("exit", () => done(text || '{"pid":null,"error":"the parent exited"}'));
    });
    const printed = JSON.parse(line) as { pid: number | null; error?: string };
    expect(printed.error).toBeUndefined();
    const family = descendants(parent.pid!);
    // The watchdog (in the parent's group), the guard and KotaDB (in a group of their own).
    expect(family.length).toBeGreaterThanOrEqual(3);
    expect(family.every(alive)).toBe(true);
    process.kill(-parent.pid!, "SIGKILL");
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && family.some(alive)) await Bun.sleep(100);
    expect(family.filter(alive)).toEqual([]);
  }, 120_000);

  test("`pi-sidecar mcp` killed with SIGKILL after kota_index takes KotaDB with it", async () => {
    const root = writeRepo(REPO);
    const home = tempDir("kota-mcp-home-");
    // kota.command and kota.args may only come from the global file.
    writeFileSync(
      join(home, "pi-sidecar.json"),
      JSON.stringify({
        kota: { backend: "kotadb", confirmIndex: false, command: process.execPath, args: [cli, "--stdio", "--toolset", "core"] },
      }),
    );
    // The compiled binary when built (its watchdog is the binary in a helper role), else the same code from source.
    const command = existsSync(BIN) ? [BIN, "mcp"] : [process.execPath, join(import.meta.dir, "../../src/main.ts"), "mcp"];
    console.log(`mcp orphan test runs: ${command.join(" ")}`);
    mkdirSync(join(home, "tmp"));
    const mcp = Bun.spawn(command, {
      cwd: root,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: home, TMPDIR: join(home, "tmp") },
    });
    const send = (msg: object) => {
      mcp.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
      mcp.stdin.flush();
    };
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/call", params: { name: "kota_index", arguments: { path: root } } });
    const out = await readUntil(mcp.stdout, (t) => t.includes('"id":2'));
    const reply = out.split("\n").find((l) => l.includes('"id":2'));
    expect(reply).toBeDefined();
    const result = JSON.parse(reply!).result as { content: { text: string }[]; isError?: boolean };
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]!.text).toContain("4 files");
    const family = descendants(mcp.pid);
    // The watchdog and KotaDB under the MCP server.
    expect(family.length).toBeGreaterThanOrEqual(2);
    expect(await killAndWatch(mcp, family)).toEqual([]);
  }, 120_000);

  test("a crashed KotaDB is started again on the next call", async () => {
    const root = writeRepo(REPO);
    const svc = createKotaService({ dbPath: join(tempDir("kota-crash-"), "sidecar.db"), config: kotadbConfig() });
    ok(await svc.handle({ op: "index", repo: root }));
    const s1 = ok(await svc.handle({ op: "status", repo: root }));
    const watchdog = (s1.op === "status" && s1.result.server?.pid) || 0;
    const kotadb = descendants(watchdog);
    expect(kotadb.length).toBeGreaterThan(0);
    for (const pid of kotadb) process.kill(pid, "SIGKILL");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && alive(watchdog)) await Bun.sleep(50);
    await Bun.sleep(100);
    const crashed = ok(await svc.handle({ op: "deps", repo: root, file: "src/a.ts" }));
    expect(crashed.op === "deps" && crashed.result.dependencies.direct).toEqual(["src/b.ts"]);
    const s2 = ok(await svc.handle({ op: "status", repo: root }));
    expect(s2.op === "status" && s2.result.server).toMatchObject({ state: "running", restarts: 1 });
    await svc.close();
  }, 120_000);
});

describe("kotadb backend that cannot start", () => {
  test("no bun on PATH: our runtime stands in; an unreachable package says so and how to switch to builtin", async () => {
    const launches: KotaDbLaunch[] = [];
    const dir = tempDir("kota-nobun-");
    const svc = createKotaService({
      dbPath: join(dir, "sidecar.db"),
      config: { kota: { ...defaultConfig({ HOME: tempDir() }).kota, backend: "kotadb" } },
      spawn: (launch) => {
        launches.push(launch);
        // A PATH without bun (whatever this machine has).
        return spawnKotaDb({ ...launch, env: { ...launch.env, PATH: "/usr/bin:/bin" } });
      },
    });
    const root = writeRepo(REPO);
    const r = await svc.handle({ op: "index", repo: root });
    expect(r.ok ? "" : r.code).toBe("BACKEND_UNAVAILABLE");
    const message = r.ok ? "" : r.message;
    expect(message).toContain("KotaDB could not start (`bun x kotadb@next --stdio --toolset core`");
    expect(message).toContain('set "kota": {"backend": "builtin"}');
    expect(message).toContain("PI_SIDECAR_KOTA_BACKEND=builtin");
    if (!Bun.which("bun")) {
      expect(message).toContain("The package registry did not serve kotadb");
      expect(JSON.parse(launches[0]!.env.PI_SIDECAR_KOTA_CMD!)).toEqual([
        process.execPath,
        "x",
        "kotadb@next",
        "--stdio",
        "--toolset",
        "core",
      ]);
    }
    // The watchdog is this program in its helper role (from a checkout: bun with the helper entry).
    expect(launches[0]).toMatchObject({ command: process.execPath, cwd: root, env: { PI_SIDECAR_HELPER: "kotadb-watchdog" } });
    // KotaDB's database sits beside ours, not in the repository.
    expect(launches[0]!.env.KOTADB_PATH).toStartWith(join(dir, "kotadb/"));
    await svc.close();
  }, 60_000);

  test("a command that does not exist is named in the answer", async () => {
    const svc = createKotaService({
      dbPath: join(tempDir("kota-nocmd-"), "sidecar.db"),
      config: { kota: { ...defaultConfig({ HOME: tempDir() }).kota, backend: "kotadb", command: "/nonexistent/kotadb" } },
    });
    const r = await svc.handle({ op: "status", repo: writeRepo(REPO) });
    expect(r.ok).toBe(true);
    const s = r.ok && r.op === "status" ? r.result.server : undefined;
    expect(s?.state).toBe("failed");
    expect(s?.lastError).toContain("cannot start /nonexistent/kotadb");
    expect(s?.lastError).toContain("The command was not found");
    await svc.close();
  }, 60_000);
});
