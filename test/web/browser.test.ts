/**
 * The page in a real browser (Debian's Chromium, driven by playwright-core): the overview shows
 * the numbers the CLI prints, the search box finds a planted needle, the source view shows the
 * exact line, purge needs the token and a confirmation, another Host is refused, the page updates
 * itself while another process writes, and its transfer stays small. Screenshots of every panel
 * (light, dark, narrow) go to the test's temp folder, printed at the end.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { createEngine } from "../../src/engine.ts";
import { cleanupTempDirs, noisyLog, runCli, testSeed } from "../helpers.ts";
import { findChromium } from "./chromium.ts";
import { NEEDLE, NEEDLE_LINE, type Running, type Seeded, seedStore, startServer } from "./harness.ts";

// Functions given to page.evaluate run in the browser, where these exist.
declare const document: any;
declare const localStorage: any;

const chrome = findChromium();
const run = chrome.skip ? describe.skip : describe;

let seeded: Seeded;
let web: Running;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
// Not a tempDir(): the screenshots stay after the run, for a look (the path is printed).
const shots = join(mkdtempSync(join(tmpdir(), "pi-sidecar-web-")), "screenshots");

beforeAll(async () => {
  if (chrome.skip) return;
  mkdirSync(shots, { recursive: true });
  seeded = await seedStore(testSeed("web browser store"));
  web = startServer(seeded.config, { pollMs: 100 });
  browser = await chromium.launch({
    executablePath: chrome.path!,
    // evil.example resolves to this server, as a rebinding attacker's name would.
    args: ["--no-sandbox", "--host-resolver-rules=MAP evil.example 127.0.0.1"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on("console", (m) => {
    // Refusals the tests ask for (403, 404, 409) are logged by Chromium as failed loads; anything else is a problem.
    if (m.type() === "error" && !/^Failed to load resource: the server responded with a status of 4(03|04|09)/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await web?.stop();
  if (!chrome.skip) console.log(`web screenshots: ${shots}`);
  cleanupTempDirs();
});

const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const cliStats = (...args: string[]) => JSON.parse(runCli(["--db", seeded.path, "stats", "--json", ...args]).stdout);
const metric = (name: string) => page.locator(`[data-metric="${name}"]`).first();

run("the page in Chromium", () => {
  test("the overview shows the numbers the CLI prints, each with how it was derived", async () => {
    const response = await page.goto(`${web.url}`);
    expect(response!.status()).toBe(200);
    expect(new URL(page.url()).search).toBe(""); // the token left the address bar
    const cli = cliStats();
    for (const k of ["storedTokens", "receiptTokens", "retrievedTokens", "netSavedTokens"]) {
      expect(Number(await metric(k).getAttribute("data-value"))).toBe(cli.totals[k]);
      expect(await metric(k).textContent()).toBe(cli.totals[k].toLocaleString("en-US"));
    }
    const net = await page.locator("section.card", { hasText: "Net saved" }).textContent();
    expect(net).toContain(
      `stored − receipts − retrieved = ${[cli.totals.storedTokens, cli.totals.receiptTokens, cli.totals.retrievedTokens].map((n: number) => n.toLocaleString("en-US")).join(" − ")}`,
    );
    expect(await page.locator("section.card", { hasText: "Tokens stored" }).textContent()).toContain("o200k_base");
    // uPlot drew the timeline (the script and the chart library came from this server).
    await page.locator(".chart canvas").first().waitFor();
    expect(await page.locator("table").filter({ hasText: "By project" }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "By project" }).count()).toBe(1);
    await shot("overview-light");
  });

  test("filters narrow the overview as stats --session does", async () => {
    await page.goto(`${web.base}/?session=s-two`);
    expect(Number(await metric("storedTokens").getAttribute("data-value"))).toBe(cliStats("--session", "s-two").totals.storedTokens);
  });

  test("the search box finds the planted needle as the model would see it; the source view shows the exact line", async () => {
    await page.goto(`${web.base}/sources`);
    await page.locator("body").click();
    await page.keyboard.press("/");
    expect(await page.evaluate(() => document.activeElement.name)).toBe("q");
    await page.keyboard.type("ZEBRA_NEEDLE_4711");
    await page.keyboard.press("Enter");
    const view = page.getByTestId("model-view");
    await view.waitFor();
    expect(await view.textContent()).toContain(`${NEEDLE_LINE}: ${NEEDLE}`);
    await shot("sources-search");
    await page.locator("#search-result ol a").first().click();
    await page.waitForURL(/\/sources\/ctx_/);
    const row = page.locator(`#L${NEEDLE_LINE}`);
    expect(await row.locator("span").textContent()).toBe(NEEDLE);
    expect(await row.locator("a").getAttribute("href")).toBe(`#L${NEEDLE_LINE}`);
    await shot("source-view");
    // A line range by click and shift-click gives a link that shows exactly those lines.
    await page.locator(`#L${NEEDLE_LINE} a`).click();
    await page.locator(`#L${NEEDLE_LINE + 2} a`).click({ modifiers: ["Shift"] });
    const link = page.locator("#range-link");
    expect(await link.textContent()).toBe(`Link to lines ${NEEDLE_LINE}-${NEEDLE_LINE + 2}`);
    await link.click();
    await page.waitForURL(new RegExp(`lines=${NEEDLE_LINE}-${NEEDLE_LINE + 2}`));
    expect(await page.locator(".lines div").count()).toBe(3);
  });

  test("every panel renders, in light, dark and a narrow window, and works from the keyboard", async () => {
    // Each panel from the navigation (fetched with the token), and each loaded by the browser itself (the shell fetches it).
    await page.goto(`${web.base}/`);
    for (const [path, name, title] of [
      ["/retrievals", "retrievals", "Retrieval log"],
      ["/readcache", "readcache", "Read cache"],
      ["/gateway", "gateway", "MCP gateway"],
      ["/code", "code", "Code index"],
      ["/pruning", "pruning", "Pruning"],
      ["/memory", "memory", "Memory"],
    ] as const) {
      await page.locator("nav").getByRole("link", { name: title, exact: true }).click();
      await page.locator("nav a[aria-current=page]", { hasText: title }).waitFor();
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await page.locator("nav a[aria-current=page]").count()).toBe(1);
      await shot(name);
      const r = await page.goto(`${web.base}${path}`);
      expect(r!.status()).toBe(200);
      await page.locator("nav a[aria-current=page]", { hasText: title }).waitFor();
    }
    await page.goto(`${web.base}/retrievals`);
    // A page the browser loads by itself is a shell that fetches its content: wait for it.
    await page.locator("nav a[aria-current=page]", { hasText: "Retrieval log" }).waitFor();
    expect(await page.locator("[data-outcome]").count()).toBe(5);
    expect(await page.locator("[data-empty]").count()).toBe(0);
    await page.goto(`${web.base}/pruning`);
    expect(await page.locator("[data-empty]").textContent()).toContain("not replaced any tool result yet");
    // Memory: search from the form, each hit with its own (confirmed) forget button.
    await page.goto(`${web.base}/memory`);
    await page.getByRole("searchbox", { name: "search" }).fill("staging database");
    await page.keyboard.press("Enter");
    await page.waitForURL(/q=staging/);
    expect(await page.locator("main ol li").count()).toBeGreaterThanOrEqual(2);
    expect(await page.getByRole("button", { name: /^Forget e\d+$/ }).count()).toBeGreaterThanOrEqual(2);
    await shot("memory-search");
    // Keyboard: the first Tab reaches "Skip to content"; the theme switch cycles and is kept.
    await page.goto(`${web.base}/`);
    await page.locator("nav a[aria-current=page]").waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.locator("#theme").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.locator(".chart canvas").first().waitFor();
    await shot("overview-dark");
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot("overview-narrow");
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test("the page updates itself while another process writes", async () => {
    await page.goto(`${web.base}/`);
    await page.locator("#live", { hasText: "live" }).waitFor();
    const before = Number(await metric("storedTokens").getAttribute("data-value"));
    const writer = createEngine({ config: seeded.config, background: "inline" });
    await writer.capture({ text: noisyLog(900, seeded.seed + 9), tool: "bash", session: "s-three", project: "/repo/c", force: true });
    await writer.close();
    const after = cliStats().totals.storedTokens;
    expect(after).toBeGreaterThan(before);
    await page.waitForFunction(
      (v) => document.querySelector('[data-metric="storedTokens"]')?.getAttribute("data-value") === String(v),
      after,
      {
        timeout: 10_000,
      },
    );
  });

  test("purge asks, needs the page's token, and deletes only when confirmed", async () => {
    const target = seeded.sources[2]!;
    await page.goto(`${web.base}/sources/${target}`);
    await page.getByRole("button", { name: `Purge ${target}` }).click();
    const dialog = page.locator("dialog#confirm");
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.textContent()).toContain(`Delete source ${target}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.locator("#action-status").textContent()).toBe("Nothing was changed.");
    expect(runCli(["--db", seeded.path, "list", "--json"]).stdout).toContain(target);
    // Without the page's CSRF token, a write is refused even with the run's token.
    const forged = await page.evaluate(async (id) => {
      const r = await fetch("/api/purge", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${localStorage.getItem("pi-sidecar-token")}` },
        body: JSON.stringify({ source: id, confirm: true }),
      });
      return r.status;
    }, target);
    expect(forged).toBe(403);
    // Without the token (a fresh browser), nothing at all.
    const stranger = await browser.newContext();
    const r = await stranger.request.post(`${web.base}/api/purge`, { data: { source: target, confirm: true } });
    expect(r.status()).toBe(401);
    await stranger.close();
    await page.getByRole("button", { name: `Purge ${target}` }).click();
    await dialog.getByRole("button", { name: "Yes, delete" }).click();
    await page.locator("#action-status", { hasText: "Purged 1 source" }).waitFor();
    expect(runCli(["--db", seeded.path, "list", "--json"]).stdout).not.toContain(target);
  });

  test("a page reached as evil.example (DNS rebinding) is refused", async () => {
    const other = await context.newPage();
    const r = await other.goto(`http://evil.example:${web.port}/?token=${web.token}`);
    expect(r!.status()).toBe(403);
    expect(await other.textContent("body")).toContain("answers only to 127.0.0.1 and localhost");
    await other.close();
  });

  test("the overview's first load transfers at most 150 KB, all from this server", async () => {
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await fresh.newPage();
    const hosts = new Set<string>();
    p.on("request", (req) => hosts.add(new URL(req.url()).host));
    await p.goto(web.url);
    await p.locator(".chart canvas").first().waitFor();
    const bytes = await p.evaluate(() =>
      (performance.getEntries() as PerformanceResourceTiming[]).reduce(
        (n, e) => n + (typeof e.transferSize === "number" ? e.transferSize : 0),
        0,
      ),
    );
    console.log(`web overview first load: ${bytes} bytes transferred`);
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThanOrEqual(150 * 1024);
    expect([...hosts]).toEqual([`127.0.0.1:${web.port}`]);
    await fresh.close();
    expect(problems).toEqual([]);
  });
});
