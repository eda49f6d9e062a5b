/**
 * Debian's Chromium for the browser tests (browser downloads cannot reach their hosts here):
 * PI_SIDECAR_CHROMIUM, else /usr/bin/chromium, else installed with apt-get when this user can.
 * Without one the tests are skipped with the reason printed, except under CI=true, where they fail.
 */
import { existsSync } from "node:fs";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

function found(): string | null {
  const env = process.env.PI_SIDECAR_CHROMIUM;
  if (env && existsSync(env)) return env;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export type ChromiumLookup = { path: string; skip: null } | { path: null; skip: string };

export function findChromium(): ChromiumLookup {
  let path = found();
  if (!path && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("web browser tests: installing Debian's chromium (apt-get install -y chromium)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const install = () =>
      Bun.spawnSync(["apt-get", "install", "-y", "--no-install-recommends", "chromium"], { env, stdout: "inherit", stderr: "inherit" });
    if (install().exitCode !== 0) {
      Bun.spawnSync(["apt-get", "update"], { env, stdout: "inherit", stderr: "inherit" });
      install();
    }
    path = found();
  }
  if (path) return { path, skip: null };
  const reason = `no Chromium (looked at PI_SIDECAR_CHROMIUM, ${CANDIDATES.join(", ")}; apt-get install chromium ${
    process.getuid?.() === 0 ? "failed" : "needs root"
  })`;
  if (process.env.CI === "true") throw new Error(`web browser tests must run under CI=true, but: ${reason}`);
  console.log(`web browser tests skipped: ${reason}`);
  return { path: null, skip: reason };
}
