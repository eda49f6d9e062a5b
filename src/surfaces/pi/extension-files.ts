/**
 * The pi extension's files, embedded in the binary by build.ts (text copies of the bundles in
 * dist/extension/). Imported lazily by `install pi` only: in a source checkout that was never
 * built, this module fails to load and the install says to build first.
 */
import engineJs from "../../../dist/extension/engine.js.txt" with { type: "text" };
import indexJs from "../../../dist/extension/index.js.txt" with { type: "text" };
import tokenWorkerJs from "../../../dist/extension/token-worker.js.txt" with { type: "text" };

export const EXTENSION_FILES: Readonly<Record<string, string>> = {
  "index.js": indexJs,
  "engine.js": engineJs,
  "token-worker.js": tokenWorkerJs,
};
