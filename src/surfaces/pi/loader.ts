/**
 * The file pi loads (dist/extension/index.js). pi transpiles it on every start, so it is tiny: it
 * takes pi's own modules and hands them to the real extension, which the runtime's own require
 * loads as it is (sidecar.cjs; on Bun sidecar-bun.cjs, which Bun loads from its precompiled bytecode),
 * with no transpiler walking it.
 *
 * It names no package that the runtime could resolve by itself. pi's loader (jiti) maps
 * `@earendil-works/pi-coding-agent` and `typebox` to the running pi's own modules (virtual modules
 * in pi's bundle and binaries, aliases to its own files when pi runs unbundled), but only in code
 * it transpiles. Under Bun an unbundled pi lets Bun import an extension natively first; a static
 * import would then be resolved by Bun from this folder, where no node_modules exists, and Bun's
 * auto-install would fetch another pi from the registry and load it beside the running one. So the
 * names appear only in dynamic imports inside the factory, and a native evaluation stops at the
 * check below before any of them runs: pi's loader then transpiles this file and the imports reach
 * the host's modules.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { activate } from "./extension.ts";

// `module` exists (CommonJS) when pi's loader transpiled this file, not when a runtime imported it natively.
if (typeof module !== "object") {
  throw new Error(
    "pi-sidecar's extension must be loaded by pi's extension loader (it takes pi's own modules from it); a runtime imported it directly",
  );
}

export default async function piSidecar(pi: ExtensionAPI): Promise<void> {
  const [{ createReadToolDefinition, VERSION }, { Type }] = await Promise.all([
    import("@earendil-works/pi-coding-agent"),
    import("typebox"),
  ]);
  const load = createRequire(import.meta.url);
  const extension = load(process.versions.bun ? "./sidecar-bun.cjs" : "./sidecar.cjs") as { activate: typeof activate };
  return extension.activate(pi, { Type, createReadToolDefinition, piVersion: VERSION, dir: dirname(fileURLToPath(import.meta.url)) });
}
