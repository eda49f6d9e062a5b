/**
 * The runner's public face: what a model asks to run or fetch outside its own tools, done here
 * and handed back as text. Storing the result (thresholds, redaction, receipts) is the store's
 * job, through the engine; nothing here touches the database.
 */
export { checkUrl, type FetchedPage, type FetchFn, fetchPage, htmlToText } from "./fetch-page.ts";
export { DEFAULT_MAX_OUTPUT, type RunOutcome, type RunProgress, runShell, type ShellDeps, type SpawnFn } from "./shell.ts";
