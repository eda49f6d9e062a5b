/**
 * context_run and context_fetch against a real store, a real shell and a real HTTP server on
 * 127.0.0.1: what comes back, what is stored, exit codes, timeouts, cancels, the day's cache.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runRunTool } from "../../src/surfaces/tools/run-tools.ts";
import { cleanupTempDirs, noisyLog, tempDir, testEngine, waitFor } from "../helpers.ts";

const engine = testEngine();
const project = tempDir();
const scope = { session: "s1", project };

afterAll(async () => {
  await engine.close();
  cleanupTempDirs();
});

const run = (args: Record<string, unknown>, io = {}) => runRunTool(engine, "context_run", args, scope, io);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("context_run", () => {
  test("small output comes back byte for byte, stderr in order, the exit code said", async () => {
    const r = await run({ command: "echo out; echo err >&2; printf 'é last'; exit 3" });
    expect(r.text).toBe("out\nerr\né last\n[exit code 3]");
    expect(r.isError).toBe(true);
    expect(r.details.exitCode).toBe(3);
    const ok = await run({ command: "printf 'a\\n\\nb\\n'" });
    expect(ok).toMatchObject({ text: "a\n\nb\n", isError: false });
    expect((await run({ command: "true" })).text).toBe("(no output)");
  });

  test("stdin is closed: a command that reads it ends at once", async () => {
    const r = await run({ command: "cat; echo after", timeout: 20 });
    expect(r.text).toBe("after\n");
  });

  test("a large output is stored (redacted) and answered with a receipt", async () => {
    const token = `ghp_${"A1b2C3d4E5".repeat(3)}zYxW9v`;
    const log = noisyLog(2000, 4, { line: 1500, text: `deploy failed: quota exceeded for bucket nightly-7f3a token=${token}` });
    const file = join(project, "big.log");
    await Bun.write(file, log);
    const r = await run({ command: "cat big.log; exit 2" });
    expect(r.text).toMatch(/Source (ctx_\w+)/);
    expect(r.text).toEndWith("[exit code 2]");
    expect(r.text).not.toContain(token);
    expect(r.isError).toBe(true);
    const source = r.details.sourceId as string;
    const hits = await engine.search({ query: "quota exceeded nightly-7f3a", source });
    expect(hits.ok && hits.text).toContain("1500:");
    const got = await engine.get({ source, lines: { from: 1500, to: 1500 } });
    expect(got.ok && got.text).not.toContain(token);
    expect(got.ok && got.text).toContain("quota exceeded");
    const listed = await engine.list({ source });
    expect(listed[0]).toMatchObject({ tool: "bash", label: "cat big.log; exit 2", session: "s1" });
  });

  test("cwd is relative to the project; a missing one is a clear problem", async () => {
    mkdirSync(join(project, "sub"), { recursive: true });
    expect((await run({ command: "pwd", cwd: "sub" })).text).toBe(`${join(project, "sub")}\n`);
    const missing = await run({ command: "pwd", cwd: "nowhere" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("does not exist");
    expect((await run({ command: "  " })).isError).toBe(true);
    expect((await run({ command: "true", timeout: 0 })).text).toContain("timeout must be a whole number from 1 to 3600");
  });

  test("the timeout stops the command and what it started; progress is reported meanwhile", async () => {
    const pidFile = join(project, "child.pid");
    const progress: string[] = [];
    const started = Date.now();
    const r = await run(
      { command: `sleep 60 & echo $! > child.pid; echo started; wait`, timeout: 2 },
      { progress: (_p: number, _t: number | undefined, m: string) => progress.push(m) },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.isError).toBe(true);
    expect(r.text).toStartWith("started\n");
    expect(r.text).toContain("[stopped after 2 s (the timeout)");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toContain("last: started");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await waitFor(() => !alive(pid), "the background sleep to be killed with its group");
  });

  test("a cancel stops it too", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const r = await run({ command: "echo begin; sleep 30" }, { signal: controller.signal });
    expect(r.details.ended).toBe("cancelled");
    expect(r.text).toContain("begin\n[cancelled");
  });
});

describe("context_fetch", () => {
  const hits = new Map<string, number>();
  const bigPage = `<html><head><title>Big manual</title></head><body>${Array.from(
    { length: 900 },
    (_, i) => `<p>Section ${i} of the manual: ${i === 777 ? "the flux capacitor needs 1.21 gigawatts" : "nothing to see"}.</p>`,
  ).join("")}</body></html>`;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      if (path === "/page")
        return new Response(
          `<!doctype html><html><head><title>Release notes</title><style>.x{color:red}</style><script>var secret="no"</script></head>` +
            `<body><h1>Version 2.0</h1><p>Adds <a href="/docs/run">context_run</a> &amp; fetch.</p><img src="a.png"></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        );
      if (path === "/big") return new Response(bigPage, { headers: { "content-type": "text/html" } });
      if (path === "/data") return Response.json({ name: "pi-sidecar", tools: ["context_run", "context_fetch"] });
      if (path === "/image") return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { "content-type": "image/png" } });
      return new Response("<p>no such page</p>", { status: 404, headers: { "content-type": "text/html" } });
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  afterAll(() => server.stop(true));
  let clock = Date.now();
  const fetchTool = (args: Record<string, unknown>) => runRunTool(engine, "context_fetch", args, scope, {}, { now: () => clock });

  test("HTML becomes text (no script, no style, links kept), is stored, and is served from the store for a day", async () => {
    const first = await fetchTool({ url: `${base}/page` });
    expect(first.isError).toBe(false);
    expect(first.text).toStartWith(`[Release notes: ${base}/page (HTTP 200, html); stored as ctx_`);
    expect(first.text).toContain("VERSION 2.0");
    expect(first.text).toContain(`context_run [${base}/docs/run] & fetch.`);
    expect(first.text).not.toContain("secret");
    expect(first.text).not.toContain("color:red");
    expect(hits.get("/page")).toBe(1);
    const again = await fetchTool({ url: `${base}/page` });
    expect(hits.get("/page")).toBe(1);
    expect(again.text).toContain("answered from the store");
    expect(again.text).toContain("VERSION 2.0");
    expect(again.details.sourceId).toBe(first.details.sourceId);
    await fetchTool({ url: `${base}/page`, refresh: true });
    expect(hits.get("/page")).toBe(2);
    clock += 25 * 60 * 60 * 1000;
    await fetchTool({ url: `${base}/page` });
    expect(hits.get("/page")).toBe(3);
  });

  test("a large page comes back as a receipt and its text is searchable", async () => {
    clock = Date.now(); // the store's own clock
    const r = await fetchTool({ url: `${base}/big` });
    expect(r.text).toMatch(/Source ctx_\w+/);
    expect(r.text.length).toBeLessThan(4000);
    const found = await engine.search({ query: "flux capacitor gigawatts", source: r.details.sourceId as string });
    expect(found.ok && found.text).toContain("1.21 gigawatts");
    const cached = await fetchTool({ url: `${base}/big` });
    expect(hits.get("/big")).toBe(1);
    expect(cached.text).toContain(`context_search {"query": "...", "source": "${r.details.sourceId}"}`);
    expect(cached.text.length).toBeLessThan(4000);
  });

  test("JSON is pretty-printed; errors, binaries and other schemes are refused with what to do", async () => {
    const json = await fetchTool({ url: `${base}/data` });
    expect(json.text).toContain('"tools": [\n    "context_run"');
    const missing = await fetchTool({ url: `${base}/missing` });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("answered 404; nothing was stored");
    await fetchTool({ url: `${base}/missing` });
    expect(hits.get("/missing")).toBe(2);
    const image = await fetchTool({ url: `${base}/image` });
    expect(image.isError).toBe(true);
    expect(image.text).toContain("image/png");
    expect((await fetchTool({ url: "file:///etc/passwd" })).text).toContain("Only http:// and https://");
    expect((await fetchTool({ url: "not a url" })).text).toContain("is not a URL");
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const refused = await fetchTool({ url: `http://127.0.0.1:${port}/` });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("Could not fetch");
    expect(existsSync(project)).toBe(true);
  });
});
