/**
 * The shape of src/, checked: no import cycles, no subsystem reaching into a sibling's files (what
 * spans subsystems goes through the engine and maintenance.ts), each subsystem used from outside
 * only through its public face (index.ts), surfaces never touch SQLite, and no file grows past
 * 400 lines. Each rule says, when it fails, which import or file breaks it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";
import { ROOT } from "./helpers.ts";

const SRC = join(ROOT, "src");
/** Folders that hold one subsystem each; they may use shared infrastructure but not each other. */
const SUBSYSTEMS = ["store", "readcache", "gateway", "kota", "prune", "memory", "runner"];
/** Shared by every subsystem. */
const INFRASTRUCTURE = ["db", "redact", "tokens"];

const files = [...new Glob("**/*.ts").scanSync({ cwd: SRC })].map((f) => join(SRC, f));

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s*["']([^"']+)["']/g),
    ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g),
  ];
  return specs.map((m) => m[1]!);
}

const rel = (file: string) => relative(SRC, file);
const folderOf = (file: string) => (rel(file).includes("/") ? rel(file).split("/")[0]! : "");

const graph = new Map<string, string[]>(
  files.map((f) => [
    f,
    importsOf(f)
      .filter((s) => s.startsWith("."))
      .map((s) => resolve(dirname(f), s))
      .filter((t) => t.endsWith(".ts")),
  ]),
);

describe("architecture", () => {
  test("no import cycles", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, "open");
      stack.push(f);
      for (const t of graph.get(f) ?? []) {
        if (state.get(t) === "open") cycles.push([...stack.slice(stack.indexOf(t)), t].map(rel).join(" -> "));
        else if (!state.has(t)) visit(t);
      }
      stack.pop();
      state.set(f, "done");
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  test("a subsystem never imports another subsystem's files", () => {
    const crossings: string[] = [];
    for (const [f, targets] of graph) {
      const from = folderOf(f);
      if (!SUBSYSTEMS.includes(from)) continue;
      for (const t of targets) {
        const to = folderOf(t);
        if (to !== from && (SUBSYSTEMS.includes(to) || to === "surfaces")) crossings.push(`${rel(f)} imports ${rel(t)}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  test("outside a subsystem, only its public face (index.ts) is imported", () => {
    const reaches: string[] = [];
    for (const [f, targets] of graph) {
      const from = folderOf(f);
      for (const t of targets) {
        const to = folderOf(t);
        if (SUBSYSTEMS.includes(to) && to !== from && relative(join(SRC, to), t) !== "index.ts")
          reaches.push(`${rel(f)} imports ${rel(t)}`);
      }
    }
    expect(reaches).toEqual([]);
  });

  test("infrastructure (db, redact, tokens) depends on no subsystem or surface", () => {
    const crossings: string[] = [];
    for (const [f, targets] of graph) {
      if (!INFRASTRUCTURE.includes(folderOf(f))) continue;
      for (const t of targets) if ([...SUBSYSTEMS, "surfaces"].includes(folderOf(t))) crossings.push(`${rel(f)} imports ${rel(t)}`);
    }
    expect(crossings).toEqual([]);
  });

  test("surfaces never touch SQLite: they go through the engine", () => {
    const touching = files
      .filter((f) => folderOf(f) === "surfaces")
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => s === "bun:sqlite" || /\/db\//.test(s))
          .map((s) => `${rel(f)} imports ${s}`),
      );
    expect(touching).toEqual([]);
  });

  test("outside db/ and the subsystems only the engine opens the database (the web page reads and writes through it)", () => {
    // The engine and what it runs beside it: its write path, housekeeping, the background worker.
    const ENGINE_FILES = ["engine.ts", "engine-writes.ts", "engine-options.ts", "maintenance.ts", "background.ts", "background-worker.ts"];
    const opening = files
      .filter((f) => ![...SUBSYSTEMS, ...INFRASTRUCTURE].includes(folderOf(f)) && !ENGINE_FILES.includes(rel(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => s === "bun:sqlite" || /(^|\/)db\//.test(s))
          .map((s) => `${rel(f)} imports ${s}`),
      );
    expect(opening).toEqual([]);
    // The page's two files are where this held last: said by name, so renaming them cannot hide it.
    const web = files.filter((f) => /^web|^surfaces\/web\//.test(rel(f)));
    expect(web.map(rel)).toContain("web-viewer.ts");
    expect(web.flatMap((f) => importsOf(f).filter((s) => /sqlite|(^|\/)db\//.test(s)))).toEqual([]);
  });

  test("no file over 400 lines (split it by concept)", () => {
    const long = files.map((f) => ({ f: rel(f), n: readFileSync(f, "utf8").split("\n").length })).filter((x) => x.n > 400);
    expect(long).toEqual([]);
  });
});
