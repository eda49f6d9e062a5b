/**
 * What the user decided about their MCP servers, kept apart from their mcp.json (which we
 * never rewrite): approved project files (by exact content), servers switched on or off with
 * /mcp, and profiles (named sets of servers). One small JSON file, re-read before every change
 * so two pi sessions do not undo each other.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readJson, writeJsonAtomic } from "./json-file.ts";

type McpStateData = {
  approved: Record<string, string>;
  enabled: Record<string, boolean>;
  profiles: Record<string, string[]>;
  profile: string | null;
};

export type McpState = ReturnType<typeof createMcpState>;

function empty(): McpStateData {
  return { approved: {}, enabled: {}, profiles: {}, profile: null };
}

export function sidecarDir(agentDir: string): string {
  return join(agentDir, "pi-sidecar");
}

export function createMcpState(agentDir: string, now: () => number = Date.now) {
  const path = join(sidecarDir(agentDir), "mcp-state.json");
  const read = (): McpStateData => ({ ...empty(), ...(readJson<Partial<McpStateData>>(path) ?? {}) });
  const update = (change: (d: McpStateData) => void): McpStateData => {
    const d = read();
    change(d);
    writeJsonAtomic(path, d);
    return d;
  };
  const backupsDir = join(sidecarDir(agentDir), "mcp-backups");
  return {
    path,
    read,
    isApproved: (file: string, hash: string) => read().approved[file] === hash,
    approve: (file: string, hash: string) =>
      void update((d) => {
        d.approved[file] = hash;
      }),
    /** The user's switch for a server, or undefined when they never used one. */
    enabledOverride: (name: string): boolean | undefined => read().enabled[name],
    setEnabled: (names: string[], on: boolean) =>
      void update((d) => {
        for (const n of names) d.enabled[n] = on;
      }),
    saveProfile: (name: string, servers: string[]) =>
      void update((d) => {
        d.profiles[name] = [...servers].sort();
        d.profile = name;
      }),
    /** Enables exactly the profile's servers among `all`; null when there is no such profile. */
    useProfile: (name: string, all: string[]): string[] | null => {
      const d = read();
      const members = d.profiles[name];
      if (!members) return null;
      update((s) => {
        for (const n of all) s.enabled[n] = members.includes(n);
        s.profile = name;
      });
      return members;
    },
    /** Copies the state and the given mcp.json files to a timestamped folder; returns it. */
    backup: (files: string[]): string => {
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, "-");
      const dir = join(backupsDir, stamp);
      mkdirSync(dir, { recursive: true });
      writeJsonAtomic(join(dir, "mcp-state.json"), read());
      const manifest: Record<string, string> = {};
      files.forEach((f, i) => {
        if (!existsSync(f)) return;
        const copy = `${i}-${basename(f)}`;
        copyFileSync(f, join(dir, copy));
        manifest[copy] = f;
      });
      writeJsonAtomic(join(dir, "manifest.json"), manifest);
      return dir;
    },
    backups: (): string[] => (existsSync(backupsDir) ? readdirSync(backupsDir).sort() : []),
    /** Restores a backup (the newest by default); returns the files written back, or null. */
    restore: (name?: string): { dir: string; files: string[] } | null => {
      const all = existsSync(backupsDir) ? readdirSync(backupsDir).sort() : [];
      const pick = name ?? all.at(-1);
      if (!pick || !all.includes(pick)) return null;
      const dir = join(backupsDir, pick);
      const state = readJson<McpStateData>(join(dir, "mcp-state.json"));
      if (state) writeJsonAtomic(path, { ...empty(), ...state });
      const manifest = readJson<Record<string, string>>(join(dir, "manifest.json")) ?? {};
      const restored: string[] = [];
      for (const [copy, target] of Object.entries(manifest)) {
        // The current file is kept beside it first: a restore never loses what was there.
        if (existsSync(target)) copyFileSync(target, `${target}.before-restore`);
        copyFileSync(join(dir, copy), target);
        restored.push(target);
      }
      return { dir, files: restored };
    },
  };
}
