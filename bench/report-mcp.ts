/** BENCHMARKS.md section for the MCP gateway. */
import { count, ms, pct, table, verdict } from "./markdown.ts";
import type { McpBenchResult } from "./mcp.ts";
import { median } from "./stats-math.ts";

const row = (r: McpBenchResult, mode: string, when?: string) =>
  r.defs.find((d) => d.mode === mode && (when === undefined || d.when === when))!;

export function mcpTargetRows(r: McpBenchResult): string[][] {
  const eager = row(r, "eager");
  const catalog = row(r, "catalog", "startup");
  const stubs = row(r, "stubs", "startup");
  const share = (d: typeof eager) => `${pct(d.tokens, eager.tokens)} of tokens, ${pct(d.chars, eager.chars)} of chars`;
  return [
    [
      "MCP tool definitions per turn, catalog vs eager",
      "<= 10%",
      share(catalog),
      verdict(catalog.tokens <= eager.tokens * 0.1 && catalog.chars <= eager.chars * 0.1),
    ],
    [
      "MCP tool definitions per turn, stubs (before use) vs eager",
      "<= 40%",
      share(stubs),
      verdict(stubs.tokens <= eager.tokens * 0.4 && stubs.chars <= eager.chars * 0.4),
    ],
  ];
}

export function mcpSection(r: McpBenchResult): string {
  const eager = row(r, "eager");
  const byMode = new Map<string, number[]>();
  const searchTokens = new Map<string, number>();
  for (const f of r.firstSuccess) {
    byMode.set(f.mode, [...(byMode.get(f.mode) ?? []), f.ok ? f.calls.length : Number.NaN]);
    searchTokens.set(f.mode, (searchTokens.get(f.mode) ?? 0) + f.searchTokens);
  }
  const l = r.latency;
  return [
    "## MCP gateway",
    "",
    `The four registry servers the issue names (server-everything, -filesystem, -memory, -sequential-thinking), ${r.tools} tools. ` +
      "Definitions are measured as pi sends them to the model: `{name, description, parameters}` per tool, JSON, counted in " +
      "characters and o200k tokens. Every row is sent on every turn until the list changes.",
    "",
    table(
      ["Mode", "When", "Tools", "Characters", "Tokens", "vs eager (tokens)"],
      r.defs.map((d) => [d.mode, d.when, String(d.tools), count(d.chars), count(d.tokens), pct(d.tokens, eager.tokens)]),
      ["l", "l", "r", "r", "r", "r"],
    ),
    "",
    "Catalog's list never changes in a session (three tools; the servers and their tool counts come from the catalog on disk), " +
      "so a provider's prompt cache stays valid. Stubs carry the first sentence of the description and a one-line signature " +
      "(argument names, types, optional marks, small enums, nested shapes, refs resolved); a server's stubs turn into full " +
      "schemas when one of its tools is first called, so after all four servers are used stubs cost what eager costs. Eager " +
      "is a little smaller than plain pi-mcp because `$schema` keys are dropped and refs are inlined.",
    "",
    table(
      ["Mode", "Tasks", "Calls to the first success, per task", "All succeeded", "Tokens of search answers, per task"],
      [...byMode].map(([mode, calls]) => [
        mode,
        String(calls.length),
        calls.map(String).join(", "),
        calls.every((c) => !Number.isNaN(c)) ? "yes" : "no",
        count(Math.round((searchTokens.get(mode) ?? 0) / calls.length)),
      ]),
      ["l", "r", "l", "l", "r"],
    ),
    "",
    "The scripted agent: in catalog mode it searches with words from the task and copies the tool name from the first matching " +
      "signature, then calls; in stubs and eager mode it calls the tool in its list. The arguments are the ones the task needs " +
      "(from the signature in search results or stubs; a wrong argument would cost one more call, with the schema in the error). " +
      "Catalog's saving is not free: each first use of a tool costs one more model turn and the search answer (last column), " +
      `so against eager's ${count(eager.tokens)} tokens per turn it pays for itself from the first turn, but it adds a round trip.`,
    "",
    table(
      ["Latency", "p50", "p99"],
      [
        ["A server's first call (spawn, initialize, list, call; everything/echo, 5 fresh gateways)", ms(l.coldStartP50), ""],
        ["A stub's first call (starts and promotes its server, then calls)", ms(median(l.promoteCallMs)), ""],
        [`Warm call through the gateway (${count(l.calls)} calls, everything/echo)`, ms(l.gatewayP50), ms(l.gatewayP99)],
        ["Same call on a direct SDK client, interleaved", ms(l.directP50), ms(l.directP99)],
        ["Same call through `pi-sidecar mcp` (the binary as another agent's server)", ms(l.binaryP50), ""],
      ],
      ["l", "r", "r"],
    ),
    "",
    `What this means: the gateway adds ${ms(l.gatewayP50 - l.directP50)} per warm call (argument validation is only done on ` +
      "`mcp_call` and stub calls); the real cost is a server's start, paid once per session on first use instead of at pi's startup.",
  ].join("\n");
}
