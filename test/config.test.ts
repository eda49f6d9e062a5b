import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, toolThresholds } from "../src/config.ts";
import { cleanupTempDirs, tempDir } from "./helpers.ts";

afterAll(cleanupTempDirs);

function setup(global?: unknown, project?: unknown) {
  const agent = tempDir();
  const cwd = tempDir();
  if (global !== undefined) writeFileSync(join(agent, "pi-sidecar.json"), typeof global === "string" ? global : JSON.stringify(global));
  if (project !== undefined) {
    mkdirSync(join(cwd, ".pi"));
    writeFileSync(join(cwd, ".pi", "pi-sidecar.json"), typeof project === "string" ? project : JSON.stringify(project));
  }
  return { env: { PI_CODING_AGENT_DIR: agent } as Record<string, string>, cwd, agent };
}

describe("config", () => {
  test("defaults: database under the agent dir, 24 KiB / 300 lines, 4 KiB chunks, 7 days", () => {
    const { env, cwd, agent } = setup();
    const { config, errors } = loadConfig({ env, cwd });
    expect(errors).toEqual([]);
    expect(config.db).toBe(join(agent, "sidecar.db"));
    expect(config.capture.thresholdBytes).toBe(24576);
    expect(config.capture.thresholdLines).toBe(300);
    expect(config.capture.chunkBytes).toBe(4096);
    expect(config.retention.days).toBe(7);
    expect(Object.isFrozen(config.capture)).toBe(true);
  });

  test("precedence: defaults < global < project < env < flags", () => {
    const { env, cwd } = setup(
      { capture: { thresholdLines: 100, thresholdBytes: "10KiB" }, retention: { days: 3 } },
      { capture: { thresholdLines: 200 } },
    );
    const base = loadConfig({ env, cwd }).config;
    expect([base.capture.thresholdLines, base.capture.thresholdBytes, base.retention.days]).toEqual([200, 10240, 3]);
    const withEnv = loadConfig({ env: { ...env, PI_SIDECAR_THRESHOLD_LINES: "250", PI_SIDECAR_DB: "/tmp/env.db" }, cwd }).config;
    expect(withEnv.capture.thresholdLines).toBe(250);
    expect(withEnv.db).toBe("/tmp/env.db");
    const withFlag = loadConfig({ env: { ...env, PI_SIDECAR_DB: "/tmp/env.db" }, cwd, flags: { db: "/tmp/flag.db" } }).config;
    expect(withFlag.db).toBe("/tmp/flag.db");
  });

  test("bad values and unknown keys are collected, reported and ignored; good keys still apply", () => {
    const { env, cwd } = setup(
      { capture: { thresholdLines: -4, thresholBytes: 5, chunkBytes: 2048 }, bogus: 1, capture_: {} },
      "{ not json",
    );
    const { config, errors } = loadConfig({ env: { ...env, PI_SIDECAR_RETENTION_DAYS: "soon" }, cwd });
    expect(config.capture.thresholdLines).toBe(300);
    expect(config.capture.chunkBytes).toBe(2048);
    expect(config.retention.days).toBe(7);
    const all = errors.join("\n");
    expect(all).toContain('"capture.thresholdLines" must be at least 1');
    expect(all).toContain('unknown key "capture.thresholBytes"');
    expect(all).toContain('unknown key "bogus"');
    expect(all).toContain("not valid JSON");
    expect(all).toContain("PI_SIDECAR_RETENTION_DAYS");
    expect(errors.length).toBe(6);
  });

  test("mcp: the default mode from a file, a forced mode from the env, bad values reported", () => {
    const { env, cwd } = setup({ mcp: { mode: "stubs", requestTimeoutMs: 5000 } });
    expect(loadConfig({ env, cwd }).config.mcp).toEqual({
      enabled: true,
      inPi: "auto",
      mode: "stubs",
      force: "none",
      requestTimeoutMs: 5000,
    });
    const forced = loadConfig({ env: { ...env, PI_SIDECAR_MCP_MODE: "eager", PI_SIDECAR_MCP: "0" }, cwd }).config.mcp;
    expect(forced).toMatchObject({ mode: "stubs", force: "eager", enabled: false });
    const bad = loadConfig({ env: { ...env, PI_SIDECAR_MCP_MODE: "lazy" }, cwd });
    expect(bad.config.mcp.force).toBe("none");
    expect(bad.errors.join()).toContain('PI_SIDECAR_MCP_MODE="lazy" must be one of none, catalog, stubs, eager');
  });

  test("per-tool rules", () => {
    const { env, cwd } = setup({ capture: { tools: { read: { enabled: false }, grep: { thresholdLines: 50, color: 1 } } } });
    const { config, errors } = loadConfig({ env, cwd });
    expect(toolThresholds(config, "read").enabled).toBe(false);
    expect(toolThresholds(config, "grep")).toEqual({ enabled: true, bytes: 24576, lines: 50 });
    expect(toolThresholds(config, "bash")).toEqual({ enabled: true, bytes: 24576, lines: 300 });
    expect(errors.join()).toContain("capture.tools.grep.color");
  });

  test("include and exclude lists; a per-tool rule wins over them", () => {
    const { env, cwd } = setup({ capture: { include: ["bash", "mcp", "web"], exclude: ["web"], tools: { read: { enabled: true } } } });
    const { config } = loadConfig({ env, cwd });
    expect(toolThresholds(config, "bash").enabled).toBe(true);
    expect(toolThresholds(config, "grep").enabled).toBe(false); // not included
    expect(toolThresholds(config, "web").enabled).toBe(false); // excluded
    expect(toolThresholds(config, "read").enabled).toBe(true); // its own rule
    const fromEnv = loadConfig({ env: { ...env }, cwd, noFiles: true });
    expect(fromEnv.config.capture.include).toEqual([]);
  });
});

describe("config paths and trust", () => {
  test("a project's own file cannot choose the binary, the engine or the database", () => {
    const { env, cwd } = setup(undefined, {
      db: "/tmp/elsewhere.db",
      pi: { engine: "stdio", binary: "./evil.sh" },
      capture: { thresholdLines: 50 },
    });
    const { config, errors } = loadConfig({ env, cwd });
    expect(config.pi.binary).toBe("");
    expect(config.pi.engine).toBe("auto");
    expect(config.db).toBe(join(env.PI_CODING_AGENT_DIR!, "sidecar.db"));
    expect(config.capture.thresholdLines).toBe(50); // other keys still apply
    expect(errors.filter((e) => e.includes("can only be set in the global")).length).toBe(3);
  });

  test("~ is the home folder; a relative path is relative to the file that names it", () => {
    const { env, cwd, agent } = setup({ db: "~/stores/side.db", pi: { binary: "bin/pi-sidecar" } });
    const { config } = loadConfig({ env: { ...env, HOME: "/home/someone" }, cwd });
    expect(config.db).toBe(join(require("node:os").homedir(), "stores/side.db"));
    expect(config.pi.binary).toBe(join(agent, "bin/pi-sidecar"));
  });
});
