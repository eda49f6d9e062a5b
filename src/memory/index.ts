/**
 * The public face of episodic memory: everything outside src/memory/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { editedFiles, failedCommand, shortAnswer, toolError } from "./capture-text.ts";
export type { MemoryService } from "./service.ts";
export { disabledProjects, hasMemory, type SpooledEvent, spoolDir, spoolFiles, writeSpool } from "./spool-file.ts";
export {
  answerOf,
  EVENT_KINDS,
  type EventKind,
  importKeys,
  isEventKind,
  MAX_BATCH,
  MAX_TS,
  type MemoryAnswer,
  type MemoryHit,
  type MemoryLike,
  type MemoryRequest,
  type NewEvent,
  type ProjectStats,
} from "./types.ts";
export const loadMemoryService = () => import("./service.ts");
