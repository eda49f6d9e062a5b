/**
 * The public face of the read cache: everything outside src/readcache/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { checkMarkers, isMarker, markerText } from "./claims.ts";
export { type Decision, span } from "./decide.ts";
export { clearObjects, createObjectStore, MAX_OBJECT_BYTES, objectBytes, pruneObjects } from "./objects.ts";
export type { Range } from "./ranges.ts";
export type { ReadInput } from "./read.ts";
export { REFRESH_ENTRY, readRecordOf, replay } from "./replay.ts";
export { isSensitiveFile, isSensitivePath } from "./sensitive.ts";
export { NO_READS, type ReadcacheSavings, type ReadcacheStats, readcacheSavings, readcacheStats } from "./stats.ts";
export { createTrust, type ReadRecord } from "./trust.ts";
export const loadReadcacheRead = () => import("./read.ts");
