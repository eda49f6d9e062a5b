/**
 * Deterministic test data (seeded PRNG): a realistic build/test log, a worst-case request log
 * with a random UUID on every line, pretty-printed JSON and markdown docs. The same seed and
 * size always give the same text. `plants` are lines embedded at evenly spaced positions
 * (needles the search benchmark looks for later).
 */
import { createRng, type Rng } from "./prng.ts";
import {
  DIRS,
  ERROR_PHRASES,
  EXTS,
  FIRST_NAMES,
  HTTP_PATHS,
  JSON_STATUSES,
  LAST_NAMES,
  MD_TOPICS,
  MODULES,
  NAMES,
  PACKAGES,
  PROSE,
  SERVICES,
  TEST_VERBS,
  TS_ERRORS,
} from "./vocab.ts";

export type CorpusKind = "build" | "request" | "json" | "markdown";

export const KIND_LABEL: Record<CorpusKind, string> = {
  build: "realistic build/test log",
  request: "worst case: request log, random UUID on every line",
  json: "pretty-printed JSON (API response)",
  markdown: "markdown docs",
};

const START_MS = Date.UTC(2024, 2, 14, 9, 0, 0);

/** Units (lines or blocks, each ending in "\n") until the next one would pass `bytes`. */
function fill(bytes: number, plants: readonly string[], next: () => string, plant: (p: string) => string): string[] {
  const parts: string[] = [];
  let size = 0;
  let planted = 0;
  for (;;) {
    const due = planted < plants.length && size >= (bytes * (planted + 1)) / (plants.length + 1);
    const unit = due ? plant(plants[planted]!) : next();
    const unitBytes = Buffer.byteLength(unit);
    if (size + unitBytes > bytes && !due) {
      if (planted >= plants.length) break;
      continue; // a smaller unit may still fit; plants always go in
    }
    if (due) planted++;
    parts.push(unit);
    size += unitBytes;
  }
  return parts;
}

function clock(rng: Rng): () => string {
  let t = START_MS;
  return () => {
    t += rng.int(40);
    return new Date(t).toISOString();
  };
}

function version(rng: Rng): string {
  return `${rng.int(20)}.${rng.int(30)}.${rng.int(40)}`;
}

function sourceFile(rng: Rng): string {
  return `${rng.pick(DIRS)}/${rng.pick(MODULES)}/${rng.pick(NAMES)}${rng.pick(EXTS)}`;
}

function words(rng: Rng, n: number): string {
  return Array.from({ length: n }, () => rng.pick(PROSE)).join(" ");
}

function stackTrace(rng: Rng): string {
  const frames = rng.range(4, 9);
  let out = "";
  for (let i = 0; i < frames; i++) {
    out +=
      `      at ${rng.pick(NAMES)}.${rng.pick(["handle", "run", "call", "next", "dispatch", "resolve"])} ` +
      `(/home/runner/work/app/app/${sourceFile(rng)}:${rng.range(1, 900)}:${rng.range(1, 80)})\n`;
  }
  return `${out}      at processTicksAndRejections (node:internal/process/task_queues:95:5)\n`;
}

function buildLine(rng: Rng, ts: () => string): string {
  const r = rng.int(100);
  if (r < 14) return `npm http fetch GET 200 https://registry.npmjs.org/${rng.pick(PACKAGES)} ${rng.range(3, 900)}ms (cache revalidated)\n`;
  if (r < 22) {
    return `npm sill placeDep ROOT ${rng.pick(PACKAGES)}@${version(rng)} OK for: ${rng.pick(PACKAGES)}@${version(rng)} want: ^${version(rng)}\n`;
  }
  if (r < 25)
    return `npm timing reify:${rng.pick(["loadTrees", "diffTrees", "build", "unpack", "audit"])} Completed in ${rng.range(5, 9000)}ms\n`;
  if (r < 27) return `npm WARN deprecated ${rng.pick(PACKAGES)}@${version(rng)}: this version is no longer supported, please upgrade\n`;
  if (r < 31) return `${ts()} [tsc] ${sourceFile(rng)}(${rng.range(1, 700)},${rng.range(1, 90)}): error ${rng.pick(TS_ERRORS)}\n`;
  if (r < 37) {
    const name = rng.pick(NAMES).toLowerCase();
    return `${ts()} [webpack] asset ${name}.${rng.hex(8)}.js ${rng.range(1, 900)} KiB [emitted] [immutable] [minimized] (name: ${name})\n`;
  }
  if (r < 45) return `${ts()} [build] compiled ${sourceFile(rng)} in ${rng.range(1, 400)}ms\n`;
  if (r < 75) return `  ✓ ${sourceFile(rng)} > ${rng.pick(NAMES)} > ${rng.pick(TEST_VERBS)} (${rng.range(0, 300)} ms)\n`;
  if (r < 79) return ` PASS  ${sourceFile(rng).replace(/\.(tsx?|m?js)$/, ".test$&")} (${(rng.next() * 9).toFixed(2)} s)\n`;
  if (r < 81) {
    return (
      `  ✗ ${sourceFile(rng)} > ${rng.pick(NAMES)} > ${rng.pick(TEST_VERBS)} (${rng.range(100, 6000)} ms)\n` +
      `    ${rng.pick(ERROR_PHRASES)}\n${stackTrace(rng)}`
    );
  }
  if (r < 83) return `${ts()} ERROR ${rng.pick(ERROR_PHRASES)}\n${stackTrace(rng)}`;
  if (r < 86) return `${ts()} [git] HEAD is now at ${rng.hex(7)} ${words(rng, rng.range(3, 8))}\n`;
  if (r < 89) return `${ts()} [docker] Step ${rng.range(1, 14)}/14 : RUN npm ci ---> Running in ${rng.hex(12)}\n`;
  if (r < 91) return `${ts()} [cache] restored key=node-modules-${rng.hex(16)} size=${rng.range(10, 900)}MB\n`;
  if (r < 95) return `${ts()} INFO ${words(rng, rng.range(4, 12))}\n`;
  return `${ts()} WARN ${rng.pick(MODULES)}: ${words(rng, rng.range(5, 12))}\n`;
}

export function buildLog(seed: number, bytes: number, plants: readonly string[] = []): string {
  const rng = createRng(seed);
  const ts = clock(rng);
  return fill(
    bytes,
    plants,
    () => buildLine(rng, ts),
    (p) => `${ts()} ${p}\n`,
  ).join("");
}

export function requestLog(seed: number, bytes: number, plants: readonly string[] = []): string {
  const rng = createRng(seed);
  const ts = clock(rng);
  const instances = SERVICES.flatMap((s) => [0, 1, 2, 3].map(() => `${s}-${rng.hex(4)}`));
  const next = () => {
    const r = rng.int(100);
    const status =
      r < 85 ? 200 : r < 92 ? rng.pick([201, 204, 304]) : r < 98 ? rng.pick([400, 401, 404, 409, 429]) : rng.pick([500, 502, 503]);
    const level = status >= 500 ? "ERROR" : status >= 400 ? "WARN " : "INFO ";
    const path = rng.pick(HTTP_PATHS).replace(":id", String(rng.range(1, 99999)));
    return (
      `${ts()} ${level} [${rng.pick(instances)}] ${rng.pick(["GET", "GET", "GET", "POST", "PUT", "DELETE"])} ${path} ` +
      `status=${status} dur=${(rng.next() * 300).toFixed(1)}ms req_id=${rng.uuid()} user=${rng.range(1, 250000)} bytes=${rng.range(80, 90000)}\n`
    );
  };
  return fill(bytes, plants, next, (p) => `${ts()} ERROR [${rng.pick(instances)}] ${p}\n`).join("");
}

function jsonItem(rng: Rng, id: number, note: string | null): string {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const item: Record<string, unknown> = {
    id,
    uuid: rng.uuid(),
    name: `${first} ${last}`,
    email: `${first}.${last}${rng.int(1000)}@example.com`.toLowerCase(),
    status: rng.pick(JSON_STATUSES),
    plan: {
      tier: rng.pick(["free", "pro", "team", "enterprise"]),
      seats: rng.range(1, 500),
      renewsAt: new Date(START_MS + rng.int(3e10)).toISOString(),
    },
    tags: Array.from({ length: rng.range(1, 4) }, () => rng.pick(PROSE)),
    orders: Array.from({ length: rng.int(4) }, () => ({
      id: `ord_${rng.hex(10)}`,
      total: Math.round(rng.next() * 100000) / 100,
      currency: rng.pick(["USD", "EUR", "GBP"]),
      items: rng.range(1, 9),
      createdAt: new Date(START_MS - rng.int(3e10)).toISOString(),
    })),
    lastLogin: new Date(START_MS - rng.int(1e9)).toISOString(),
  };
  if (note !== null) item.note = note;
  return JSON.stringify(item, null, 2).replace(/^/gm, "    ");
}

/** `{"data": [...items], "total": n}` pretty-printed; always valid JSON. */
export function jsonDoc(seed: number, bytes: number, plants: readonly string[] = []): string {
  const rng = createRng(seed);
  let id = 100000;
  const items = fill(
    bytes - 64,
    plants,
    () => `${jsonItem(rng, id++, null)},\n`,
    (p) => `${jsonItem(rng, id++, p)},\n`,
  );
  const body = items.join("").replace(/,\n$/, "\n");
  return `{\n  "data": [\n${body}  ],\n  "total": ${items.length}\n}\n`;
}

function sentence(rng: Rng): string {
  const s = words(rng, rng.range(6, 18));
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

function markdownSection(rng: Rng, n: number): string {
  const topic = `${rng.pick(MD_TOPICS)} ${n}`;
  let out = `## ${topic}\n\n`;
  const subsections = rng.range(1, 3);
  for (let s = 0; s < subsections; s++) {
    out += `### ${words(rng, rng.range(2, 4))}\n\n`;
    out += `${Array.from({ length: rng.range(2, 6) }, () => sentence(rng)).join(" ")}\n\n`;
    const r = rng.int(4);
    if (r === 0) out += `${Array.from({ length: rng.range(2, 5) }, () => `- ${sentence(rng)}`).join("\n")}\n\n`;
    if (r === 1)
      out +=
        "```bash\n" +
        `npm install ${rng.pick(PACKAGES)}@${version(rng)}\nnpm run ${rng.pick(["build", "test", "migrate", "deploy"])} -- --${rng.pick(PROSE)}\n` +
        "```\n\n";
    if (r === 2) {
      out += "| Option | Default | Description |\n| --- | --- | --- |\n";
      for (let i = 0; i < rng.range(2, 5); i++)
        out += `| \`${rng.pick(PROSE)}${rng.pick(["Timeout", "Limit", "Mode", "Path"])}\` | \`${rng.range(1, 9000)}\` | ${sentence(rng)} |\n`;
      out += "\n";
    }
  }
  return out;
}

export function markdownDoc(seed: number, bytes: number, plants: readonly string[] = []): string {
  const rng = createRng(seed);
  let n = 0;
  const head = `# Service handbook ${seed}\n\n`;
  return (
    head +
    fill(
      bytes - head.length,
      plants,
      () => markdownSection(rng, ++n),
      (p) => `> Note: ${p}\n\n`,
    ).join("")
  );
}

const SALT: Record<CorpusKind, number> = { build: 0x1b, request: 0x2c, json: 0x3d, markdown: 0x4e };

/** One document of a kind; the kind is mixed into the seed so kinds never share random ids. */
export function generate(kind: CorpusKind, seed: number, bytes: number, plants: readonly string[] = []): string {
  seed = (Math.imul(seed, 0x9e3779b1) ^ SALT[kind]) >>> 0;
  switch (kind) {
    case "build":
      return buildLog(seed, bytes, plants);
    case "request":
      return requestLog(seed, bytes, plants);
    case "json":
      return jsonDoc(seed, bytes, plants);
    case "markdown":
      return markdownDoc(seed, bytes, plants);
  }
}
