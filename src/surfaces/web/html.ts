/**
 * HTML by tagged template: every interpolated value is escaped unless it is itself the result of
 * `html` (or a list of them). Stored text is whatever a tool printed, so nothing reaches the page
 * unescaped by accident.
 */
import { formatBytes, formatCount } from "../../units.ts";

export type Html = { readonly __html: string };

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  if (typeof value === "object") return (value as Html).__html;
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return { __html: out };
}

/** Trusted markup as is (only for text this program wrote). */
export function raw(text: string): Html {
  return { __html: text };
}

export function num(n: number): string {
  return formatCount(Math.round(n));
}

export function bytes(n: number): string {
  return formatBytes(Math.round(n));
}

/** ISO time without seconds' fraction, in UTC: the same on every machine that reads it. */
export function when(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "never";
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

/** A URL with query parameters, dropping empty ones. */
export function href(path: string, params: Record<string, string | number | undefined | null> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
