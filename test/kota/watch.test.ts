/**
 * Freshness from inotify events: the kernel names what changed, and a query right after a write
 * sees it. Over a seeded random run of edits (written, created, deleted, renamed files and folders,
 * config and .gitignore changes), the index kept by events answers exactly as the stat-based one
 * and as a fresh index of the same tree.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../src/db/open.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { createDirWatcher, watchesInUse } from "../../src/kota/builtin/files/inotify.ts";
import { createParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";
import { cleanupTempDirs, ok, tempDir, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

const watcherWorks = createDirWatcher(tempDir()) !== null;

// One set of parser processes for every index these tests open (as the service shares one).
const parser = createParsePool();
afterAll(() => parser.close());

function index(root: string, watch: boolean): CodeIndexBackend {
  const db = openDatabase(join(tempDir("kota-watch-db-"), "s.db"), { migrations: [schemaSql] });
  return createBuiltinIndex({ db, root, freshnessMs: 0, watch, parser });
}

/** Every indexed file's dependencies and dependents, as one comparable value. */
async function snapshot(kota: CodeIndexBackend): Promise<Record<string, string>> {
  const r = ok(await kota.search({ query: "export", output: "paths", limit: 100 }));
  const out: Record<string, string> = {};
  for (const p of r.paths.map((x) => x.path).sort()) {
    const d = ok(await kota.deps({ file: p, direction: "both" }));
    out[p] = `${d.dependencies.direct.join(",")} | ${d.dependents.direct.join(",")} | ${d.unresolved.join(",")}`;
  }
  return out;
}

describe.skipIf(!watcherWorks)("inotify freshness", () => {
  test("the kernel's events name written, created and removed entries; a removed folder asks for a full check", () => {
    const root = writeRepo({ "src/a.ts": "export const a = 1\n" });
    const w = createDirWatcher(root)!;
    expect(w.add("src")).toBe(true);
    expect(w.add(".")).toBe(true);
    writeFileSync(join(root, "src/a.ts"), "export const a = 2\n");
    writeFileSync(join(root, "src/b.ts"), "export const b = 1\n");
    mkdirSync(join(root, "lib"));
    let e = w.drain();
    expect([...e.files].sort()).toEqual(["src/a.ts", "src/b.ts"]);
    expect([...e.newDirs]).toEqual(["lib"]);
    expect(e.overflow).toBe(false);
    expect(w.drain().files.size).toBe(0);
    rmSync(join(root, "src"), { recursive: true });
    e = w.drain();
    expect(e.overflow).toBe(true);
    w.close();
  });

  test("watches are capped per process: a repository with more folders than the budget is checked by stat, and still fresh", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`pkg${i}/src/m${i}.ts`] = `export const m${i} = ${i};\n`;
    const root = writeRepo(files);
    const db = openDatabase(join(tempDir("kota-watch-db-"), "s.db"), { migrations: [schemaSql] });
    const before = watchesInUse();
    const capped = createBuiltinIndex({ db, root, freshnessMs: 0, maxWatches: before + 20 });
    ok(await capped.index());
    ok(await capped.deps({ file: "pkg0/src/m0.ts" }));
    // 61 folders do not fit in 20: no watch is taken, and the stat-based check notices a new file.
    expect(watchesInUse()).toBe(before);
    writeFileSync(join(root, "pkg7/src/new.ts"), 'import { m7 } from "./m7";\nexport const n = m7;\n');
    const d = ok(await capped.deps({ file: "pkg7/src/m7.ts", direction: "dependents" }));
    expect(d.dependents.direct).toEqual(["pkg7/src/new.ts"]);
    await capped.close();
    // With room for them, every folder is watched, and closing gives them back.
    const roomy = createBuiltinIndex({ db, root, freshnessMs: 0, maxWatches: before + 100 });
    ok(await roomy.deps({ file: "pkg0/src/m0.ts" }));
    expect(watchesInUse()).toBe(before + 61);
    await roomy.close();
    expect(watchesInUse()).toBe(before);
  });

  test("a random run of edits: events, stat checks and a fresh index agree after every step", async () => {
    const seed = Number(process.env.KOTA_SEED ?? Date.now() % 100000);
    console.log(`watch.test seed ${seed} (KOTA_SEED=${seed} to repeat)`);
    let state = seed;
    const rand = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const files: Record<string, string> = {
      ".gitignore": "ignored/\n",
      "package.json": '{"name":"w"}\n',
      "tsconfig.json": '{"compilerOptions":{"baseUrl":".","paths":{"@lib/*":["lib/*"]}}}\n',
      "lib/util.ts": "export const util = 1\n",
    };
    for (let i = 0; i < 8; i++) files[`src/m${i}.ts`] = `import { util } from "@lib/util";\nexport const m${i} = util;\n`;
    const root = writeRepo(files);
    const byEvents = index(root, true);
    const byStats = index(root, false);
    ok(await byEvents.index());
    ok(await byStats.index());
    await snapshot(byEvents); // starts the watcher (and its first, full check)
    const live = () => Object.keys(files).filter((p) => p.endsWith(".ts"));
    const write = (p: string, text: string) => {
      mkdirSync(dirname(join(root, p)), { recursive: true });
      writeFileSync(join(root, p), text);
      files[p] = text;
    };
    let n = 100;
    const ops = [
      () => {
        const ts = live();
        const p = ts[rand(ts.length)]!;
        const target = ts[rand(ts.length)]!.replace(/\.ts$/, "");
        write(
          p,
          `import { x } from "${join("/", target).replace(/^\//, "").startsWith("lib/") ? "@lib/util" : `./${target.split("/").at(-1)}`}";\nexport const v${n++} = x;\n`,
        );
      },
      () => write(`src/n${n++}.ts`, `import { m0 } from "./m0";\nexport const y = m0;\n`),
      () => write(`pkg${n}/deep/d${n++}.ts`, `import { util } from "@lib/util";\nexport const d = util;\n`),
      () => {
        const ts = live().filter((p) => p.startsWith("src/"));
        if (ts.length < 3) return;
        const p = ts[rand(ts.length)]!;
        rmSync(join(root, p));
        delete files[p];
      },
      () => {
        const ts = live().filter((p) => p.startsWith("src/"));
        const p = ts[rand(ts.length)]!;
        const to = `src/renamed${n++}.ts`;
        renameSync(join(root, p), join(root, to));
        files[to] = files[p]!;
        delete files[p];
      },
      () => {
        const dirs = [...new Set(live().map((p) => p.split("/")[0]!))].filter((d) => d.startsWith("pkg"));
        if (dirs.length === 0) return;
        const d = dirs[rand(dirs.length)]!;
        rmSync(join(root, d), { recursive: true });
        for (const p of Object.keys(files)) if (p.startsWith(`${d}/`)) delete files[p];
      },
      () => {
        // A folder deleted and made again (a new inode under the same name).
        const dirs = [...new Set(live().map((p) => p.split("/").slice(0, -1).join("/")))].filter((d) => d.startsWith("pkg"));
        if (dirs.length === 0) return;
        const d = dirs[rand(dirs.length)]!;
        rmSync(join(root, d), { recursive: true });
        for (const p of Object.keys(files)) if (p.startsWith(`${d}/`)) delete files[p];
        write(`${d}/again${n++}.ts`, `import { m1 } from "../../src/m1";\nexport const again = m1;\n`);
      },
      () => write("ignored/hidden.ts", "export const hidden = 1\n"),
      () => write(".gitignore", rand(2) ? "ignored/\n" : "ignored/\npkg*/\n"),
      () => write("tsconfig.json", `{"compilerOptions":{"baseUrl":".","paths":{"@lib/*":["${rand(2) ? "lib" : "src"}/*"]}}}\n`),
    ];
    for (let step = 0; step < 40; step++) {
      const op = rand(ops.length);
      ops[op]!();
      const fresh = index(root, false);
      const counted = ok(await fresh.index());
      const truth = await snapshot(fresh);
      expect({ step, op, events: await snapshot(byEvents) }).toEqual({ step, op, events: truth });
      expect({ step, op, stats: await snapshot(byStats) }).toEqual({ step, op, stats: truth });
      // Totals kept by deltas match a count from scratch.
      const totals = (r: { files: number; symbols: number; references: number }) => [r.files, r.symbols, r.references];
      expect({ step, totals: totals(ok(await byEvents.index())) }).toEqual({ step, totals: totals(counted) });
      await fresh.close();
    }
    await byEvents.close();
    await byStats.close();
  }, 60_000);
});
