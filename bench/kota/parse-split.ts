/**
 * Where the parser process spends its time, stage by stage, in this one process (no pool, no
 * database): read + hash, the nesting look, oxc's parse (as the parser process does it: raw transfer
 * and oxc's deserializer; with `--json`, the JSON transfer split into the native parse, which returns
 * the AST as a JSON string, and JSON.parse), the module pass, the reference walk (references grouped
 * per target as they are found), JSDoc, and the reply's JSON.stringify. CPU time per stage summed over the repository's files:
 * the first pass (cold code, as in a parser process) and the best of `--runs` more.
 * Run it as the parser runs (BUN_JSC_useFTLJIT=0): bun bench/kota/parse-split.ts REPO [--runs 3] [--json]
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256 } from "../../src/hash.ts";
import { fileView, scanRepository } from "../../src/kota/builtin/files/scan.ts";
import type { N } from "../../src/kota/builtin/parse/ast.ts";
import { extractJsdocRefs } from "../../src/kota/builtin/parse/extract-jsdoc.ts";
import { extractModule } from "../../src/kota/builtin/parse/extract-module.ts";
import { extractRefs } from "../../src/kota/builtin/parse/extract-refs.ts";
import { factsBuilder } from "../../src/kota/builtin/parse/facts.ts";
import { nestingProblem } from "../../src/kota/builtin/parse/nesting.ts";
import { loadBinding, parseSource } from "../../src/kota/builtin/parse/oxc-binding.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};

const STAGES = ["read+hash", "nesting", "oxc parse", "JSON.parse", "module", "refs", "jsdoc", "stringify"] as const;
type Stage = (typeof STAGES)[number];

const JSON_TRANSFER = process.argv.includes("--json");
// The same native binding the parser process loads, called here in two steps (--json).
const binding = loadBinding()!;
type Comment = { type: string; value: string; start: number };

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

function pass(root: string, files: string[]): Record<Stage, number> {
  const t: Record<Stage, number> = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  let at = cpuMs();
  const lap = (s: Stage) => {
    const now = cpuMs();
    t[s] += now - at;
    at = now;
  };
  for (const path of files) {
    const bytes = readFileSync(join(root, path));
    const hash = sha256(bytes);
    const text = bytes.toString("utf8");
    lap("read+hash");
    if (nestingProblem(text)) continue;
    lap("nesting");
    const b = factsBuilder(text);
    let parsed: { program: unknown; comments: Comment[] };
    if (JSON_TRANSFER) {
      const raw = binding.parseSync(path, text, { preserveParens: false });
      lap("oxc parse");
      const program = (JSON.parse(raw.program) as { node: N }).node;
      lap("JSON.parse");
      if (raw.errors.length > 0) continue;
      parsed = { program, comments: raw.comments };
    } else {
      const p = parseSource(path, text, { comments: text.includes("/**") });
      lap("oxc parse");
      if (!p.program) continue;
      parsed = p;
    }
    const scope = extractModule(b, parsed.program as unknown as N);
    lap("module");
    extractRefs(b, parsed.program as unknown as N, scope);
    lap("refs");
    if (text.includes("/**")) extractJsdocRefs(b, parsed.comments, scope);
    lap("jsdoc");
    JSON.stringify({ id: 1, hash, facts: { symbols: b.symbols, imports: b.imports, exports: b.exports, refs: b.refs, error: b.error } });
    lap("stringify");
  }
  return t;
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? ".");
  const runs = Number(arg("runs", "3"));
  const files = scanRepository(root, fileView(root))!.sources.map((s) => s.path);
  const cold = pass(root, files);
  const best: Record<Stage, number>[] = [];
  for (let i = 0; i < runs; i++) best.push(pass(root, files));
  const total = (r: Record<Stage, number>) => STAGES.reduce((s, k) => s + r[k], 0);
  const min = best.reduce((a, r) => (total(r) < total(a) ? r : a));
  const all = total(min);
  console.log(`${root}: ${files.length} files, parser work ${Math.round(all)} ms CPU (best of ${runs})`);
  const coldAll = total(cold);
  console.log(`  ${"stage".padEnd(11)} ${"warm".padStart(9)}         ${"first pass".padStart(10)}`);
  for (const s of STAGES)
    console.log(
      `  ${s.padEnd(11)} ${String(Math.round(min[s])).padStart(6)} ms ${((100 * min[s]) / all).toFixed(1).padStart(5)}%  ${String(Math.round(cold[s])).padStart(6)} ms ${((100 * cold[s]) / coldAll).toFixed(1).padStart(5)}%`,
    );
  console.log(`  ${"total".padEnd(11)} ${String(Math.round(all)).padStart(6)} ms         ${String(Math.round(coldAll)).padStart(6)} ms`);
}
