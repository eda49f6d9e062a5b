/**
 * The last tool list each server gave, on disk, so that listing servers and tool counts, and
 * registering stubs or full schemas, needs no server to be started. One file per server
 * (no lost updates between sessions); an entry made for another command or URL is stale.
 * Each file is read once per process: the list a session starts with is the one it keeps,
 * apart from what its own connections report. What a server says about its tools (descriptions,
 * defaults, examples) is redacted before it is written: a key a server printed into a tool's
 * description never reaches the disk. This session keeps the list as the server gave it.
 */
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { redactText } from "../redact/lazy.ts";
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
        writeJsonAtomic(file(spec.name), { ...entry, tools: redactStrings(tools) });
      } catch {
        // A read-only agent dir costs a cold start next time, nothing else.
      }
      return entry;
    },
  };
}

/** Every string in a JSON value redacted (object keys stay: they are argument names a schema needs). */
function redactStrings<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map(redactStrings) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v)])) as T;
  return value;
}
