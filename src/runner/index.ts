/**
 * The public face of the command and fetch runner: everything outside src/runner/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { checkUrl, type FetchFn, fetchPage, type RunOutcome, runShell, type SpawnFn } from "./runner.ts";
