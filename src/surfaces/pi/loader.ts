/**
 * The file pi loads (dist/extension/index.js). pi transpiles it on every start, so it is tiny: it
 * takes pi's own modules and hands them to the real extension, which the runtime's own require
 * loads as it is (sidecar.cjs), with no transpiler walking it.
 */
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { createReadToolDefinition, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "typebox";
import type { activate } from "./extension.ts";

export default function piSidecar(pi: ExtensionAPI): Promise<void> {
  const load = createRequire(import.meta.url);
  const extension = load("./sidecar.cjs") as { activate: typeof activate };
  return extension.activate(pi, { Type, createReadToolDefinition, dir: dirname(fileURLToPath(import.meta.url)) });
}
