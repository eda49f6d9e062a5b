/**
 * The real KotaDB as a kota backend for the benchmarks: the vendored snapshot (installed once under
 * .bench/kotadb/), started as the kotadb backend starts it (watchdog, MCP over stdio), with its
 * process's peak RSS (VmHWM) and its database size readable while it runs.
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CodeIndexBackend } from "../../src/kota/contract.ts";
import { createKotaDbBackend } from "../../src/kota/kotadb/backend.ts";
import { kotadbLaunch } from "../../src/kota/kotadb/launch.ts";
import { KotaDbServer } from "../../src/kota/kotadb/server.ts";
import { installKotaDb } from "../../test/kota/kotadb-install.ts";

export type KotaDbRun = {
  backend: CodeIndexBackend;
  server: KotaDbServer;
  /** Peak RSS of the KotaDB processes (the largest), in MB. */
  peakRssMb(): number;
  dbBytes(): number;
  close(): Promise<void>;
};

/** Every process below `pid`. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of Bun.spawnSync(["ps", "-e", "-o", "pid=,ppid="]).stdout.toString().trim().split("\n")) {
    const [c, p] = line.trim().split(/\s+/).map(Number);
    children.set(p!, [...(children.get(p!) ?? []), c!]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function vmHwmMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Null (with the reason) when the vendored KotaDB is not there. */
export function openKotaDb(root: string, dataDir: string, timeoutMs = 120_000): KotaDbRun | { skip: string } {
  const install = installKotaDb();
  if ("skip" in install) return install;
  const launch = kotadbLaunch({ command: process.execPath, args: [install.cli, "--stdio", "--toolset", "core"], root, dataDir });
  rmSync(launch.database, { force: true });
  const server = new KotaDbServer(launch, { timeoutMs });
  const backend = createKotaDbBackend({ root, server, timeoutMs });
  let peak = 0;
  const sample = () => {
    const pid = server.info().pid;
    if (pid) for (const p of descendants(pid)) peak = Math.max(peak, vmHwmMb(p));
    return peak;
  };
  return {
    backend,
    server,
    peakRssMb: sample,
    dbBytes: () => {
      let n = 0;
      for (const suffix of ["", "-wal"]) {
        try {
          n += statSync(`${launch.database}${suffix}`).size;
        } catch {
          // no such file
        }
      }
      return n;
    },
    close: async () => {
      sample();
      await backend.close();
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${launch.database}${suffix}`, { force: true });
    },
  };
}

export const KOTADB_DATA = (dir: string) => join(dir, "kotadb-data");
