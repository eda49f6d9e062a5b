import type { Config } from "../config.ts";
import type { Db } from "../db/open.ts";
import type { NextCalls } from "./hints.ts";
import type { RetrievalLog } from "./stats.ts";
import type { TokenCounter } from "./token-counter.ts";

/** What every context-store operation needs; tests pass their own clock. */
export type StoreDeps = {
  db: Db;
  config: Readonly<Config>;
  now: () => number;
  calls: NextCalls;
  tokens: TokenCounter;
  retrievals: RetrievalLog;
};
