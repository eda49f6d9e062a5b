/**
 * The compiled binary's page with no network: run inside a network namespace with only loopback,
 * it serves every panel, and Chromium loads the overview (chart included) from this server alone.
 *
 *   bun build.ts && unshare -n sh -c 'ip link set lo up; bun bench/web/offline.ts dist/pi-sidecar'
 */
import { chromium } from "playwright-core";
import { seedStore } from "../../test/web/harness.ts";

const PANELS = ["/sources?q=ZEBRA_NEEDLE_4711", "/retrievals", "/readcache", "/gateway", "/code", "/pruning", "/memory"];

const bin = process.argv[2];
if (!bin) throw new Error("usage: bun bench/web/offline.ts PATH_TO_PI_SIDECAR");
const seeded = await seedStore(7);
const proc = Bun.spawn([bin, "--db", seeded.path, "web", "--json"], { stdout: "pipe", stderr: "pipe" });
const reader = proc.stdout.getReader();
let out = "";
while (!out.includes("\n")) {
  const { value, done } = await reader.read();
  if (done) throw new Error(`the binary exited: ${await new Response(proc.stderr).text()}`);
  out += new TextDecoder().decode(value);
}
const { url } = JSON.parse(out) as { url: string };
const browser = await chromium.launch({ executablePath: process.env.PI_SIDECAR_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const failures: string[] = [];
try {
  const page = await browser.newPage();
  const hosts = new Set<string>();
  page.on("request", (r) => hosts.add(new URL(r.url()).host));
  page.on("pageerror", (e) => failures.push(`page error: ${e.message}`));
  const first = await page.goto(url);
  if (first?.status() !== 200) failures.push(`overview: ${first?.status()}`);
  await page.locator(".chart canvas").first().waitFor({ timeout: 10_000 });
  const net = await page.locator('[data-metric="netSavedTokens"]').textContent();
  for (const path of PANELS) {
    const r = await page.goto(new URL(path, url).toString());
    if (r?.status() !== 200) failures.push(`${path}: ${r?.status()}`);
  }
  const own = new URL(url).host;
  if ([...hosts].some((h) => h !== own)) failures.push(`requests to other hosts: ${[...hosts].join(", ")}`);
  console.log(`overview net saved ${net}; ${PANELS.length + 1} panels; hosts asked: ${[...hosts].join(", ")}`);
} finally {
  await browser.close();
  proc.kill("SIGTERM");
  await proc.exited;
}
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("offline: PASS");
