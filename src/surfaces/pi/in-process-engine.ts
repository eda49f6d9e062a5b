/**
 * Entry point of the in-process engine bundle (dist/extension/engine.js). The pi extension
 * imports it only when pi runs on Bun, where bun:sqlite exists.
 */

export { assetsIn } from "../../background.ts";
export { createEngine } from "../../engine.ts";
export { TOOL_CALLS } from "../../store/index.ts";
