// A separate process that captures into a shared database (used by open.test.ts).
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";

const [path, worker, count] = process.argv.slice(2) as [string, string, string];
const config = defaultConfig();
config.db = path;
const engine = createEngine({ config });
for (let i = 0; i < Number(count); i++) {
  const lines = Array.from({ length: 400 + i }, (_, k) => `w${worker} line ${k} payload ${(k * 7919 + i) % 10007}`);
  lines.push(`worker${worker}marker${i}`);
  const r = await engine.capture({ text: lines.join("\n"), tool: `writer${worker}`, session: `w${worker}` });
  if (!r.stored) throw new Error("expected a capture");
  // Readers run alongside the writers.
  const s = await engine.search({ query: `worker${worker}marker${i}` });
  if (!s.ok || s.hits.length === 0) throw new Error(`own capture not found: worker${worker}marker${i}`);
  process.stdout.write(`${r.sourceId}\n`);
}
await engine.close();
