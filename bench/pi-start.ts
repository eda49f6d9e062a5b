/**
 * What the sidecar costs a pi user, measured the way users run pi: plain pi against pi with the
 * extension installed by the binary (`install pi`), pair by pair, with the order alternated within
 * pairs; pi 0.87.1 and 1.3.0, each on Bun and on Node 22 (the `pi` command, dist/bundle/cli.js),
 * plus Bun on dist/cli.js (the entry where Bun imports extensions natively first).
 *
 * Users' setups, not scratch ones: one HOME for every run with the Bun cache a user has (a copy
 * of this machine's ~/.bun/install/cache, never the original) and, in it, a pi that Bun
 * auto-installed for an extension importing pi by name (what pi-sidecar's older loader made Bun
 * do); one TMPDIR kept across all runs (jiti's and Node's compile caches live there). Two tasks
 * with an instant scripted model: a prompt that calls no tool (a start), and one bash call that
 * prints 1,400 lines then an answer (a task).
 *
 *   bun bench/pi-start.ts [--pairs N] [--home DIR]      prints the rows as JSON
 *     --home DIR   use DIR as HOME as it is (its .bun cache included) instead of building one
 */
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { agentDir, PI_VERSIONS, type PiEntry, type PiVersion, type Runtime, runPi, writeScript } from "../test/e2e/pi/harness.ts";
import { cleanupTempDirs, tempDir } from "../test/helpers.ts";
import { median } from "./stats-math.ts";
import { log } from "./timing.ts";

export type StartRow = {
  runtime: Runtime;
  pi: PiVersion;
  entry: PiEntry;
  task: "start" | "task";
  plainMs: number;
  sidecarMs: number;
  overheadMs: number;
  /** The same in CPU time (user + system of pi and its children): what a loaded machine distorts least. */
  plainCpuMs: number;
  sidecarCpuMs: number;
  cpuOverheadMs: number;
  pairs: number;
};

export type StartBench = {
  rows: StartRow[];
  /** What the HOME's Bun cache held: packages, and the pi versions in it. */
  home: { bunCachePackages: number; cachedPis: string[]; copiedFrom: string | null };
};

const NO_TOOL = `export default () => "hi";`;
const BASH_TASK = `export default (ctx) => ctx.lastToolResults.length ? "done" : { toolCalls: [{ name: "bash", arguments: { command: "seq 1 1400 | sed 's/^/line /'" } }] };`;

/** The combinations measured: the `pi` command on both runtimes and versions, and Bun on dist/cli.js. */
export const COMBOS: { runtime: Runtime; pi: PiVersion; entry: PiEntry }[] = [
  ...PI_VERSIONS.flatMap((pi) => (["bun", "node"] as const).map((runtime) => ({ runtime, pi, entry: "bundle" as const }))),
  ...PI_VERSIONS.map((pi) => ({ runtime: "bun" as const, pi, entry: "unbundled" as const })),
];

function bunCache(home: string): string {
  return join(home, ".bun", "install", "cache");
}

function cachedPis(home: string): string[] {
  const scope = join(bunCache(home), "@earendil-works");
  return existsSync(scope) ? readdirSync(scope).filter((n) => /^pi-coding-agent@/.test(n)) : [];
}

/**
 * A HOME as a user has it: this machine's Bun cache copied in, and a pi that Bun downloaded into
 * it for an extension that imports pi by name (loaded once, as pi-sidecar's older loader was).
 */
function userHome(): { home: string; copiedFrom: string | null } {
  const home = tempDir("bench-home-");
  const real = bunCache(homedir());
  let copiedFrom: string | null = null;
  mkdirSync(join(home, ".bun", "install"), { recursive: true });
  if (existsSync(real)) {
    cpSync(real, bunCache(home), { recursive: true });
    copiedFrom = real;
  }
  const ext = join(tempDir("bench-old-ext-"), "old.js");
  writeFileSync(ext, `import { VERSION } from "@earendil-works/pi-coding-agent";\nexport default function () { void VERSION; }\n`);
  const agent = agentDir(true);
  runPi({ runtime: "bun", entry: "unbundled", script: writeScript(NO_TOOL), prompt: "hi", agentDir: agent, home, extensions: [ext] });
  return { home, copiedFrom };
}

export async function benchPiStart(pairs: number, homeDir?: string): Promise<StartBench> {
  if (pairs < 1) throw new Error(`--pairs wants 1 or more, got ${pairs}`);
  const rows: StartRow[] = [];
  try {
    const { home, copiedFrom } = homeDir ? { home: homeDir, copiedFrom: null } : userHome();
    const cached = cachedPis(home);
    const packages = existsSync(bunCache(home)) ? readdirSync(bunCache(home)).length : 0;
    log(`pi start: HOME ${home}, Bun cache ${packages} entries, pi in it: ${cached.join(", ") || "none"}`);
    const plainAgent = agentDir(true);
    const sidecarAgent = agentDir(false);
    const scripts = { start: writeScript(NO_TOOL), task: writeScript(BASH_TASK) };
    // One TMPDIR for every run, kept as a user's is; the warm-up pair fills its caches.
    const tmpDir = tempDir("bench-start-tmp-");
    const cwd = tempDir("bench-start-cwd-");
    writeFileSync(join(cwd, "README"), "x\n");
    for (const combo of COMBOS) {
      for (const task of ["start", "task"] as const) {
        const plain: number[] = [];
        const side: number[] = [];
        const diffs: number[] = [];
        const cpu = { plain: [] as number[], side: [] as number[], diffs: [] as number[] };
        for (let i = -1; i < pairs; i++) {
          const one = (sidecar: boolean) => {
            const r = runPi({
              ...combo,
              script: scripts[task],
              prompt: task === "start" ? "say hi" : "run it",
              agentDir: sidecar ? sidecarAgent : plainAgent,
              home,
              tmpDir,
              cwd,
              env: { PI_SIDECAR_DEBUG: "0" },
            });
            if (r.code !== 0) throw new Error(`pi failed (${sidecar ? "sidecar" : "plain"}): ${r.stderr.slice(-500)}`);
            return r;
          };
          // The order alternates within pairs: plain first on even pairs, the sidecar first on odd ones.
          const sidecarFirst = i % 2 !== 0;
          const first = one(sidecarFirst);
          const second = one(!sidecarFirst);
          const [a, b] = sidecarFirst ? [second, first] : [first, second];
          if (i < 0) continue;
          plain.push(a.ms);
          side.push(b.ms);
          diffs.push(b.ms - a.ms);
          cpu.plain.push(a.cpuMs);
          cpu.side.push(b.cpuMs);
          cpu.diffs.push(b.cpuMs - a.cpuMs);
        }
        const row = {
          ...combo,
          task,
          plainMs: median(plain),
          sidecarMs: median(side),
          overheadMs: median(diffs),
          plainCpuMs: median(cpu.plain),
          sidecarCpuMs: median(cpu.side),
          cpuOverheadMs: median(cpu.diffs),
          pairs,
        };
        log(
          `pi ${combo.pi} ${task} on ${combo.runtime}${combo.entry === "unbundled" ? " (dist/cli.js)" : ""}: plain ${row.plainMs.toFixed(0)} ms, sidecar ${row.sidecarMs.toFixed(0)} ms (${row.overheadMs >= 0 ? "+" : ""}${row.overheadMs.toFixed(0)} ms); CPU ${row.plainCpuMs.toFixed(0)} -> ${row.sidecarCpuMs.toFixed(0)} ms (${row.cpuOverheadMs >= 0 ? "+" : ""}${row.cpuOverheadMs.toFixed(0)} ms)`,
        );
        rows.push(row);
      }
    }
    return { rows, home: { bunCachePackages: packages, cachedPis: cached, copiedFrom } };
  } finally {
    cleanupTempDirs();
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const pairs = Number(arg("--pairs") ?? 7);
  console.log(JSON.stringify(await benchPiStart(pairs, arg("--home")), null, 2));
}
