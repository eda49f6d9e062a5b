/**
 * `pi-sidecar doctor` through the built binary, on real setups: a pi on PATH (0.87.1 or 1.3.0 from
 * node_modules), the extension installed or stale, pi's MCP switched off in its settings, a damaged
 * database, a missing KotaDB command, a wrong Chromium path. Every problem names a fix, and
 * running that fix clears it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanupTempDirs, tempDir } from "../helpers.ts";
import { BIN, PI_PACKAGES, type PiVersion, RUNTIMES } from "./pi/harness.ts";

afterAll(cleanupTempDirs);

type Check = { id: string; status: "ok" | "warn" | "fail"; summary: string; fix?: string; data?: Record<string, unknown> };

/** A user: HOME with pi's agent dir, and a PATH whose `pi` is the given version (or none) and whose `node` is 22 (or this machine's). */
function user(pi: PiVersion | null, node22 = true) {
  const home = tempDir("doctor-home-");
  const agent = join(home, ".pi", "agent");
  mkdirSync(agent, { recursive: true });
  const bin = join(home, "bin");
  mkdirSync(bin);
  if (pi) symlinkSync(join(PI_PACKAGES[pi], "dist/bundle/cli.js"), join(bin, "pi"));
  const env: Record<string, string> = { PATH: `${bin}:${node22 ? `${dirname(RUNTIMES.node)}:` : ""}/usr/bin:/bin`, HOME: home };
  const run = (args: string[], extra: Record<string, string> = {}) => {
    const r = Bun.spawnSync([BIN, ...args], { env: { ...env, ...extra }, cwd: home, stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  const doctor = (extra: Record<string, string> = {}) => {
    const r = run(["doctor", "--json"], extra);
    const parsed = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
    const by = (id: string) => parsed.checks.find((c) => c.id === id)!;
    return { code: r.code, ok: parsed.ok, checks: parsed.checks, by };
  };
  return { home, agent, run, doctor };
}

describe("pi-sidecar doctor (binary)", () => {
  test("pi 1.3.0, nothing installed: says to install; after the fix pi's own MCP is active and the gateway off", () => {
    const u = user("1.3.0");
    const before = u.doctor();
    expect(before.code).toBe(0); // warnings only
    expect(before.by("binary")).toMatchObject({ status: "ok", data: { command: [BIN] } });
    expect(before.by("extension")).toMatchObject({ status: "warn", fix: "pi-sidecar install pi" });
    expect(before.by("pi")).toMatchObject({ status: "ok", data: { version: "1.3.0", builtinMcp: true } });
    expect(before.by("database")).toMatchObject({ status: "ok", data: { exists: false } });

    expect(u.run(["install", "pi"]).code).toBe(0);
    const after = u.doctor();
    expect(after.by("extension")).toMatchObject({ status: "ok", data: { current: true } });
    expect(after.by("mcp")).toMatchObject({ status: "ok", data: { builtin: true, builtinActive: true, gateway: false } });
    expect(after.checks.filter((c) => c.status !== "ok" && c.id !== "browser")).toEqual([]);

    // The human form: one line per check, fixes under their problem.
    const text = u.run(["doctor"]);
    expect(text.stdout).toMatch(/^ok\s+pi\s+pi 1\.3\.0 at /m);
  }, 60_000);

  test("a stale extension (older version, other files) is a warning on both lines, fixed by install pi", () => {
    const u = user("1.3.0");
    u.run(["install", "pi"]);
    const dir = join(u.agent, "extensions", "pi-sidecar");
    writeFileSync(join(dir, "install.json"), JSON.stringify({ version: "0.0.1", binary: BIN, command: [BIN] }));
    writeFileSync(join(dir, "index.js"), "export default function (pi) { pi.registerCommand('mcp', { handler() {} }); }\n");
    const d = u.doctor();
    expect(d.by("extension")).toMatchObject({ status: "warn", fix: "pi-sidecar install pi" });
    expect(d.by("extension").summary).toContain("are pi-sidecar 0.0.1, this binary is");
    expect(d.by("mcp")).toMatchObject({ status: "warn", fix: "pi-sidecar install pi" });
    u.run(d.by("extension").fix!.split(" ").slice(1));
    expect(u.doctor().by("extension").status).toBe("ok");
  }, 60_000);

  test("pi's MCP switched off in settings with the gateway on auto: nothing serves mcp.json", () => {
    const u = user("1.3.0");
    writeFileSync(join(u.agent, "settings.json"), JSON.stringify({ extensions: ["-builtin:mcp"] }));
    const d = u.doctor();
    expect(d.by("mcp")).toMatchObject({ status: "warn", data: { builtinActive: false, gateway: false } });
    expect(d.by("mcp").fix).toContain('"-builtin:mcp"');
    // Either fix works; the gateway one:
    expect(u.doctor({ PI_SIDECAR_MCP_IN_PI: "on" }).by("mcp")).toMatchObject({ status: "ok", data: { gateway: true } });
  }, 60_000);

  test("a `node` older than pi's engines.node: a warning with the fix", () => {
    const u = user("1.3.0", false);
    // A Node 20 first on PATH (a script that answers like one).
    writeFileSync(join(u.home, "bin", "node"), "#!/bin/sh\necho v20.11.1\n", { mode: 0o755 });
    const d = u.doctor();
    expect(d.by("pi")).toMatchObject({ status: "warn" });
    expect(d.by("pi").summary).toContain("needs Node >=22.19.0; `node` on PATH is v20.11.1");
    expect(d.by("pi").fix).toContain("install Node 22.19.0 or newer, or run pi with Bun");
  }, 60_000);

  test("pi 0.87.1 has no MCP of its own: the gateway is on", () => {
    const d = user("0.87.1").doctor();
    expect(d.by("pi")).toMatchObject({ data: { version: "0.87.1", builtinMcp: false } });
    expect(d.by("mcp")).toMatchObject({ status: "ok", data: { builtin: false, gateway: true } });
  }, 60_000);

  test("no pi on PATH; a damaged database; a KotaDB command that is not there; a Chromium path that is wrong", () => {
    const u = user(null);
    writeFileSync(join(u.agent, "sidecar.db"), "this is not a database".repeat(100));
    writeFileSync(join(u.agent, "pi-sidecar.json"), JSON.stringify({ kota: { backend: "kotadb", command: "no-such-kotadb" } }));
    const d = u.doctor({ PI_SIDECAR_CHROMIUM: "/nonexistent/chromium" });
    expect(d.code).toBe(1);
    expect(d.ok).toBe(false);
    expect(d.by("pi")).toMatchObject({ status: "warn", fix: "npm install -g @earendil-works/pi-coding-agent" });
    expect(d.by("database").status).toBe("fail");
    expect(d.by("database").fix).toContain(`mv "${join(u.agent, "sidecar.db")}"`);
    expect(d.by("code-index")).toMatchObject({ status: "fail", data: { backend: "kotadb" } });
    expect(d.by("browser")).toMatchObject({ status: "fail" });
    const text = u.run(["doctor"], { PI_SIDECAR_CHROMIUM: "/nonexistent/chromium" });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("fix: npm install -g @earendil-works/pi-coding-agent");
    expect(text.stdout).toMatch(/3 problems, \d+ warnings?\.\n$/);
  }, 60_000);
});
