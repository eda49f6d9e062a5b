/**
 * The public face of code intelligence: everything outside src/kota/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { fitAnswer } from "./answer-fit.ts";
export { fitToBudget, type Rendering } from "./budget.ts";
export { prestartParser } from "./builtin/parse/parser-process.ts";
export { isCodeRepo } from "./code-repo.ts";
export { KOTA_ERRORS, type KotaBackendName } from "./contract.ts";
export { helperRole, runHelper } from "./helper-entry.ts";
export type { CodeIndexStats } from "./index-stats.ts";
export { COMMAND_JIT_SCALE, scaleJit } from "./jit-policy.ts";
export { promptPaths } from "./prompt-paths.ts";
export { DEPS_LEVELS, DEPS_NARROW, renderDeps } from "./render-deps.ts";
export { IMPACT_LEVELS, IMPACT_NARROW, renderImpact, renderTaskContext, TASK_LEVELS, TASK_NARROW } from "./render-impact.ts";
export { renderSearch, SEARCH_LEVELS, SEARCH_NARROW } from "./render-search.ts";
export { renderIndex, renderStatus, renderUsages, USAGES_LEVELS, USAGES_NARROW } from "./render-usages.ts";
export { findRepoRoot } from "./repo-root.ts";
export { ask, type KotaAnswer, type KotaCallOptions, type KotaLike, type KotaOp, type KotaOps, type KotaRequest } from "./request.ts";
export type { KotaService } from "./service.ts";
export { type ArgsOf, checkToolArgs, type KotaParamSpec, type KotaToolSpec } from "./tool-args.ts";
export const loadKotaIndexStats = () => import("./index-stats.ts");
export const loadKotaService = () => import("./service.ts");
