/**
 * The pi extension's files, embedded in the binary by build.ts (text copies of the bundles in
 * dist/extension/). Imported lazily by `install pi` only: in a source checkout that was never
 * built, this module fails to load and the install says to build first.
 */
import worker from "../../../dist/extension/background-worker.js.txt" with { type: "text" };
import engine from "../../../dist/extension/engine.cjs.txt" with { type: "text" };
import index from "../../../dist/extension/index.js.txt" with { type: "text" };
import sidecar from "../../../dist/extension/sidecar.cjs.txt" with { type: "text" };
import tokenizer from "../../../dist/extension/tokenizer.cjs.txt" with { type: "text" };

export const EXTENSION_FILES: Readonly<Record<string, string>> = {
  "index.js": index,
  "sidecar.cjs": sidecar,
  "engine.cjs": engine,
  "background-worker.js": worker,
  "tokenizer.cjs": tokenizer,
};
