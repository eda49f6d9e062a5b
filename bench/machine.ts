/** The machine the numbers come from: CPU, cores, RAM, Bun and SQLite versions. */
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";

export type Machine = { cpu: string; cores: number; ramGiB: number; bun: string; sqlite: string; os: string; loadAtStart: string };

/** 1-, 5- and 15-minute load averages: other work on the machine skews every timing. */
export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
}

function cpuModel(): string {
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    if (line) return line.split(":").slice(1).join(":").trim();
  } catch {
    // not Linux: fall through to os.cpus()
  }
  return cpus()[0]?.model ?? "unknown";
}

export function describeMachine(): Machine {
  const db = new Database(":memory:");
  const sqlite = db.query<{ v: string }, []>("SELECT sqlite_version() AS v").get()!.v;
  db.close();
  return {
    cpu: cpuModel(),
    cores: cpus().length,
    ramGiB: totalmem() / 1024 ** 3,
    bun: Bun.version,
    sqlite,
    os: `${process.platform} ${process.arch}`,
    loadAtStart: loadAverage(),
  };
}
