/**
 * package.json `exports` and `imports` read as TypeScript reads them: the subpath's entry (an exact
 * key, else the pattern with the longest prefix), then its conditions in object order, entering
 * only the ones that are active (`default`, `types`, `import` or `require`, `node` under node16,
 * the config's customConditions). Every target that can be reached is listed, in the order
 * TypeScript tries them: when a target's file does not exist it goes on to the next one.
 */

export type ExportTarget = {
  /** The target as written (`./dist/index.d.ts`), with the pattern's `*` filled in. */
  path: string;
  /** Every target of the same entry under any condition (a source next to a build output). */
  siblings: string[];
};

/** The entry a subpath selects: its value, and the text a `*` in it stands for. */
function selectEntry(map: unknown, request: string): { value: unknown; star: string | null } | null {
  if (map === null || map === undefined) return null;
  const isSubpathMap =
    typeof map === "object" && !Array.isArray(map) && Object.keys(map).some((k) => k.startsWith(".") || k.startsWith("#"));
  const entries: Record<string, unknown> = isSubpathMap ? (map as Record<string, unknown>) : { ".": map };
  if (Object.hasOwn(entries, request) && !request.includes("*")) return { value: entries[request], star: null };
  let best: { key: string; prefix: string; suffix: string } | null = null;
  for (const key of Object.keys(entries)) {
    const star = key.indexOf("*");
    if (star === -1 || key.indexOf("*", star + 1) !== -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (request.length < prefix.length + suffix.length || !request.startsWith(prefix) || !request.endsWith(suffix)) continue;
    // Node's order: the longer prefix first, then the longer key.
    if (!best || prefix.length > best.prefix.length || (prefix.length === best.prefix.length && key.length > best.key.length))
      best = { key, prefix, suffix };
  }
  if (!best) return null;
  return { value: entries[best.key], star: request.slice(best.prefix.length, request.length - best.suffix.length) };
}

function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) leaves(v, out);
  return out;
}

function reachable(value: unknown, conditions: ReadonlySet<string>, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) reachable(v, conditions, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) {
      // `types@>=4.2`-style keys are versioned `types` conditions.
      const name = key.startsWith("types@") ? "types" : key;
      if (name === "default" || conditions.has(name)) reachable(v, conditions, out);
    }
  }
}

/** The targets `request` ("." or "./x" for exports, "#x" for imports) reaches under `conditions`, in the order tried. */
export function subpathTargets(map: unknown, request: string, conditions: ReadonlySet<string>): ExportTarget[] {
  const entry = selectEntry(map, request);
  if (!entry) return [];
  const fill = (t: string) => (entry.star === null ? t : t.replaceAll("*", entry.star));
  const siblings = leaves(entry.value).map(fill);
  const out: string[] = [];
  reachable(entry.value, conditions, out);
  return [...new Set(out.map(fill))].map((path) => ({ path, siblings }));
}
