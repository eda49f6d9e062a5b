/**
 * The fixed query mix the search benchmark runs: what an agent plausibly asks of stored
 * output. Deterministic for a given store (seeded; needles come from the build). The kinds
 * are interleaved so that any prefix of the mix samples every kind alike.
 */
import { createRng, type Rng } from "./prng.ts";
import type { Needle, StoreSource } from "./store-build.ts";
import { ERROR_PHRASES, MODULES, NAMES, PACKAGES, PROSE } from "./vocab.ts";

export type QueryKind =
  | "rare id (planted)"
  | "id substring"
  | "error phrase"
  | "two words"
  | "typo"
  | "common word"
  | "--source filter"
  | "absent";

export const QUERY_KINDS: readonly QueryKind[] = [
  "rare id (planted)",
  "id substring",
  "error phrase",
  "two words",
  "typo",
  "common word",
  "--source filter",
  "absent",
];

/** `expect`: the source that must be among the hits (the needle's source). */
export type BenchQuery = { kind: QueryKind; query: string; source?: string; expect?: string };

const PER_KIND = 40;
const ABSENT = 20;

const MORE_ERROR_PHRASES = [
  "is not assignable to parameter of type",
  "Property 'items' does not exist on type",
  "implicitly has an 'any' type",
  "is possibly 'undefined'",
  "no longer supported, please upgrade",
  "cache revalidated",
  "status=503",
  "npm WARN deprecated",
  "processTicksAndRejections",
  "502 Bad Gateway",
];

const COMMON = [
  "error",
  "test",
  "warn",
  "npm",
  "failed",
  "get",
  "status",
  "build",
  "info",
  "src",
  "user",
  "orders",
  "api",
  "cache",
  "module",
  "config",
  "webpack",
  "session",
  "request",
  "timeout",
  "version",
  "package",
  "asset",
  "compiled",
  "docker",
  "json",
  "email",
  "pending",
  "active",
  "migration",
  "database",
  "token",
  "server",
  "deploy",
  "the",
  "install",
  "renders",
  "stack",
  "lib",
  "service",
];

const NONSENSE = [
  "quokka zephyrine",
  "frobnicate",
  "NonexistentService_deadbeef00",
  "kubelet OOMKilled",
  "segfault in libxml2",
  "xylophone",
  "flux capacitor",
  "ERR_PNPM_OUTDATED_LOCKFILE",
  "rustc E0382",
  "gradle daemon",
];

/** `count` items spread over xs (deterministic). */
function spread<T>(xs: readonly T[], count: number): T[] {
  return Array.from({ length: count }, (_, i) => xs[Math.floor((i * xs.length) / count) % xs.length]!);
}

/** One realistic slip: swapped neighbours, a dropped letter or a doubled one. */
function typo(rng: Rng, word: string): string {
  const i = rng.range(1, word.length - 2);
  switch (rng.int(3)) {
    case 0:
      return word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    default:
      return word.slice(0, i) + word[i]! + word.slice(i);
  }
}

function shuffle<T>(rng: Rng, xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/** Each kind shuffled, then dealt round-robin, so any prefix of the mix holds every kind alike. */
function interleave(rng: Rng, queries: BenchQuery[]): BenchQuery[] {
  const groups = QUERY_KINDS.map((k) =>
    shuffle(
      rng,
      queries.filter((q) => q.kind === k),
    ),
  );
  const out: BenchQuery[] = [];
  for (let round = 0; out.length < queries.length; round++) {
    for (const g of groups) if (round < g.length) out.push(g[round]!);
  }
  return out;
}

export function queryMix(needles: readonly Needle[], sources: readonly StoreSource[], seed: number): BenchQuery[] {
  const rng = createRng(seed);
  const out: BenchQuery[] = [];
  const picked = spread(needles, PER_KIND);
  for (const [i, n] of picked.entries()) out.push({ kind: "rare id (planted)", query: i % 2 === 0 ? n.uuid : n.ident, expect: n.handle });
  spread(needles.slice().reverse(), PER_KIND).forEach((n, i) => {
    const hex = n.ident.split("_")[1]!;
    const query = i % 2 === 0 ? hex.slice(1, 9) : n.uuid.slice(4, 18);
    out.push({ kind: "id substring", query, expect: n.handle });
  });
  const phrases = [...ERROR_PHRASES.map((p) => p.replace(/^\w*Error: |^UnhandledPromiseRejection: /, "")), ...MORE_ERROR_PHRASES];
  for (const p of spread(phrases, PER_KIND / 2)) out.push({ kind: "error phrase", query: p }, { kind: "error phrase", query: `"${p}"` });
  const content = PROSE.filter((w) => w.length >= 5);
  const pool = [...content, ...MODULES, ...NAMES.map((n) => n.toLowerCase()), ...PACKAGES.filter((p) => /^[a-z]+$/.test(p))];
  for (let i = 0; i < PER_KIND; i++) out.push({ kind: "two words", query: `${rng.pick(pool)} ${rng.pick(pool)}` });
  const long = [...content.filter((w) => w.length >= 6), ...NAMES.filter((n) => n.length >= 6).map((n) => n.toLowerCase())];
  for (let i = 0; i < PER_KIND; i++) {
    const word = typo(rng, rng.pick(long));
    out.push({ kind: "typo", query: i % 2 === 0 ? word : `${word} ${rng.pick(content)}` });
  }
  for (const w of spread(COMMON, PER_KIND)) out.push({ kind: "common word", query: w });
  for (let i = 0; i < PER_KIND; i++) {
    const r = i % 4;
    if (r === 3) {
      const n = rng.pick(needles);
      out.push({ kind: "--source filter", query: n.ident, source: n.handle, expect: n.handle });
    } else {
      const query = r === 2 ? `${rng.pick(pool)} ${rng.pick(pool)}` : rng.pick(COMMON);
      out.push({ kind: "--source filter", query, source: rng.pick(sources).handle });
    }
  }
  const absentRng = createRng(seed ^ 0x5eed);
  for (let i = 0; i < ABSENT; i++)
    out.push({ kind: "absent", query: i % 2 === 0 ? absentRng.uuid() : NONSENSE[(i >> 1) % NONSENSE.length]! });
  return interleave(rng, out);
}

/** Queries that warm the page cache before measuring; not part of the mix. */
export const WARM_UP = ["warning", "handler", "deployment", "endpoint", "latency", "react", "install", "compiled", "proxy", "shard"];
