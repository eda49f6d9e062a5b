/**
 * Where the indexing process spends its CPU on a cold index, without the parser: every file is
 * parsed first, in a process of its own (so this one's code and heap stay as cold as the indexing
 * process's), into the line the parser process would send; then a real cold index runs in this process (a fresh database opened as the service opens it, the real backend and
 * indexer) against a pool that answers from those lines. Stages, CPU time: opening the database,
 * the reply's JSON.parse, redacting the facts and making the search words (storedOutcome), the rest
 * of the run (listing, writes, import resolution), and the closing checkpoint. The first pass runs
 * cold code, as the indexing process does once per index; `--runs` more give the warm best.
 * Run: bun bench/kota/index-split.ts REPO [--runs 2]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { sha256 } from "../../src/hash.ts";
import { createBuiltinIndex } from "../../src/kota/builtin/backend.ts";
import { fileView, scanRepository } from "../../src/kota/builtin/files/scan.ts";
import type { ParseReply } from "../../src/kota/builtin/parse/parse-child.ts";
import { parseOne } from "../../src/kota/builtin/parse/parse-child.ts";
import type { ParseOutcome, ParsePool } from "../../src/kota/builtin/parse/parse-pool.ts";
import { storedOutcome } from "../../src/kota/builtin/parse/redact-facts.ts";
import { idleCheckpoints } from "../../src/kota/checkpoint.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};

const STAGES = ["open db", "reply JSON", "redact+words", "list+write+resolve", "checkpoint"] as const;
type Stage = (typeof STAGES)[number];

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** The lines a parser process would answer, by absolute path. */
function replies(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of scanRepository(root, fileView(root))!.sources) {
    const file = join(root, s.path);
    const bytes = readFileSync(file);
    out.set(file, JSON.stringify({ id: 0, hash: sha256(bytes), facts: parseOne(s.path, bytes.toString("utf8")) }));
  }
  return out;
}

function replayPool(lines: Map<string, string>, t: Record<Stage, number>): ParsePool {
  return {
    async parse(jobs) {
      const out: ParseOutcome[] = [];
      for (const job of jobs) {
        const a = cpuMs();
        const reply = JSON.parse(lines.get(job.file)!) as Extract<ParseReply, { id: number }>;
        const b = cpuMs();
        out.push(storedOutcome(job.file, reply.facts, reply.hash));
        const c = cpuMs();
        t["reply JSON"] += b - a;
        t["redact+words"] += c - b;
      }
      return out;
    },
    prestart() {},
    close: async () => {},
    stats: () => ({ started: 0, crashed: 0, running: 0, inFlight: 0 }),
  };
}

export async function indexPass(root: string, lines: Map<string, string>): Promise<Record<Stage, number>> {
  const t = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  const dir = mkdtempSync(join(tmpdir(), "kota-index-split-"));
  try {
    const path = join(dir, "s.db");
    let at = cpuMs();
    const db = openDatabase(path);
    const checkpoints = idleCheckpoints(db, path);
    t["open db"] = cpuMs() - at;
    at = cpuMs();
    const index = createBuiltinIndex({ db, root, parser: replayPool(lines, t), watch: false });
    const r = await index.index();
    if (!r.ok) throw new Error(r.message);
    await index.close();
    t["list+write+resolve"] = cpuMs() - at - t["reply JSON"] - t["redact+words"];
    at = cpuMs();
    checkpoints.close();
    db.close();
    t.checkpoint = cpuMs() - at;
    return t;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The parser's lines, made by a child process (`--write-replies FILE`). */
function repliesFromChild(root: string): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "kota-index-split-replies-"));
  try {
    const file = join(dir, "replies.json");
    const r = Bun.spawnSync([process.execPath, import.meta.path, root, "--write-replies", file], { stdout: "inherit", stderr: "inherit" });
    if (r.exitCode !== 0) throw new Error("making the parser's replies failed");
    return new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, string>));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main && process.argv.includes("--write-replies")) {
  await Bun.write(arg("write-replies", ""), JSON.stringify(Object.fromEntries(replies(resolve(process.argv[2] ?? ".")))));
} else if (import.meta.main) {
  const root = resolve(process.argv[2] ?? ".");
  const runs = Number(arg("runs", "2"));
  const lines = repliesFromChild(root);
  const cold = await indexPass(root, lines);
  const warm: Record<Stage, number>[] = [];
  for (let i = 0; i < runs; i++) warm.push(await indexPass(root, lines));
  const total = (r: Record<Stage, number>) => STAGES.reduce((s, k) => s + r[k], 0);
  const best = warm.length ? warm.reduce((a, r) => (total(r) < total(a) ? r : a)) : cold;
  console.log(
    `${root}: ${lines.size} files, indexing process ${Math.round(total(cold))} ms CPU first pass, ${Math.round(total(best))} ms warm`,
  );
  console.log(`  ${"stage".padEnd(19)} ${"first pass".padStart(10)}        ${"warm".padStart(9)}`);
  for (const s of STAGES)
    console.log(
      `  ${s.padEnd(19)} ${String(Math.round(cold[s])).padStart(7)} ms ${((100 * cold[s]) / total(cold)).toFixed(1).padStart(5)}%  ${String(Math.round(best[s])).padStart(6)} ms ${((100 * best[s]) / total(best)).toFixed(1).padStart(5)}%`,
    );
}
