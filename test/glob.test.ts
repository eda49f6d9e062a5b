/** src/glob.ts: both dialects agree with the meanings their users rely on, and matching never backtracks. */
import { describe, expect, test } from "bun:test";
import { compileGlob, globMatch } from "../src/glob.ts";

describe("globs (tool names, sensitive paths)", () => {
  const cases: [string, string, boolean][] = [
    ["read_*", "read_file", true],
    ["read_*", "write_file", false],
    ["*", "anything", true],
    ["*.pem", "server.pem", true],
    ["*.pem", "dir/server.pem", false], // `*` stays within a segment
    ["**/*.pem", "dir/sub/server.pem", true],
    ["**/*.pem", "server.pem", true], // `**/` matches no folder too
    ["secrets/**", "secrets/a/b", true],
    ["a?c", "abc", true],
    ["a?c", "a/c", false],
    ["[ab].txt", "[ab].txt", true], // brackets are literal in this dialect
    ["x.y", "xzy", false],
    [".env*", ".env.local", true],
    [".env*", ".env/x", false],
    ["*a*b", "xaxxb", true],
    ["*a*b", "xaxxc", false],
  ];
  for (const [glob, text, expected] of cases) {
    test(`${glob} ~ ${text} -> ${expected}`, () => expect(globMatch(glob, text)).toBe(expected));
  }

  test("ignoreCase folds both sides", () => {
    expect(globMatch("*.PEM", "key.pem", { ignoreCase: true })).toBe(true);
    expect(globMatch("*.PEM", "key.pem")).toBe(false);
  });

  test("gitignore dialect: classes, escapes, and ** only between slashes", () => {
    const g = (p: string, t: string) => compileGlob(p, { gitignore: true }).test(t);
    expect(g("[bc]at.ts", "cat.ts")).toBe(true);
    expect(g("[!bc]at.ts", "cat.ts")).toBe(false);
    expect(g("[a-c]at.ts", "bat.ts")).toBe(true);
    expect(g("\\*.ts", "*.ts")).toBe(true);
    expect(g("\\*.ts", "a.ts")).toBe(false);
    expect(g("a**b", "axxb")).toBe(true);
    expect(g("a**b", "ax/xb")).toBe(false); // not between slashes: one asterisk
    expect(g("docs/**/draft.md", "docs/draft.md")).toBe(true);
    expect(g("docs/**/draft.md", "docs/a/b/draft.md")).toBe(true);
    expect(g("docs/**", "docs/a/b")).toBe(true);
    expect(g("é*", "éa")).toBe(true);
    expect(g("😀?", "😀x")).toBe(true);
  });

  // A regular expression built from this pattern backtracks for minutes on a 40-character name.
  test("the longest literal run is only a first look: matches across wildcards, escapes, classes and case still match", () => {
    const g = (p: string, t: string, o = {}) => compileGlob(p, o).test(t);
    expect(g("src/**/generated-*.ts", "src/a/b/generated-x.ts")).toBe(true);
    expect(g("src/**/generated-*.ts", "src/a/b/generate-x.ts")).toBe(false);
    expect(g("build\\*out", "build*out", { gitignore: true })).toBe(true); // an escaped star is a literal
    expect(g("build\\*out", "buildXout", { gitignore: true })).toBe(false);
    expect(g("log[0-9]/latest-run.txt", "log7/latest-run.txt", { gitignore: true })).toBe(true);
    expect(g("**/Long-Name?.TXT", "a/long-name1.txt", { ignoreCase: true })).toBe(true);
    expect(g("**/Long-Name?.TXT", "a/long-nam1.txt", { ignoreCase: true })).toBe(false);
    // The same glob asked twice in a row answers each text on its own (its state sets are reused).
    const once = compileGlob("**/cache/**");
    expect([once.test("a/cache/b"), once.test("a/cash/b"), once.test("cache/x")]).toEqual([true, false, true]);
  });

  test("a pattern of many stars against a long name answers at once", () => {
    const pattern = `${"*a".repeat(13)}*b`;
    const name = "a".repeat(40);
    for (const gitignore of [false, true]) {
      expect(compileGlob(pattern, { gitignore }).test(name)).toBe(false);
      expect(compileGlob(pattern, { gitignore }).test(`${name}b`)).toBe(true);
      expect(compileGlob(`**/${pattern}`, { gitignore }).test(`x/y/${name}`)).toBe(false);
    }
  }, 5_000);
});

describe("remembered state sets (a test walks from set to set)", () => {
  // Patterns and texts of our own: every dialect feature, texts that match, almost match, or run past the pattern.
  const patterns: [string, { ignoreCase?: boolean; gitignore?: boolean }][] = [
    ["src/**/*.ts", {}],
    ["src/**/*.test.ts", {}],
    ["**/fixtures/**/*", {}],
    ["pkg/**/__mocks__/**/*", {}],
    ["**/vite*config*", {}],
    ["a?c/**/x*y*z", {}],
    ["**/*", {}],
    ["Docs/**/*.MD", { ignoreCase: true }],
    ["**/[Tt]est[s]/*.js", { gitignore: true }],
    ["build/**/\\*.log", { gitignore: true }],
    ["x**y/**/[!a-c]?", { gitignore: true }],
  ];
  const texts = [
    "",
    "src",
    "src/a.ts",
    "src/deep/er/a.test.ts",
    "src/deep/er/a.test.tsx",
    "lib/src/a.ts",
    "fixtures/a",
    "x/fixtures/y/z.json",
    "pkg/a/__mocks__/b/c.ts",
    "pkg/__mocks__/c.ts",
    "packages/vite.config.ts",
    "a/vitest-config/x",
    "abc/q/xAyBz",
    "abc/q/r/x-y-z",
    "docs/guide/intro.md",
    "DOCS/a.md",
    "tests/unit.js",
    "a/Tests/unit.js",
    "a/test/b/unit.js",
    "build/x/*.log",
    "build/x/a.log",
    "xay/q/dz",
    "x/y/q/ab",
    "src/ünï/🙂.ts",
    "src/\ud800.ts",
  ];

  test("the same answers as stepping every live state, however many sets are kept", () => {
    for (const [pattern, options] of patterns) {
      const slow = compileGlob(pattern, { ...options, maxSets: 0 });
      const few = compileGlob(pattern, { ...options, maxSets: 2 });
      const fast = compileGlob(pattern, options);
      for (let round = 0; round < 2; round++)
        for (const text of texts) {
          const expected = slow.test(text);
          expect([pattern, text, few.test(text)]).toEqual([pattern, text, expected]);
          expect([pattern, text, fast.test(text)]).toEqual([pattern, text, expected]);
        }
    }
  });

  test("known answers through the remembered sets", () => {
    const g = compileGlob("src/**/*.ts");
    expect(["src/a.ts", "src/a/b/c.ts", "src/a.tsx", "lib/a.ts", "src/a.ts"].map((t) => g.test(t))).toEqual([
      true,
      true,
      false,
      false,
      true,
    ]);
    const f = compileGlob("**/fixtures/**/*");
    expect(["fixtures/a", "a/fixtures/b/c", "a/myfixtures/b", "fixtures"].map((t) => f.test(t))).toEqual([true, true, false, false]);
  });
});
