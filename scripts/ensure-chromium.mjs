// Before the tests: the web page's browser tests need Debian's Chromium. Installs it with apt-get
// where this process may (root, apt-get present); otherwise says why, and those tests skip
// (or fail under CI=true, where they must run). Never fails the test command by itself.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const BROWSERS = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const have = () => BROWSERS.some((b) => existsSync(b));

if (have() || process.env.PI_SIDECAR_NO_BROWSER_INSTALL === "1") process.exit(0);
const root = typeof process.getuid === "function" && process.getuid() === 0;
const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
if (!root || !apt) {
  console.error(
    `pretest: Chromium is not installed and cannot be installed here (${!apt ? "no apt-get" : "not root"}): the browser tests will skip. Install it with \`apt-get install chromium\`.`,
  );
  process.exit(0);
}
console.error("pretest: installing Debian's chromium for the browser tests (apt-get) ...");
try {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { stdio: ["ignore", "ignore", "inherit"], env });
} catch (error) {
  console.error(`pretest: apt-get could not install chromium (${error.message}): the browser tests will skip (fail under CI=true).`);
}
process.exit(0);
