// TypeScript's parse-only time as a user's tsc meets it: a fresh process (run with node, the runtime
// tsc runs on), the compiler loaded, every file read first; only the createSourceFile loop is timed.
// Usage: node bench/kota/ts-parse-cold.mjs ROOT LIST.json  ->  one JSON line {files, wallMs, cpuMs}
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const [root, list] = process.argv.slice(2);
const texts = JSON.parse(readFileSync(list, "utf8")).map((p) => [p, readFileSync(join(root, p), "utf8")]);
const c0 = process.cpuUsage();
const t0 = performance.now();
for (const [p, t] of texts) ts.createSourceFile(p, t, ts.ScriptTarget.Latest, true);
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ files: texts.length, wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 }));
