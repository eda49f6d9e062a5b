// Fails when `npm install` on a fresh clone would rewrite package-lock.json: resolves package.json
// against the committed lockfile in a scratch folder (no node_modules, no install scripts) and
// compares. Run by CI (.github/workflows/ci.yml) and by hand: `node scripts/check-lockfile.mjs`.
// Fix a failure with `npm install` (the npm version below) and commit the lockfile it writes.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "pi-sidecar-lockfile-"));
try {
  for (const f of ["package.json", "package-lock.json"]) copyFileSync(join(root, f), join(scratch, f));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const version = execFileSync(npm, ["--version"], { encoding: "utf8" }).trim();
  execFileSync(npm, ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: scratch,
    stdio: "inherit",
  });
  const committed = readFileSync(join(root, "package-lock.json"), "utf8").split("\n");
  const produced = readFileSync(join(scratch, "package-lock.json"), "utf8").split("\n");
  const first = committed.findIndex((line, i) => line !== produced[i]);
  if (first === -1 && committed.length === produced.length) {
    console.error(`package-lock.json is what npm ${version} produces from package.json.`);
  } else {
    const at = first === -1 ? Math.min(committed.length, produced.length) : first;
    console.error(
      `package-lock.json drifts: npm ${version} writes ${produced.length} lines where ${committed.length} are committed, ` +
        `first difference at line ${at + 1}:\n  committed: ${committed[at] ?? "(end)"}\n  npm:       ${produced[at] ?? "(end)"}\n` +
        "Run `npm install` and commit the package-lock.json it writes.",
    );
    process.exitCode = 1;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
