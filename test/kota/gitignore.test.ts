import { describe, expect, test } from "bun:test";
import { isIgnored, parseGitignore } from "../../src/kota/builtin/files/gitignore.ts";

describe("kota gitignore subset", () => {
  const rules = [
    ...parseGitignore(
      ["# comment", "", "*.log", "/root-only.ts", "build/", "docs/**/draft-*.md", "!keep.log", "a?c.ts", "[bc]at.ts"].join("\n"),
      ".",
    ),
    ...parseGitignore("local.ts\n!/nested-keep.log\n", "pkg"),
  ];
  const cases: [string, boolean, boolean][] = [
    ["x.log", false, true],
    ["deep/x.log", false, true],
    ["keep.log", false, false], // negated
    ["root-only.ts", false, true],
    ["src/root-only.ts", false, false], // anchored to the root
    ["build", true, true],
    ["src/build", true, true],
    ["build", false, false], // dir-only rule, a file named build
    ["docs/a/b/draft-1.md", false, true],
    ["docs/draft-2.md", false, true], // ** matches no folder too
    ["abc.ts", false, true],
    ["abbc.ts", false, false],
    ["cat.ts", false, true],
    ["hat.ts", false, false],
    ["pkg/local.ts", false, true],
    ["local.ts", false, false], // a nested .gitignore applies below its folder only
    ["pkg/nested-keep.log", false, false], // deeper file re-includes
  ];
  for (const [path, dir, expected] of cases) {
    test(`${path}${dir ? "/" : ""} -> ${expected ? "ignored" : "kept"}`, () => {
      expect(isIgnored(rules, path, dir)).toBe(expected);
    });
  }
});
