/**
 * The public face of context pruning: everything outside src/prune/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { isToolResult, type Message, resultsOf, textOf } from "./messages.ts";
export type { PruneInput, PruneOutput, Pruner } from "./prune.ts";
export { NO_PRUNING, type PruneSavings, type PruneStats, pruneSavings, pruneStats } from "./stats.ts";
export const loadPrunePrune = () => import("./prune.ts");
