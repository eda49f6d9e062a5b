/**
 * The stdio transport: round trip of one small request to `pi-sidecar serve --stdio` (the
 * compiled binary, through the same client the pi extension uses on Node), beside the same call
 * in-process; and the cold start of `serve --stdio` (spawn to first answer).
 */
import { join } from "node:path";
import { defaultConfig } from "../src/config.ts";
import { createEngine } from "../src/engine.ts";
import { createRpcEngine } from "../src/surfaces/rpc/client.ts";
import { median, percentile } from "./stats-math.ts";
import type { Scratch } from "./temp.ts";
import { log, timeEach } from "./timing.ts";

const BIN = join(import.meta.dir, "..", "dist", "pi-sidecar");

export type RpcResult = {
  calls: number;
  pingP50: number;
  pingP99: number;
  listP50: number;
  inProcessListP50: number;
  coldStarts: number;
  coldStartP50: number;
  coldStartMax: number;
};

export async function benchRpc(scratch: Scratch, calls: number, coldStarts: number): Promise<RpcResult> {
  const db = scratch.path("rpc");
  const config = { ...defaultConfig(), db };
  const rpc = createRpcEngine({ command: BIN, args: ["serve", "--stdio"], config, env: { PI_SIDECAR_DB: db } });
  const local = createEngine({ config });
  try {
    await rpc.ping();
    await rpc.list({}, 1);
    await local.list({}, 1);
    const ping = await timeEach(calls, () => rpc.ping());
    const list = await timeEach(calls, () => rpc.list({}, 1));
    const inProcess = await timeEach(calls, () => local.list({}, 1));
    const cold: number[] = [];
    for (let i = 0; i < coldStarts; i++) {
      const fresh = createRpcEngine({ command: BIN, args: ["serve", "--stdio"], config, env: { PI_SIDECAR_DB: db } });
      const t = performance.now();
      await fresh.ping();
      cold.push(performance.now() - t);
      await fresh.close();
    }
    const result = {
      calls,
      pingP50: median(ping),
      pingP99: percentile(ping, 99),
      listP50: median(list),
      inProcessListP50: median(inProcess),
      coldStarts,
      coldStartP50: median(cold),
      coldStartMax: Math.max(...cold),
    };
    log(`rpc: ping p50 ${result.pingP50.toFixed(3)} ms, cold start p50 ${result.coldStartP50.toFixed(1)} ms`);
    return result;
  } finally {
    await rpc.close();
    await local.close();
  }
}
