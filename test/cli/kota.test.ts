/**
 * `pi-sidecar kota ...` as a script uses it: real processes, exit codes 0/1/2, `--json` in the
 * contract's shapes, inside a repository or with --repo.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanupTempDirs, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

const ENTRY = join(import.meta.dir, "../kota/cli-entry.ts");

function repo(): string {
  const root = tempDir();
  const files: Record<string, string> = {
    "package.json": '{"name":"demo"}\n',
    "src/a.ts": 'import { b } from "./b";\nexport function a() {\n  return b() + 1;\n}\n',
    "src/b.ts": 'import { c } from "./lib/c";\nexport function b() {\n  return c;\n}\n',
    "src/lib/c.ts": "export const c = 2;\n",
    "src/main.ts": 'import { a } from "./a";\nimport "./missing";\nconsole.log(a());\n',
    "src/a.test.ts": 'import { a } from "./a";\nif (a() !== 3) throw new Error("a");\n',
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

function kota(args: string[], opts: { cwd?: string; home: string }) {
  const r = Bun.spawnSync([process.execPath, ENTRY, ...args], {
    cwd: opts.cwd ?? opts.home,
    env: { PATH: process.env.PATH ?? "", HOME: opts.home, PI_CODING_AGENT_DIR: join(opts.home, "agent") },
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = r.stdout.toString();
  return { code: r.exitCode, stdout, stderr: r.stderr.toString(), json: () => JSON.parse(stdout) };
}

describe("pi-sidecar kota", () => {
  test("index, deps, usages, search, impact, context, status: --json in the contract's shapes", () => {
    const root = repo();
    const home = tempDir();
    const notYet = kota(["kota", "deps", "src/a.ts"], { cwd: root, home });
    expect(notYet.code).toBe(1);
    expect(notYet.stderr).toContain("has not been indexed yet. Run kota index first");

    const index = kota(["--json", "kota", "index"], { cwd: join(root, "src/lib"), home });
    expect(index.code).toBe(0);
    const ij = index.json();
    expect(Object.keys(ij)).toEqual(["repository", "files", "symbols", "references", "ms"]);
    expect(ij).toMatchObject({ repository: root, files: 5 });

    const deps = kota(["kota", "deps", "src/b.ts", "--direction", "both", "--depth", "2", "--json", "--repo", root], { home });
    expect(deps.code).toBe(0);
    expect(deps.json()).toEqual({
      file: "src/b.ts",
      direction: "both",
      dependencies: { direct: ["src/lib/c.ts"], indirect: {} },
      dependents: { direct: ["src/a.ts"], indirect: { "2": ["src/a.test.ts", "src/main.ts"] } },
      unresolved: [],
    });
    const main = kota(["kota", "deps", join(root, "src/main.ts"), "--json"], { cwd: root, home }).json();
    expect(main.unresolved).toEqual(["./missing"]);

    const usages = kota(["--json", "kota", "usages", "a", "--file", "src/a.ts"], { cwd: root, home }).json();
    expect(Object.keys(usages)).toEqual(["symbol", "definedIn", "usages"]);
    expect(usages.definedIn).toEqual([{ file: "src/a.ts", line: 2 }]);
    expect(
      usages.usages.map((u: { file: string; line: number; column: number; kind: string }) => `${u.file}:${u.line}:${u.column}:${u.kind}`),
    ).toEqual(["src/a.test.ts:1:10:import", "src/a.test.ts:2:5:call", "src/main.ts:1:10:import", "src/main.ts:3:13:call"]);
    expect(usages.usages[0].context).toBe('import { a } from "./a";');

    const search = kota(["--json", "kota", "search", "return", "--output", "paths", "--limit", "5"], { cwd: root, home }).json();
    expect(search.paths.map((p: { path: string }) => p.path).sort()).toEqual(["src/a.ts", "src/b.ts"]);

    const impact = kota(["--json", "kota", "impact", "--modify", "src/lib/c.ts", "--delete", "src/b.ts"], { cwd: root, home }).json();
    expect(impact.risk).toBe("high");
    expect(impact.tests).toEqual(["src/a.test.ts"]);
    expect(impact.warnings.join(" ")).toContain("import(s) of deleted files");

    const context = kota(["--json", "kota", "context", "src/a.ts", "src/b.ts"], { cwd: root, home }).json();
    expect(context.files.map((f: { file: string; tests: string[] }) => [f.file, f.tests])).toEqual([
      ["src/a.ts", ["src/a.test.ts"]],
      ["src/b.ts", []],
    ]);

    const status = kota(["--json", "kota", "status"], { cwd: root, home }).json();
    expect(status).toMatchObject({ backend: "builtin", repository: root, indexed: true, files: 5 });
    // Text for people.
    const text = kota(["kota", "deps", "src/b.ts"], { cwd: root, home });
    expect(text.stdout).toContain("deps of src/b.ts\nimports (dependencies) (1):\n  direct (1):\n    src/lib/c.ts");
  });

  test("usage errors exit 2, failures exit 1, each with the message on stderr", () => {
    const root = repo();
    const home = tempDir();
    for (const args of [
      ["kota"],
      ["kota", "frob"],
      ["kota", "search"],
      ["kota", "deps"],
      ["kota", "deps", "a.ts", "b.ts"],
      ["kota", "deps", "src/a.ts", "--depth", "5"],
      ["kota", "deps", "src/a.ts", "--direction", "up"],
      ["kota", "impact"],
      ["kota", "context"],
      ["kota", "status", "--backend", "elastic"],
      ["kota", "search", "x", "--output", "everything"],
    ]) {
      const r = kota(args, { cwd: root, home });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toStartWith("pi-sidecar: ");
      expect(r.stdout).toBe("");
    }
    expect(kota(["kota", "index"], { cwd: root, home }).code).toBe(0);
    for (const [args, text] of [
      [["kota", "deps", "/etc/hostname"], "outside the repository"],
      [["kota", "deps", "src/nope.ts"], "does not exist"],
      [["kota", "usages", "nothingHere"], "No symbol named nothingHere"],
      [["kota", "status", "--repo", join(root, "no-such-dir")], "does not exist"],
    ] as const) {
      const r = kota([...args], { cwd: root, home });
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toContain(text);
    }
  });
});
