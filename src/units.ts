/** Parsing and formatting of sizes and durations, shared by config, CLI and receipts. */

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/** "24576", "24k", "24KiB", "1.5MB" -> bytes; null when it is not a size. */
export function parseSize(value: string | number): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? Math.round(value) : null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  if (!m) return null;
  const unit = SIZE_UNITS[(m[2] ?? "").toLowerCase()];
  return unit === undefined ? null : Math.round(Number(m[1]) * unit);
}

const DURATION_UNITS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** "7d", "12h", "30m", "90s", "2w" -> milliseconds; null when it is not a duration. */
export function parseDuration(value: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i.exec(value);
  if (!m) return null;
  return Math.round(Number(m[1]) * DURATION_UNITS[(m[2] ?? "").toLowerCase()]!);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

let enUS: Intl.NumberFormat | undefined;

/**
 * `n.toLocaleString("en-US")` (12,345): whole numbers grouped here, anything else by one shared
 * formatter; toLocaleString builds a new ICU formatter at every call (about 0.2 ms, a receipt has dozens).
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
    const digits = String(Math.abs(n));
    let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
    for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
    return n < 0 ? `-${out}` : out;
  }
  enUS ??= new Intl.NumberFormat("en-US");
  return enUS.format(n);
}

/** "120-180", "120:180" or "120" -> {from, to}; null unless 1 <= from <= to. */
export function parseLineRange(value: string): { from: number; to: number } | null {
  const m = /^\s*(\d+)\s*(?:[-:]\s*(\d+)\s*)?$/.exec(value);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return from >= 1 && to >= from ? { from, to } : null;
}

/** "1 session", "2 sessions", "1,024 batches": a count with its noun in the right number. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
