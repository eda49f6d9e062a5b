/**
 * Which files exist for the index in a git work tree: git's list (tracked, plus untracked and not
 * ignored), with .git/info/exclude and core.excludesFile counting; sensitive files never.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readIndexPaths } from "../../src/kota/builtin/files/git-files.ts";
import { cleanupTempDirs, git, ok, openIndex, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

async function indexedPaths(root: string): Promise<string[]> {
  const { kota, db } = openIndex(root);
  ok(await kota.index());
  const rows = db.query<{ path: string }, []>("SELECT path FROM code_files ORDER BY path").all();
  await kota.close();
  return rows.map((r) => r.path);
}

describe("kota builtin: git's list of files", () => {
  test("a tracked file that a .gitignore matches is indexed, and resolves; untracked ignored files are not", async () => {
    const root = writeRepo({
      "package.json": '{ "name": "root", "workspaces": ["packages/*"] }',
      "packages/core/package.json": '{ "name": "@x/core", "main": "./src/index.ts" }',
      "packages/core/src/index.ts": "export const core = 1;\n",
      // The package's own .gitignore matches its package.json, which is nonetheless committed.
      "packages/core/.gitignore": "**/package.json\ngenerated/\n",
      "packages/core/generated/tracked.ts": 'import { core } from "../src/index";\nexport const g = core;\n',
      "packages/core/generated/untracked.ts": "export const u = 1;\n",
      "packages/app/src/main.ts": 'import { core } from "@x/core";\nexport const m = core;\n',
    });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "add", "-f", "packages/core/package.json", "packages/core/generated/tracked.ts");
    git(root, "commit", "-qm", "init");
    writeFileSync(join(root, "packages/core/generated/untracked.ts"), "export const u = 2;\n");
    const paths = await indexedPaths(root);
    expect(paths).toEqual(["packages/app/src/main.ts", "packages/core/generated/tracked.ts", "packages/core/src/index.ts"]);
    const { kota } = openIndex(root);
    ok(await kota.index());
    // The workspace package resolves because its (ignored, tracked) package.json was read.
    const deps = ok(await kota.deps({ file: "packages/core/src/index.ts", direction: "dependents" }));
    expect(deps.dependents.direct).toEqual(["packages/app/src/main.ts", "packages/core/generated/tracked.ts"]);
    const why = await kota.deps({ file: "packages/core/generated/untracked.ts" });
    expect(why.ok ? "" : why.message).toContain("git does not track it");
    await kota.close();
  });

  test(".git/info/exclude and core.excludesFile count as ignore rules", async () => {
    const root = writeRepo({
      "src/a.ts": "export const a = 1;\n",
      "src/local-only.ts": "export const l = 1;\n",
      "src/mine.scratch.ts": "export const s = 1;\n",
    });
    git(root, "init", "-q");
    writeFileSync(join(root, ".git/info/exclude"), "local-only.ts\n");
    const ignoreFile = join(tempDir("kota-gitcfg-"), "global-ignore");
    writeFileSync(ignoreFile, "*.scratch.ts\n");
    git(root, "config", "core.excludesFile", ignoreFile);
    expect(await indexedPaths(root)).toEqual(["src/a.ts"]);
  });

  test("sensitive files (.env.ts, credentials) are never indexed, tracked or not", async () => {
    const root = writeRepo({
      "src/a.ts": "export const a = 1;\n",
      ".env.ts": 'export const TOKEN = "x";\n',
      "config/.env.production.js": "module.exports = {};\n",
      "src/credentials.ts": "export const c = 1;\n",
    });
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "init");
    expect(await indexedPaths(root)).toEqual(["src/a.ts"]);
    const { kota } = openIndex(root);
    ok(await kota.index());
    const why = await kota.deps({ file: ".env.ts" });
    expect(why.ok ? "" : why.message).toContain("never indexed");
    await kota.close();
  });

  test("the index file is read in versions 2, 3 and 4", () => {
    for (const version of ["2", "3", "4"]) {
      const root = writeRepo({ "a.ts": "1", "dir/b.ts": "2", "dir/deeper/c.ts": "3", "dir/deeper/d.ts": "4" });
      git(root, "init", "-q");
      git(root, "config", "index.version", version);
      git(root, "add", "-A");
      if (version === "3") git(root, "update-index", "--skip-worktree", "dir/b.ts"); // an extended flag
      const paths = readIndexPaths(readFileSync(join(root, ".git/index")));
      expect({ version, paths }).toEqual({ version, paths: ["a.ts", "dir/b.ts", "dir/deeper/c.ts", "dir/deeper/d.ts"] });
    }
  });
});
