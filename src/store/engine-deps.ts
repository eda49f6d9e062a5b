import type { Config } from "../config.ts";
import type { Db } from "../db/open.ts";
import type { TokenCounter } from "../tokens/counter.ts";
import type { NextCalls } from "./next-calls.ts";
import type { RetrievalLog } from "./retrieval-log.ts";

/** What every context-store operation needs; tests pass their own clock. */
export type EngineDeps = {
  db: Db;
  config: Readonly<Config>;
  now: () => number;
  calls: NextCalls;
  tokens: TokenCounter;
  retrievals: RetrievalLog;
};
