/**
 * The public face of the context store: everything outside src/store/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export type { CaptureBaseline, CaptureInput, CaptureResult } from "./capture.ts";
export type { EngineDeps } from "./engine-deps.ts";
export { exportSource } from "./export.ts";
export { existingSources, type GetAnswer, type GetInput, get, listSources, type SourceInfo } from "./get.ts";
export { type ChunkPrep, claimBatch, type PrepHelper, prepareChunks } from "./index-prep.ts";
export { hasUnindexed, type SettleResult, settle } from "./index-queue.ts";
export { CLI_CALLS, type NextCalls, TOOL_CALLS } from "./next-calls.ts";
export { type PurgeFilter, type PurgeResult, purge, reclaimSpace } from "./purge.ts";
export { dropExpiredSources, storedBytes } from "./retention.ts";
export { createRetrievalLog } from "./retrieval-log.ts";
export type { RetrievalEntry, RetrievalPage, RetrievalQuery } from "./retrieval-view.ts";
export { type SearchAnswer, type SearchInput, search } from "./search/search.ts";
export type { SourceFilter } from "./source-filter.ts";
export { getStats, type Stats, type StatsFilter, type Tally } from "./stats.ts";
export type { Usage, UsageQuery } from "./usage.ts";
export const loadStoreCapture = () => import("./capture.ts");
export const loadStoreRetrievalView = () => import("./retrieval-view.ts");
export const loadStoreUsage = () => import("./usage.ts");
