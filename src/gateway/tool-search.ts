/**
 * Keyword search over the tools of the connected servers: names weigh most, then parameter
 * names, then descriptions; word starts match ("dir" finds directory). Answers are compact
 * signatures, enough to call a tool without loading its schema.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { firstSentence, type JsonSchema, signature } from "./schema.ts";

export type ToolRef = { server: string; tool: Tool };

const STOP = new Set([
  "a",
  "an",
  "the",
  "to",
  "of",
  "in",
  "on",
  "for",
  "and",
  "or",
  "with",
  "by",
  "from",
  "is",
  "it",
  "this",
  "that",
  "my",
  "me",
  "i",
  "tool",
  "tools",
  "use",
]);

function stem(w: string): string {
  if (w.length > 5 && w.endsWith("ing")) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith("es")) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP.has(w))
    .map(stem);
}

function matches(terms: string[], q: string): number {
  let best = 0;
  for (const t of terms) {
    if (t === q) return 1;
    if (q.length >= 3 && (t.startsWith(q) || (q.startsWith(t) && t.length >= 4))) best = 0.6;
  }
  return best;
}

export function searchTools(refs: ToolRef[], query: string, limit = 8): ToolRef[] {
  const qs = [...new Set(words(query))];
  if (qs.length === 0) return refs.slice(0, limit);
  const scored = refs.map((ref) => {
    const name = words(ref.tool.name);
    const server = words(ref.server);
    const params = words(Object.keys(((ref.tool.inputSchema as JsonSchema).properties as object) ?? {}).join(" "));
    const desc = words(ref.tool.description ?? "");
    let score = 0;
    let hit = 0;
    for (const q of qs) {
      const s = 5 * matches(name, q) + 2 * matches(server, q) + 2 * matches(params, q) + 1.5 * matches(desc, q);
      if (s > 0) hit++;
      score += s;
    }
    return { ref, score: score * (hit / qs.length) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.ref);
}

/** `server/tool(args) - first sentence` */
export function describeRef(ref: ToolRef): string {
  const sentence = firstSentence(ref.tool.description, 140);
  return `${signature(`${ref.server}/${ref.tool.name}`, ref.tool.inputSchema as JsonSchema)}${sentence ? ` - ${sentence}` : ""}`;
}
