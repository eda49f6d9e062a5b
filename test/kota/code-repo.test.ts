/** Which sessions get the kota_* tools: folders in a TS/JS project, decided from a few real files on disk. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { isCodeRepo } from "../../src/kota/code-repo.ts";
import { cleanupTempDirs, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

describe("isCodeRepo", () => {
  test("a package.json or tsconfig.json between the folder and the repository root says yes", () => {
    const root = writeRepo({ ".git/HEAD": "ref: refs/heads/main\n", "web/package.json": "{}", "web/src/deep/readme.md": "x" });
    const home = tempDir("kota-home-");
    expect(isCodeRepo(join(root, "web/src/deep"), home)).toEqual({ code: true, why: join(root, "web/package.json") });
    const ts = writeRepo({ ".git/HEAD": "x", "tsconfig.json": "{}", "docs/a.md": "x" });
    expect(isCodeRepo(join(ts, "docs"), home).code).toBe(true);
  });

  test("TS/JS files at the top of the folder or of the repository root say yes", () => {
    const home = tempDir("kota-home-");
    const flat = writeRepo({ "index.mjs": "export {}\n", "notes/a.md": "x", ".git/HEAD": "x" });
    expect(isCodeRepo(join(flat, "notes"), home)).toEqual({ code: true, why: join(flat, "index.mjs") });
    const here = writeRepo({ "tool.cts": "export {}\n" });
    expect(isCodeRepo(here, home).code).toBe(true);
  });

  test("documents, other languages, markers above the repository root or in the home folder say no", () => {
    const home = tempDir("kota-home-");
    const docs = writeRepo({ ".git/HEAD": "x", "README.md": "x", "main.py": "print(1)\n", "src/lib.rs": "fn main() {}\n" });
    expect(isCodeRepo(docs, home).code).toBe(false);
    expect(isCodeRepo(join(docs, "src"), home).code).toBe(false);
    // A package.json above the checkout belongs to something else.
    const outer = writeRepo({ "package.json": "{}", "inner/.git/HEAD": "x", "inner/a.md": "x" });
    expect(isCodeRepo(join(outer, "inner"), home).code).toBe(false);
    // Without .git the walk stops at the home folder, which is never counted.
    const h = writeRepo({ "package.json": "{}", "notes/a.md": "x" });
    mkdirSync(join(h, "notes/sub"));
    expect(isCodeRepo(join(h, "notes/sub"), h).code).toBe(false);
    expect(isCodeRepo(join(home, "missing")).code).toBe(false);
  });
});
