/** The subsystem panels: read cache, MCP gateway, code index, pruning. Each says so when it has no data. */
import type { GatewayDefinitions } from "../../../gateway/index.ts";
import type { CodeIndexStats } from "../../../kota/index.ts";
import type { PruneStats } from "../../../prune/index.ts";
import type { ReadcacheStats } from "../../../readcache/index.ts";
import { bytes, type Html, html, num, when } from "../html.ts";
import { card, empty } from "./parts.ts";

export function readcacheBody(r: ReadcacheStats): Html {
  const body =
    r.objects === 0
      ? empty("The read cache holds no file versions yet: they are kept when pi's read tool shows the model a file (readcache.enabled).")
      : html`<div class="cards">
${card("File versions kept", "objects", r.objects, html`Base versions later reads are compared against; ${num(r.usedRecently)} used in the last 24 hours.`)}
${card("Bytes kept", "bytes", r.bytes, html`${bytes(r.bytes)} of at most ${bytes(r.maxBytes)}; the least recently used go first.`)}
</div><p class="note">Last used ${when(r.newestUsedAt)}; the oldest version was last used ${when(r.oldestUsedAt)}.</p>`;
  return html`<h2>Read cache</h2>${body}
<p class="how">What each read saved (the built-in read's tokens minus what was sent, never truncation) is recorded with that read in pi's
session, not in this database: <code>/readcache-status</code> in pi sums it for the session.</p>`;
}

export function gatewayBody(g: GatewayDefinitions): Html {
  if (!g.enabled) return html`<h2>MCP gateway</h2>${empty("The MCP gateway is off (mcp.enabled = false, or PI_SIDECAR_MCP=0).")}`;
  const servers =
    g.servers.length === 0
      ? empty("No MCP servers configured: add them to mcp.json (pi-sidecar servers says where).")
      : html`<div class="scroll"><table><thead><tr><th scope="col">server</th><th scope="col">mode</th><th scope="col">enabled</th>
<th scope="col">scope</th><th class="n" scope="col">tools</th><th class="n" scope="col">tokens if eager</th><th class="n" scope="col">tokens as stubs</th>
<th scope="col">listed</th></tr></thead><tbody>${g.servers.map(
          (s) => html`<tr><td title="${s.file}">${s.name}</td><td>${s.mode}</td><td>${s.enabled ? "yes" : "no"}</td><td>${s.scope}</td>
<td class="n">${s.tools === null ? "not listed yet" : num(s.tools)}</td><td class="n">${s.eagerTokens === null ? "" : num(s.eagerTokens)}</td>
<td class="n">${s.stubTokens === null ? "" : num(s.stubTokens)}</td><td>${when(s.listedAt)}</td></tr>`,
        )}</tbody></table></div>`;
  return html`<h2>MCP gateway</h2>
<div class="cards">
${card(
  "Tool-definition tokens per turn",
  "perTurnTokens",
  g.perTurn.tokens,
  html`${num(g.perTurn.tools)} tool definitions a session starting now is sent on every turn (eager servers' full schemas, stubs,
the tool that expands stubs, the catalog tools), as pi sends them ({name, description, parameters}), counted with ${g.tokenizer}.
A stubs server adds its full schemas once expanded.`,
)}
${card(
  "Catalog tools",
  "catalogTokens",
  g.catalogTokens,
  html`The three fixed tools (search, describe, call) that stand for every catalog-mode server; 0 when no server is in catalog mode.`,
)}
</div>
<p class="note">Default mode ${g.defaultMode}${g.force ? html`, forced to ${g.force} for every server` : ""}. Read from mcp.json, the
state file and the last tool lists on disk: no server was started for this page.</p>
${servers}
${g.untrusted.map((f) => html`<p class="note">Not started: ${f.path} (${f.names.join(", ")}) is a project file not approved yet.</p>`)}
${g.problems.length > 0 ? html`<h3>Config problems</h3><ul>${g.problems.map((p) => html`<li>${p}</li>`)}</ul>` : ""}`;
}

export function codeBody(c: CodeIndexStats): Html {
  if (c.repos.length === 0)
    return html`<h2>Code index</h2>${empty("No repository is indexed in this database (the built-in code index fills it on the first code query).")}`;
  return html`<h2>Code index</h2><div class="scroll"><table><thead><tr><th scope="col">repository</th><th scope="col">indexed (UTC)</th>
<th class="n" scope="col">files</th><th class="n" scope="col">test files</th><th class="n" scope="col">parse errors</th>
<th class="n" scope="col">symbols</th><th class="n" scope="col">exported</th><th class="n" scope="col">imports</th>
<th class="n" scope="col">resolved</th><th class="n" scope="col">packages</th><th class="n" scope="col">size</th></tr></thead><tbody>
${c.repos.map(
  (r) => html`<tr><td>${r.root}</td><td>${when(r.indexedAt)}${r.needsResolve ? " (imports still resolving)" : ""}</td>
<td class="n">${num(r.files)}</td><td class="n">${num(r.testFiles)}</td><td class="n">${num(r.parseErrors)}</td><td class="n">${num(r.symbols)}</td>
<td class="n">${num(r.exportedSymbols)}</td><td class="n">${num(r.imports)}</td><td class="n">${num(r.resolvedImports)}</td>
<td class="n">${num(r.packageImports)}</td><td class="n">${bytes(r.bytes)}</td></tr>`,
)}</tbody></table></div>
<p class="how">Imports: resolved to a file of the repository, or to a package outside it; the rest did not resolve.</p>`;
}

export function pruningBody(p: PruneStats): Html {
  if (p.batches === 0 && p.totals.results === 0)
    return html`<h2>Pruning</h2>${empty("Pruning has not replaced any tool result yet (it starts when old results are big enough to clear).")}`;
  return html`<h2>Pruning</h2>
<div class="cards">
${card("Results replaced", "results", p.totals.results, html`Old tool results replaced by pointers to their text in the store, in ${num(p.batches)} batches (${num(p.adaptiveBatches)} adaptive).`)}
${card(
  "Tokens saved per request",
  "savedPerRequest",
  p.totals.savedPerRequest,
  html`results' tokens − pointers' tokens = ${num(p.totals.tokensBefore)} − ${num(p.totals.tokensAfter)}, saved on every later request of
their session. How many requests followed is in pi's session, not here, so this is not multiplied by them.`,
)}
</div>
<h3>By tool</h3><div class="scroll"><table><thead><tr><th scope="col">tool</th><th class="n" scope="col">results</th>
<th class="n" scope="col">tokens before</th><th class="n" scope="col">after</th><th class="n" scope="col">saved per request</th></tr></thead><tbody>
${p.byTool.map(
  (
    t,
  ) => html`<tr><td>${t.tool}</td><td class="n">${num(t.results)}</td><td class="n">${num(t.tokensBefore)}</td><td class="n">${num(t.tokensAfter)}</td>
<td class="n">${num(t.savedPerRequest)}</td></tr>`,
)}</tbody></table></div>
<h3>Recent batches</h3><div class="scroll"><table><thead><tr><th scope="col">time (UTC)</th><th scope="col">session</th>
<th class="n" scope="col">results</th><th class="n" scope="col">tokens before</th><th class="n" scope="col">after</th><th scope="col">kind</th></tr></thead><tbody>
${p.recent.map(
  (
    b,
  ) => html`<tr><td>${when(b.at)}</td><td>${b.session ?? "(none)"}</td><td class="n">${num(b.results)}</td><td class="n">${num(b.tokensBefore)}</td>
<td class="n">${num(b.tokensAfter)}</td><td>${b.adaptive ? "adaptive" : "regular"}</td></tr>`,
)}</tbody></table></div>`;
}
