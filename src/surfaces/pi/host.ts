/**
 * What the extension takes from pi at run time, handed over by the loader (loader.ts) that pi
 * itself loads: the rest of the extension is a plain CommonJS bundle that never imports pi's
 * packages, so nothing resolves them outside pi (or fetches them).
 */
import type { createReadToolDefinition } from "@earendil-works/pi-coding-agent";
import type { Type } from "typebox";

export type PiHost = {
  Type: typeof Type;
  createReadToolDefinition: typeof createReadToolDefinition;
  /** The folder the extension's files are in (a bundle cannot know it: its paths are fixed at build time). */
  dir: string;
  /** The version of the pi that loaded the extension (its own `VERSION`). */
  piVersion: string;
};
