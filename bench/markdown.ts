/** Markdown table and number formatting for BENCHMARKS.md. */

export function table(headers: readonly string[], rows: readonly (readonly string[])[], align?: readonly ("l" | "r")[]): string {
  const rule = headers.map((_, i) => ((align?.[i] ?? (i === 0 ? "l" : "r")) === "r" ? "---:" : ":---"));
  const line = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(headers), `|${rule.join("|")}|`, ...rows.map(line)].join("\n");
}

/** Milliseconds with precision that suits the magnitude. */
export function ms(x: number | null): string {
  if (x === null || Number.isNaN(x)) return "n/a";
  if (x < 1) return `${x.toFixed(3)} ms`;
  if (x < 10) return `${x.toFixed(2)} ms`;
  if (x < 100) return `${x.toFixed(1)} ms`;
  return `${Math.round(x).toLocaleString("en-US")} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1)} MB`;
}

export function mbps(x: number): string {
  return `${x.toFixed(x < 10 ? 2 : 1)} MB/s`;
}

export function ratio(x: number): string {
  return `${x.toFixed(x < 10 ? 2 : 1)}x`;
}

export function pct(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)}%`;
}

export function count(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function verdict(pass: boolean): string {
  return pass ? "PASS" : "**MISS**";
}

/** Inline code that survives backticks and pipes inside the value. */
export function code(s: string): string {
  const clipped = s.length > 48 ? `${s.slice(0, 47)}…` : s;
  return `\`${clipped.replace(/`/g, "'")}\``;
}
