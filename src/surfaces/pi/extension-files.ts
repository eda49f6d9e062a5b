/**
 * The pi extension's files, embedded in the binary by build.ts as files of their own (the `.txt`
 * copies of the bundles in dist/extension/: paths in its embedded file system, not strings in its
 * code, so each is carried once). Imported lazily by `install pi` only: in a source checkout that
 * was never built, this module fails to load and the install says to build first.
 */
import worker from "../../../dist/extension/background-worker.js.txt" with { type: "file" };
import engineBytecode from "../../../dist/extension/engine.cjs.jsc" with { type: "file" };
import engine from "../../../dist/extension/engine.cjs.txt" with { type: "file" };
import index from "../../../dist/extension/index.js.txt" with { type: "file" };
import sidecar from "../../../dist/extension/sidecar.cjs.txt" with { type: "file" };
import sidecarBunBytecode from "../../../dist/extension/sidecar-bun.cjs.jsc" with { type: "file" };
import sidecarBun from "../../../dist/extension/sidecar-bun.cjs.txt" with { type: "file" };
import tokenizer from "../../../dist/extension/tokenizer.cjs.txt" with { type: "file" };

/** Each file's name in the extension's folder and where its bytes are. */
export const EXTENSION_FILES: Readonly<Record<string, string>> = {
  "index.js": index,
  "sidecar.cjs": sidecar,
  "sidecar-bun.cjs": sidecarBun,
  "sidecar-bun.cjs.jsc": sidecarBunBytecode,
  "engine.cjs": engine,
  "engine.cjs.jsc": engineBytecode,
  "background-worker.js": worker,
  "tokenizer.cjs": tokenizer,
};
