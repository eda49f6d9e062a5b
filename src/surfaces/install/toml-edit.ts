/**
 * Codex's config.toml, edited by targeted line edits so the user's comments, order and other
 * tables stay as they are: our `[mcp_servers.pi-sidecar]` table (and its sub-tables, and the
 * comment line we put above it) is cut out and, on install, written again at the end. smol-toml
 * parses the file before and after: the edit must leave every other value exactly as it was, or
 * nothing is written.
 */
import { parse } from "smol-toml";
import { AppError } from "../../errors.ts";

export const TOML_NOTE = "# pi-sidecar: `pi-sidecar uninstall codex` removes this table";

type Toml = Record<string, unknown>;

function parsed(text: string, path: string): Toml {
  try {
    return parse(text) as Toml;
  } catch (error) {
    throw new AppError(
      "BAD_CONFIG",
      `${path} is not valid TOML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); fix it, then run this again. Nothing was changed.`,
    );
  }
}

/** Is this a table header for `[table]` or one of its sub-tables (`[table.env]`)? Quoted keys too. */
function headerOf(line: string, table: string[]): boolean {
  const m = /^\s*\[\s*([^[\]]+?)\s*\]\s*(#.*)?$/.exec(line);
  if (!m) return false;
  const keys = m[1]!.split(".").map((k) => k.trim().replace(/^"(.*)"$|^'(.*)'$/, "$1$2"));
  return table.every((k, i) => keys[i] === k);
}

function withoutTableLines(text: string, table: string[]): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let inside = false;
  // Comments and blank lines at the end of our table may belong to the table after it.
  let pending: string[] = [];
  for (const line of lines) {
    if (/^\s*\[/.test(line)) {
      const ours = headerOf(line, table);
      if (inside && !ours) out.push(...pending);
      pending = [];
      inside = ours;
      if (inside) continue;
    } else if (inside) {
      if (/^\s*(#.*)?$/.test(line)) pending.push(line);
      else pending = [];
      continue;
    }
    out.push(line);
  }
  if (inside) out.push(...pending.filter((l) => l.trim() !== ""));
  // Our note line, left just above where the table was.
  for (let i = out.length - 1; i >= 0; i--) if (out[i] === TOML_NOTE) out.splice(i, 1);
  return out.join("\n").replace(/\n{3,}/g, "\n\n");
}

function sameExcept(a: Toml, b: Toml, table: string[]): boolean {
  const strip = (t: Toml) => {
    const copy = structuredClone(t);
    let at: Toml | undefined = copy;
    for (const k of table.slice(0, -1)) at = at?.[k] as Toml | undefined;
    if (at) delete at[table.at(-1)!];
    const parent = table.length > 1 ? (copy[table[0]!] as Toml | undefined) : undefined;
    if (parent && Object.keys(parent).length === 0) delete copy[table[0]!];
    return copy;
  };
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

/** `text` with `[table]` replaced by `body` (lines after the header), or removed when body is null. */
export function setTomlTable(text: string | null, path: string, table: string[], body: string | null): string | null {
  const before = text ?? "";
  const old = parsed(before, path);
  let present: unknown = old;
  for (const k of table) present = (present as Toml | undefined)?.[k];
  if (body === null && present === undefined) return text;
  let next = withoutTableLines(before, table).replace(/\s+$/, "");
  if (body !== null) {
    const header = `[${table.map((k) => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k))).join(".")}]`;
    next = `${next}${next === "" ? "" : "\n\n"}${TOML_NOTE}\n${header}\n${body.trim()}\n`;
  } else if (next !== "") next += "\n";
  const after = parsed(next, path);
  let inAfter: unknown = after;
  for (const k of table) inAfter = (inAfter as Toml | undefined)?.[k];
  if (!sameExcept(old, after, table) || (body === null && inAfter !== undefined))
    throw new AppError(
      "BAD_CONFIG",
      `${path} defines ${table.join(".")} in a form this edit does not handle (an inline table?); change it by hand. Nothing was changed.`,
    );
  return next === "" && text === null ? null : next;
}

/** A TOML basic string. */
export function tomlString(s: string): string {
  return JSON.stringify(s);
}
