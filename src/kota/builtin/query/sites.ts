/** Reference sites packed into one text column: "line:col<kind letter>" joined by commas. */
import type { UsageKind } from "../../contract.ts";

const LETTER: Record<UsageKind, string> = {
  call: "c",
  new: "n",
  type: "t",
  property: "p",
  import: "i",
  reexport: "r",
  export: "e",
  jsx: "j",
  value: "v",
};
const KIND = Object.fromEntries(Object.entries(LETTER).map(([k, v]) => [v, k])) as Record<string, UsageKind>;

export function packSite(line: number, col: number, kind: UsageKind): string {
  return `${line}:${col}${LETTER[kind]}`;
}

export function unpackSites(sites: string): { line: number; col: number; kind: UsageKind }[] {
  const out: { line: number; col: number; kind: UsageKind }[] = [];
  for (const s of sites.split(",")) {
    const colon = s.indexOf(":");
    if (colon <= 0) continue;
    out.push({ line: Number(s.slice(0, colon)), col: Number(s.slice(colon + 1, -1)), kind: KIND[s.slice(-1)] ?? "value" });
  }
  return out;
}
