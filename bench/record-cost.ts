/**
 * What writing a retrieval record before each answer costs a search and a get: the same engine
 * (worker background, as pi and mcp run it) answering the same calls, median and p90 per call.
 * Run: bun bench/record-cost.ts [calls]. Compare against a checkout before the change.
 */
import { join } from "node:path";
import { createEngine } from "../src/engine.ts";
import { TOOL_CALLS } from "../src/store/next-calls.ts";
import { noisyLog, tempDir, testConfig } from "../test/helpers.ts";

const calls = Number(process.argv[2] ?? 300);
const engine = createEngine({ config: testConfig(join(tempDir(), "b.db")), calls: TOOL_CALLS });
const ids: string[] = [];
for (let i = 0; i < 40; i++) {
  const r = await engine.capture({
    text: noisyLog(1500, i, { line: 700, text: `needle${i} timeout in shard ${i}` }),
    tool: "bash",
    force: true,
  });
  if (r.stored) ids.push(r.sourceId);
}
await engine.settle();
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!.toFixed(2);
const search: number[] = [];
const get: number[] = [];
for (let i = 0; i < calls; i++) {
  let t = performance.now();
  await engine.search({ query: `needle${i % 40} timeout` });
  search.push(performance.now() - t);
  t = performance.now();
  await engine.get({ source: ids[i % ids.length]!, lines: { from: 690, to: 710 } });
  get.push(performance.now() - t);
}
await engine.close();
console.log(
  `search p50 ${q(search, 0.5)} ms p90 ${q(search, 0.9)} ms; get p50 ${q(get, 0.5)} ms p90 ${q(get, 0.9)} ms (${calls} calls each)`,
);
process.exit(0);
