import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import type { GatewayResult } from "../../src/gateway/gateway.ts";
import { toPiContent } from "../../src/gateway/result.ts";
import { signature } from "../../src/gateway/schema.ts";
import { alive, tempDir, waitFor } from "../helpers.ts";
import { agentWith, gatewayFor, registryServers, testServer } from "./servers.ts";

const text = (r: GatewayResult) => r.result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});
function open(...args: Parameters<typeof gatewayFor>) {
  const g = gatewayFor(...args);
  closers.push(() => g.gateway.close());
  return g;
}

describe("registry servers", () => {
  const files = tempDir("pi-sidecar-fs-");
  writeFileSync(join(files, "notes.txt"), "the launch code is tangerine\n");
  const agent = agentWith(registryServers(files));

  test("catalog mode: three fixed tools whose text never changes; search, describe and call work on first try", async () => {
    const { gateway } = open(agent, { mode: "catalog" });
    const before = JSON.stringify(gateway.exposed());
    expect(gateway.exposed().map((t) => t.name)).toEqual(["mcp_search", "mcp_describe", "mcp_call"]);
    expect(gateway.status().every((s) => s.status === "idle")).toBe(true); // nothing started yet

    const found = text(await gateway.call("mcp_search", { query: "read text file" }));
    expect(found).toContain("filesystem/read_text_file(path: string");
    const described = text(await gateway.call("mcp_describe", { tool: "filesystem/read_text_file" }));
    expect(described).toContain('"path"');
    const r = await gateway.call("mcp_call", { tool: "filesystem/read_text_file", arguments: { path: join(files, "notes.txt") } });
    expect(r.result.isError).toBeFalsy();
    expect(text(r)).toContain("tangerine");

    const bad = await gateway.call("mcp_call", { tool: "filesystem/read_text_file", arguments: { file: "notes.txt" } });
    expect(bad.result.isError).toBe(true);
    expect(text(bad)).toContain("path: required");
    expect(text(bad)).toContain("Input schema:");
    const unknown = await gateway.call("mcp_call", { tool: "filesystem/read_txt", arguments: {} });
    expect(text(unknown)).toContain("has no tool");

    expect(JSON.stringify(gateway.exposed())).toBe(before);
  }, 60_000);

  test("the catalog line comes from the disk catalog: a new session lists counts without starting anything", async () => {
    const { gateway } = open(agent, { mode: "catalog" });
    const search = gateway.exposed().find((t) => t.name === "mcp_search")!;
    expect(search.description).toContain("everything (13 tools), filesystem (14 tools), memory (9 tools), sequential-thinking (1 tool)");
    expect(gateway.status().every((s) => s.status === "idle" && s.pid === null)).toBe(true);
  });

  test("stubs are valid JSON Schema, much smaller, and name every argument", async () => {
    const { gateway } = open(agent, { mode: "eager" });
    const full = gateway.exposed();
    expect(full).toHaveLength(37);
    const ajv = new Ajv({ strict: false });
    const { gateway: stubs } = open(agent, { mode: "stubs" });
    const stubbed = stubs.exposed();
    expect(stubbed).toHaveLength(38); // 37 stubs + mcp__expand
    for (const s of stubbed) {
      expect(() => ajv.compile(s.inputSchema)).not.toThrow();
      const f = full.find((x) => x.name === s.name);
      for (const arg of Object.keys((f?.inputSchema.properties as object) ?? {})) expect(s.description).toContain(`${arg}`);
    }
    const size = (tools: typeof full) =>
      JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }))).length;
    expect(size(stubbed)).toBeLessThan(size(full) * 0.4);
  });

  test("stubs mode: the first call promotes the server to full schemas and runs at once", async () => {
    const { gateway } = open(agent, { mode: "stubs" });
    let changes = 0;
    gateway.onChange(() => changes++);
    const name = "filesystem__read_text_file";
    expect(gateway.exposed().find((t) => t.name === name)!.kind).toBe("stub");
    const r = await gateway.call(name, { path: join(files, "notes.txt") });
    expect(text(r)).toContain("tangerine");
    expect(r.promoted).toBe(true);
    expect(changes).toBe(1);
    const after = gateway.exposed();
    expect(after.filter((t) => t.server === "filesystem").every((t) => t.kind === "full")).toBe(true);
    expect(after.filter((t) => t.server === "memory").every((t) => t.kind === "stub")).toBe(true);
    const expanded = text(await gateway.call("mcp__expand", { server: "all" }));
    expect(expanded).toContain("memory: 9 tools with full schemas");
    expect(gateway.exposed().filter((t) => t.kind === "stub")).toHaveLength(0);
  }, 60_000);

  test("everything's image and resources survive as pi content", async () => {
    const { gateway } = open(agent, { mode: "eager" });
    const img = toPiContent((await gateway.call("everything__get-tiny-image", {})).result);
    expect(img.some((c) => c.type === "image" && c.mimeType === "image/png" && c.data.length > 100)).toBe(true);
    const res = toPiContent((await gateway.call("everything__get-resource-reference", { resourceType: "Text", resourceId: 2 })).result);
    expect(res.some((c) => c.type === "text" && c.text.startsWith("[resource "))).toBe(true);
  }, 60_000);
});

describe("our test server", () => {
  test("tools/list is read page by page", async () => {
    const { gateway } = open(agentWith({ t: testServer({ env: { TEST_PAGE_SIZE: "3", TEST_FILLER: "20" } }) }), { mode: "eager" });
    expect(await gateway.prepare()).toEqual([]);
    expect(gateway.exposed()).toHaveLength(27);
  }, 30_000);

  test("a $ref schema keeps its shape in the stub, and bad arguments get the schema back", async () => {
    const { gateway } = open(agentWith({ t: testServer() }), { mode: "stubs" });
    await gateway.prepare();
    await gateway.call("t__pid", {}); // lists the server (no cache yet for stubs)
    const { gateway: g2 } = open(gateway.status()[0]!.file.replace(/\/mcp\.json$/, ""), { mode: "stubs" });
    const pizza = g2.exposed().find((t) => t.name === "t__order_pizza")!;
    expect(pizza.kind).toBe("stub");
    expect(pizza.description).toBe('Orders a pizza. (size: "s"|"m"|"l", toppings?: {name: "cheese"|"basil"|"olive", extra?: boolean}[])');
    const bad = await g2.call("t__order_pizza", { size: "xl" });
    expect(bad.result.isError).toBe(true);
    expect(text(bad)).toContain("size: must be one of");
    const ok = await g2.call("t__order_pizza", { size: "m", toppings: [{ name: "basil" }] });
    expect(text(ok)).toBe("ordered m pizza with basil");
  }, 30_000);

  test("a killed server is restarted on the next call", async () => {
    const { gateway } = open(agentWith({ t: testServer() }), { mode: "eager" });
    await gateway.prepare();
    const first = Number(text(await gateway.call("t__pid", {})));
    process.kill(first, "SIGKILL");
    await waitFor(() => gateway.status()[0]!.status !== "ready", "the gateway to notice the crash");
    expect(gateway.status()[0]!.status).toBe("crashed");
    const second = Number(text(await gateway.call("t__pid", {})));
    expect(second).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    const crashed = await gateway.call("t__crash", {});
    expect(crashed.result.isError).toBe(true);
    expect(text(crashed)).toContain("restarted on the next call");
    expect(Number(text(await gateway.call("t__pid", {})))).not.toBe(second);
  }, 30_000);

  test("an idle server is disconnected and comes back on the next call", async () => {
    const { gateway } = open(agentWith({ t: testServer({ idle_timeout_ms: 300 }) }), { mode: "eager" });
    await gateway.prepare();
    const pid = Number(text(await gateway.call("t__pid", {})));
    await waitFor(() => gateway.status()[0]!.status === "idle", "the idle timeout to disconnect the server");
    expect(gateway.status()[0]).toMatchObject({ status: "idle", pid: null });
    await waitFor(() => !alive(pid), "the idle server's process to exit"); // the process is gone
    expect(Number(text(await gateway.call("t__pid", {})))).not.toBe(pid);
  }, 30_000);

  test("timeouts, progress and cancellation", async () => {
    const { gateway } = open(agentWith({ t: testServer({ timeout_ms: 400 }) }), { mode: "eager" });
    await gateway.prepare();
    const late = await gateway.call("t__slow", { ms: 3000 });
    expect(late.result.isError).toBe(true);
    expect(text(late).toLowerCase()).toContain("timed out");
    // progress resets the timeout: 1 s of work with a 400 ms timeout succeeds
    const progress: number[] = [];
    const ok = await gateway.call("t__slow", { ms: 1000 }, { onProgress: (p) => progress.push(p) });
    expect(text(ok)).toBe("waited 1000 ms");
    expect(progress.length).toBeGreaterThanOrEqual(5);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 150);
    const started = performance.now();
    const cancelled = await gateway.call("t__slow", { ms: 5000 }, { signal: abort.signal, onProgress: () => {} });
    expect(cancelled.result.isError).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  }, 30_000);

  test("a child sees only its configured environment plus a minimal base", async () => {
    process.env.PI_SIDECAR_TEST_SECRET = "hunter2";
    // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp.json interpolation syntax
    const { gateway } = open(agentWith({ t: testServer({ env: { GIVEN_TOKEN: "${PI_SIDECAR_TEST_SECRET}" } }) }), { mode: "eager" });
    await gateway.prepare();
    const names = text(await gateway.call("t__env", {})).split(",");
    expect(names).toContain("GIVEN_TOKEN");
    expect(names).toContain("PATH");
    expect(names).not.toContain("PI_SIDECAR_TEST_SECRET");
    expect(names.length).toBeLessThan(15);
    delete process.env.PI_SIDECAR_TEST_SECRET;
  }, 30_000);

  test("images, text and binary resources, links and structured content all reach pi", async () => {
    const { gateway } = open(agentWith({ t: testServer() }), { mode: "eager" });
    await gateway.prepare();
    const content = toPiContent((await gateway.call("t__media", {})).result);
    const all = content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
    expect(all).toContain("[image image/png]");
    expect(all).toContain("resource text: the key is 42");
    expect(all).toMatch(/data\.bin.*12 bytes, saved to \S+/);
    expect(all).toContain("[resource link guide.md <test://docs/guide.md>");
    expect(all).toContain('"answer": 42');
  }, 30_000);
});

describe("config and trust", () => {
  test("a bad server entry is reported and skipped; the others still start", async () => {
    const agent = agentWith({
      good: testServer({ colour: "blue", exposure: "deferred", toolExposure: { "*": "direct" }, timeout: 30 }), // pi 1.x's keys pass quietly
      nocommand: { args: ["x"] },
      badtype: { type: "websocket", url: "ws://x" },
    });
    const { gateway, load } = open(agent, { mode: "eager" });
    expect(load.problems.join("\n")).toContain('unknown key "colour" ignored');
    expect(load.problems.join("\n")).not.toMatch(/exposure|timeout"/);
    expect(load.problems.join("\n")).toContain('needs "command" (a program to run) or "url"');
    expect(load.problems.join("\n")).toContain('"type" must be stdio, http or sse');
    expect(await gateway.prepare()).toEqual([]);
    expect(gateway.status().map((s) => s.name)).toEqual(["good"]);
    expect(text(await gateway.call("good__pid", {}))).toMatch(/^\d+$/);
  }, 30_000);

  test("pi's own `timeout` (seconds, as pi 1.x reads mcp.json) is the request timeout; timeout_ms wins when both are given", async () => {
    const agent = agentWith({
      t: testServer({ timeout: 0.4 }),
      both: testServer({ timeout: 5, timeout_ms: 250 }),
      bad: testServer({ timeout: "soon" }),
    });
    const { gateway, load } = open(agent, { mode: "eager" });
    const timeouts = Object.fromEntries(load.servers.map((s) => [s.name, s.timeoutMs]));
    expect(timeouts).toEqual({ t: 400, both: 250, bad: null });
    expect(load.problems.join("\n")).toContain('server "bad": timeout must be a number of seconds');
    await gateway.prepare();
    const late = await gateway.call("t__slow", { ms: 3000 });
    expect(late.result.isError).toBe(true);
    expect(text(late).toLowerCase()).toContain("timed out");
  }, 30_000);

  test("broken JSON names the file", () => {
    const agent = agentWith({});
    writeFileSync(join(agent, "mcp.json"), "{ nope");
    const { load } = open(agent);
    expect(load.problems[0]).toContain(`${join(agent, "mcp.json")}: not valid JSON`);
  });

  test("an unapproved project mcp.json starts nothing; approval holds until the file changes", async () => {
    const agent = agentWith({});
    const project = tempDir("pi-sidecar-project-");
    const marker = join(project, "started");
    mkdirSync(join(project, ".pi"));
    const file = join(project, ".pi", "mcp.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", `touch ${marker}`] } } }));
    const { gateway, state } = open(agent, { mode: "eager" }, project);
    expect(gateway.untrusted.map((f) => f.path)).toEqual([file]);
    expect(gateway.exposed()).toEqual([]);
    await gateway.prepare();
    expect(text(await gateway.call("mcp_call", { tool: "evil/x" }))).toContain("has not approved");
    expect(existsSync(marker)).toBe(false);

    state.approve(file, gateway.untrusted[0]!.hash);
    const again = open(agent, { mode: "eager" }, project);
    expect(again.gateway.untrusted).toEqual([]);
    expect(again.gateway.status().map((s) => s.name)).toEqual(["evil"]);
    writeFileSync(file, JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", "echo changed"] } } }));
    expect(open(agent, { mode: "eager" }, project).gateway.untrusted).toHaveLength(1);
  });

  test("allow and deny lists filter tools; a disabled server offers none", async () => {
    const agent = agentWith({ t: testServer({ allow: ["p*", "env"], deny: ["pid"] }), off: testServer({ enabled: false }) });
    const { gateway } = open(agent, { mode: "eager" });
    await gateway.prepare();
    expect(
      gateway
        .exposed()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["t__env"]);
    expect(text(await gateway.call("mcp_call", { tool: "off/pid" }))).toContain("/sidecar mcp enable off");
    await gateway.setEnabled(["t"], false);
    expect(gateway.status().find((s) => s.name === "t")).toMatchObject({ enabled: false, status: "idle" });
    expect(text(await gateway.call("t__env", {}))).toContain("/sidecar mcp enable t"); // its tool is still in pi's list until the next session
  }, 30_000);

  test("a signature resolves refs, marks optional arguments, cuts cycles and drops long enums", () => {
    const schema = {
      type: "object",
      definitions: {
        node: {
          type: "object",
          properties: {
            child: { $ref: "#/definitions/node" },
            tag: { type: "string", enum: Array.from({ length: 30 }, (_, i) => `t${i}`) },
          },
        },
      },
      properties: {
        root: { $ref: "#/definitions/node" },
        mode: { anyOf: [{ type: "string" }, { type: "null" }], description: "long words" },
      },
      required: ["root"],
    };
    // the self-reference inside node is a cycle: it is cut, not followed forever
    expect(signature("f", schema)).toBe("f(root: {child?: any, tag?: string}, mode?: string|null)");
  });
});

describe("remote servers (server-everything over HTTP)", () => {
  async function everythingOver(transport: "sse" | "streamableHttp") {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const proc = Bun.spawn([join(import.meta.dir, "../../node_modules/.bin/mcp-server-everything"), transport], {
      env: { ...process.env, PORT: String(port) },
      stdout: "ignore",
      stderr: "pipe",
    });
    closers.push(async () => void proc.kill());
    const reader = proc.stderr.getReader();
    let seen = "";
    while (!/running|listening/i.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server-everything ${transport} did not start: ${seen}`);
      seen += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    return port;
  }

  test("Streamable HTTP with headers", async () => {
    const port = await everythingOver("streamableHttp");
    const { gateway } = open(agentWith({ web: { url: `http://127.0.0.1:${port}/mcp`, headers: { "X-Test": "1" } } }), { mode: "catalog" });
    const r = await gateway.call("mcp_call", { tool: "web/echo", arguments: { message: "over http" } });
    expect(text(r)).toContain("over http");
  }, 30_000);

  test("a plain url falls back to SSE when Streamable HTTP is refused", async () => {
    const port = await everythingOver("sse");
    const { gateway } = open(agentWith({ old: { url: `http://127.0.0.1:${port}/sse` } }), { mode: "catalog" });
    const r = await gateway.call("mcp_call", { tool: "old/get-sum", arguments: { a: 2, b: 40 } });
    expect(text(r)).toContain("42");
  }, 30_000);
});
