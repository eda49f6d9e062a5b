/**
 * Redaction benchmark: leaks on the secret corpus (each case alone and inside ~1 MB of harmless
 * text), harmless lines changed, throughput on 10 MiB of realistic text (a build log, pretty JSON,
 * a lockfile), and the time of pathological single lines.
 *
 *   bun bench/redaction.ts        prints the result as JSON
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hasSecrets, redact } from "../src/redact/redact.ts";
import { harmlessDocs, harmlessNoise, trickyLines } from "../test/redact/harmless-corpus.ts";
import { leaked, secretCases } from "../test/redact/secret-cases.ts";
import { generate } from "./corpus.ts";

const SEED = 20260314;
const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const MIB = 1024 * 1024;
const RUNS = 5;

type Leak = { kind: string; text: string };
type Throughput = { input: string; megabytes: number; redactMs: number; redactMBps: number; hasSecretsMs: number; hasSecretsMBps: number };

export type RedactionBench = {
  seed: number;
  secretCases: number;
  kinds: number;
  leaked: { alone: number; inNoise: number; rate: number; cases: Leak[] };
  harmless: { documents: number; linesChecked: number; linesChanged: number; changed: string[] };
  throughput: Throughput[];
  /** Bytes over time summed across the three inputs. */
  overallMBps: number;
  worstCase: { input: string; ms: number }[];
};

function fastest(fn: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    fn();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

function lockfile(bytes: number): string {
  const lock = readFileSync(join(import.meta.dir, "..", "test", "redact", "fixtures", "package-lock.json"), "utf8");
  return lock.repeat(Math.ceil(bytes / lock.length)).slice(0, bytes);
}

function leaks(): RedactionBench["leaked"] & { secretCases: number; kinds: number } {
  const cases = secretCases(SEED);
  const noise = harmlessNoise(MIB, SEED).split("\n");
  const found: Leak[] = [];
  let alone = 0;
  let inNoise = 0;
  cases.forEach((c, i) => {
    const soloLeak = leaked(c, redact(c.text).text).length > 0;
    const at = (i * 7919) % noise.length;
    const text = `${noise.slice(0, at).join("\n")}\n${c.text}\n${noise.slice(at).join("\n")}`;
    const noiseLeak = leaked(c, redact(text).text).length > 0;
    if (soloLeak) alone++;
    if (noiseLeak) inNoise++;
    if (soloLeak || noiseLeak) found.push({ kind: c.kind, text: c.text.slice(0, 200) });
  });
  return {
    secretCases: cases.length,
    kinds: new Set(cases.map((c) => c.kind)).size,
    alone,
    inNoise,
    rate: found.length / cases.length,
    cases: found,
  };
}

function harmless(): RedactionBench["harmless"] {
  const changed: string[] = [];
  let linesChecked = 0;
  const docs = harmlessDocs();
  for (const doc of docs) {
    const before = doc.text.split("\n");
    const after = redact(doc.text).text.split("\n");
    linesChecked += before.length;
    before.forEach((line, i) => {
      if (after[i] !== line) changed.push(`${doc.name}:${i + 1}: ${line}`);
    });
  }
  for (const line of trickyLines()) {
    linesChecked++;
    if (redact(line).text !== line) changed.push(`tricky: ${line}`);
  }
  return { documents: docs.length, linesChecked, linesChanged: changed.length, changed };
}

function throughput(): Throughput[] {
  const inputs: [string, string][] = [
    ["build log", generate("build", SEED, 10 * MIB)],
    ["pretty JSON", generate("json", SEED, 10 * MIB)],
    ["package-lock.json", lockfile(10 * MIB)],
  ];
  return inputs.map(([input, text]) => {
    const megabytes = Buffer.byteLength(text) / 1e6;
    const redactMs = fastest(() => redact(text));
    const hasSecretsMs = fastest(() => hasSecrets(text));
    return {
      input,
      megabytes: Math.round(megabytes * 100) / 100,
      redactMs: Math.round(redactMs * 10) / 10,
      redactMBps: Math.round(megabytes / (redactMs / 1000)),
      hasSecretsMs: Math.round(hasSecretsMs * 10) / 10,
      hasSecretsMBps: Math.round(megabytes / (hasSecretsMs / 1000)),
    };
  });
}

function worstCase(): RedactionBench["worstCase"] {
  const inputs: [string, string][] = [
    ["1 MB line of a.", "a.".repeat(512 * 1024)],
    ["80 KB line of -", "-".repeat(80 * 1024)],
    ["80 KB line of .", ".".repeat(80 * 1024)],
    ["80 KB line of a.", "a.".repeat(40 * 1024)],
    ["80 KB line of =", "=".repeat(80 * 1024)],
    ["80 KB line of :", ":".repeat(80 * 1024)],
    ["1 MB line of minified JSON", JSON.stringify(Array.from({ length: 12000 }, (_, i) => ({ id: i, token_count: i * 3, key: `k${i}` })))],
    ["1 MB line of key=", "key=".repeat(256 * 1024)],
    ["1 MB line of password=", "password=".repeat(116 * 1024)],
    ["1 MB line of http://x@", "http://x@".repeat(116 * 1024)],
    // The rules added for issue 22, each fed what wakes it, over and over.
    ["1 MB of private key", "private key ".repeat(85 * 1024)],
    ["1 MB of Discord-like heads", "MTabc.defghi ".repeat(80 * 1024)],
    ["1 MB of Telegram-like ids", "123456789:AAbc ".repeat(68 * 1024)],
    ["1 MB of .pgpass-like lines", "h:5432:d:u:p\n".repeat(80 * 1024)],
    ["1 MB of :*:", ":*:".repeat(340 * 1024)],
    ["1 MB of YAML block heads", "password: |\n".repeat(85 * 1024)],
    ["1 MB of one YAML block", `password: |\n${"  x\n".repeat(256 * 1024)}`],
    ["1 MB of define(", "define('password', 'x".repeat(50 * 1024)],
    ["1 MB of AWS key ids", "AKIAABCDEFGHIJKLMNOP, ".repeat(47 * 1024)],
    ["1 MB of 5K base58", `5K${"a".repeat(49)} `.repeat(20 * 1024)],
    [
      "1 MB of distinct 5K base58",
      Array.from({ length: 20 * 1024 }, (_, i) => `5K${Array.from({ length: 49 }, (_, j) => B58[(i * 7 + j * 13) % 58]).join("")} `).join(
        "",
      ),
    ],
    ["1 MB of secret access key", "secret access key ".repeat(58 * 1024)],
  ];
  return inputs.map(([input, text]) => ({ input, ms: Math.round(fastest(() => redact(text)) * 10) / 10 }));
}

export async function benchRedaction(): Promise<RedactionBench> {
  const { secretCases: count, kinds, ...leaked } = leaks();
  const rows = throughput();
  const totalMB = rows.reduce((n, r) => n + r.megabytes, 0);
  const totalS = rows.reduce((n, r) => n + r.redactMs, 0) / 1000;
  return {
    seed: SEED,
    secretCases: count,
    kinds,
    leaked,
    harmless: harmless(),
    throughput: rows,
    overallMBps: Math.round(totalMB / totalS),
    worstCase: worstCase(),
  };
}

if (import.meta.main) console.log(JSON.stringify(await benchRedaction(), null, 2));
