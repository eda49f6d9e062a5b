/**
 * The last tool list each server gave, on disk, so that listing servers and tool counts, and
 * registering stubs or full schemas, needs no server to be started. One file per server
 * (no lost updates between sessions); an entry made for another command or URL is stale.
 * Each file is read once per process: the list a session starts with is the one it keeps,
 * apart from what its own connections report.
 */
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { readJson, writeJsonAtomic } from "./json-file.ts";
import type { ServerSpec } from "./server-spec.ts";
import { sidecarDir } from "./state.ts";

export type CatalogEntry = { server: string; fingerprint: string; listedAt: number; tools: Tool[] };

export type CatalogCache = {
  get(spec: ServerSpec): CatalogEntry | null;
  put(spec: ServerSpec, tools: Tool[]): CatalogEntry;
};

export function createCatalogCache(agentDir: string, now: () => number = Date.now): CatalogCache {
  const dir = join(sidecarDir(agentDir), "mcp-catalog");
  const file = (name: string) => join(dir, `${name}.json`);
  const loaded = new Map<string, CatalogEntry | null>();
  return {
    get(spec) {
      if (!loaded.has(spec.name)) loaded.set(spec.name, readJson<CatalogEntry>(file(spec.name)));
      const entry = loaded.get(spec.name);
      if (!entry || entry.fingerprint !== spec.fingerprint || !Array.isArray(entry.tools)) return null;
      return entry;
    },
    put(spec, tools) {
      const entry: CatalogEntry = { server: spec.name, fingerprint: spec.fingerprint, listedAt: now(), tools };
      loaded.set(spec.name, entry);
      try {
        writeJsonAtomic(file(spec.name), entry);
      } catch {
        // A read-only agent dir costs a cold start next time, nothing else.
      }
      return entry;
    },
  };
}
