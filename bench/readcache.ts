/**
 * The read cache: per-read cost as the session grows (10, 1,000, 5,000 earlier reads), the
 * decision for a 1 MiB file, the rebuild (replay) after a restart, and the tokens a scripted
 * 50-read editing session saves against plain read (what pi's read would have sent).
 */
import { defaultConfig } from "../src/config.ts";
import { createEngine } from "../src/engine.ts";
import { linesOf } from "../src/readcache/decide.ts";
import { replay } from "../src/readcache/replay.ts";
import { createTrust, type ReadRecord } from "../src/readcache/trust.ts";
import { countTokens } from "../src/tokens/count.ts";
import { createRng } from "./prng.ts";
import { median, percentile } from "./stats-math.ts";
import type { Scratch } from "./temp.ts";
import { log } from "./timing.ts";

export type ReadcacheResult = {
  perRead: { earlier: number; p50: number; p99: number }[];
  oneMiB: { first: { ms: number; mode: string }; repeat: { ms: number; mode: string }; edited: { ms: number; mode: string } };
  replay5000Ms: number;
  session: { reads: number; modes: Record<string, number>; plainTokens: number; sentTokens: number };
};

const source = (n: number, seed: number) => {
  const r = createRng(seed);
  return `${Array.from({ length: n }, (_, i) => `  const value${i} = compute(${r.int(1e6)}, "${r.hex(8)}");`).join("\n")}\n`;
};

export async function benchReadcache(scratch: Scratch): Promise<ReadcacheResult> {
  const db = scratch.path("readcache");
  const engine = createEngine({ config: { ...defaultConfig(), db } });
  try {
    // Per-read cost with N earlier reads in the session (over 200 files), for one 300-line file.
    const perRead: ReadcacheResult["perRead"] = [];
    const text = source(300, 1);
    for (const earlier of [10, 1000, 5000]) {
      const trust = createTrust();
      const r = createRng(earlier);
      for (let i = 0; i < earlier; i++) {
        const a = 1 + r.int(250);
        trust.record({ v: 1, path: `/repo/f${i % 200}.ts`, hash: `h${i % 400}`, lines: 300, mode: "full", trusted: [[a, a + 40]] });
      }
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t = performance.now();
        const d = await engine.readcache({
          path: "/repo/f7.ts",
          text,
          shown: [1, 300],
          wholeFile: true,
          builtIn: text,
          versions: trust.versions("/repo/f7.ts"),
        });
        trust.record(d.record);
        times.push(performance.now() - t);
      }
      perRead.push({ earlier, p50: median(times.slice(1)), p99: percentile(times.slice(1), 99) });
    }
    // A 1 MiB file as pi's read sends it (the first 2,000 lines or 50 KiB): first read, repeat, after an edit.
    const big = source(16_000, 2).slice(0, 1024 * 1024);
    const cut = (t: string) => {
      let end = 0;
      let n = 0;
      while (n < 2000) {
        const nl = t.indexOf("\n", end);
        if (nl === -1 || nl + 1 > 50 * 1024) break;
        end = nl + 1;
        n++;
      }
      return { builtIn: t.slice(0, end), shown: [1, n] as [number, number] };
    };
    const trust = createTrust();
    const time = async (t: string) => {
      const { builtIn, shown } = cut(t);
      const start = performance.now();
      const d = await engine.readcache({
        path: "/repo/big.ts",
        text: t,
        shown,
        wholeFile: false,
        builtIn,
        versions: trust.versions("/repo/big.ts"),
      });
      trust.record(d.record);
      return { ms: performance.now() - start, mode: d.mode };
    };
    const first = await time(big);
    const repeat = await time(big);
    const edited = await time(big.replace("const value15000 ", "const renamed15000 "));
    // Rebuild after a restart: replay of a branch with 5,000 read results.
    const entries = Array.from({ length: 5000 }, (_, i) => ({
      type: "message",
      id: `e${i}`,
      message: {
        role: "toolResult",
        toolName: "read",
        details: {
          readcache: {
            v: 1,
            path: `/repo/f${i % 200}.ts`,
            hash: `h${i}`,
            lines: 300,
            mode: "full",
            trusted: [[1, 300]],
          } satisfies ReadRecord,
        },
      },
    }));
    const rs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      replay(entries);
      rs.push(performance.now() - t);
    }
    // A scripted editing session: 10 files, 50 reads, an edit between some of them.
    const files = Array.from({ length: 10 }, (_, i) => source(150 + i * 40, 10 + i));
    const sTrust = createTrust();
    const modes: Record<string, number> = {};
    let plain = 0;
    let sent = 0;
    const r = createRng(99);
    for (let i = 0; i < 50; i++) {
      const f = i < 10 ? i : r.int(10);
      if (i >= 10 && r.chance(0.35)) files[f] = files[f]!.replace(/compute\(\d+/, `compute(${r.int(1e6)}`);
      const t = files[f]!;
      const n = t.split("\n").length - 1;
      const ranged = i >= 10 && r.chance(0.3);
      const shown: [number, number] = ranged ? [20, 60] : [1, n];
      const builtIn = ranged ? linesOf(t, shown) : t;
      const d = await engine.readcache({
        path: `/repo/s${f}.ts`,
        text: t,
        shown,
        wholeFile: !ranged,
        builtIn,
        versions: sTrust.versions(`/repo/s${f}.ts`),
      });
      sTrust.record(d.record);
      modes[d.mode] = (modes[d.mode] ?? 0) + 1;
      plain += countTokens(builtIn);
      sent += countTokens(d.text);
    }
    const result = {
      perRead,
      oneMiB: { first, repeat, edited },
      replay5000Ms: median(rs),
      session: { reads: 50, modes, plainTokens: plain, sentTokens: sent },
    };
    log(
      `readcache: per read p50 ${perRead.map((p) => `${p.earlier}: ${p.p50.toFixed(2)} ms`).join(", ")}; session ${sent}/${plain} tokens`,
    );
    return result;
  } finally {
    await engine.close();
  }
}
