/** The memory panel: what episodic memory holds per project, a search, and forgetting one memory (confirmed). */
import type { MemoryHit, ProjectStats } from "../../../memory/index.ts";
import { bytes, type Html, html, num, when } from "../html.ts";
import { dangerForm, empty, problem } from "./parts.ts";

export type MemoryView =
  | { available: false }
  | {
      available: true;
      projects: ProjectStats[] | null;
      failure: string | null;
      search: { project: string; query: string; hits: MemoryHit[] | null; failure: string | null } | null;
      /** The newest entries of the chosen project, when no search was asked for. */
      recent: RecentMemories | null;
    };

export type RecentMemories = { project: string; hits: MemoryHit[] | null; failure: string | null };

/** Memories as a list, each with its own (confirmed) forget button. */
function hitList(project: string, hits: MemoryHit[]): Html {
  return html`<ol>${hits.map(
    (
      h,
    ) => html`<li><strong>${h.id}</strong> ${h.kind}, ${when(h.ts)}${h.session ? `, session ${h.session}` : ""}${h.supersededBy ? `, replaced by ${h.supersededBy}` : ""}
<pre>${h.text}</pre>${dangerForm("/api/memory/forget", { project, id: h.id }, `Forget ${h.id}`)}</li>`,
  )}</ol>`;
}

function recentSection(r: RecentMemories | null): Html {
  if (!r) return html``;
  if (r.failure) return problem("Recent memories could not be read", r.failure);
  const hits = r.hits ?? [];
  return html`<h3>Recent in ${r.project}</h3>${hits.length === 0 ? empty("No events in this project yet.") : hitList(r.project, hits)}`;
}

function searchSection(v: Extract<MemoryView, { available: true }>): Html {
  const projects = v.projects ?? [];
  const s = v.search;
  const form = html`<form class="filters" method="get" action="/memory" role="search" aria-label="Search memory">
<label>project<select name="project">${projects.map(
    (p) => html`<option${(s?.project ?? v.recent?.project) === p.project ? html` selected` : ""}>${p.project}</option>`,
  )}</select></label>
<label>search<input type="search" name="q" value="${s?.query ?? ""}"></label><button type="submit">Search</button></form>`;
  if (!s) return html`${form}${recentSection(v.recent)}<p id="action-status" class="status" role="status"></p>`;
  if (s.failure) return html`${form}${problem("Memory search failed", s.failure)}`;
  const hits = s.hits ?? [];
  return html`${form}${
    hits.length === 0 ? empty("No memories match.") : hitList(s.project, hits)
  }<p id="action-status" class="status" role="status"></p>`;
}

export function memoryBody(v: MemoryView): Html {
  if (!v.available) return html`<h2>Memory</h2>${empty("Episodic memory is not part of this build's engine yet.")}`;
  if (v.failure) return html`<h2>Memory</h2>${problem("Memory could not be read", v.failure)}`;
  const projects = v.projects ?? [];
  if (projects.length === 0) return html`<h2>Memory</h2>${empty("No memory yet: events are kept as pi sessions run (memory.enabled).")}`;
  return html`<h2>Memory</h2><div class="scroll"><table><thead><tr><th scope="col">project</th><th scope="col">on</th>
<th class="n" scope="col">events</th><th class="n" scope="col">not yet summarised</th><th class="n" scope="col">summaries</th>
<th class="n" scope="col">sessions</th><th class="n" scope="col">replaced statements</th><th class="n" scope="col">text</th></tr></thead><tbody>
${projects.map(
  (
    p,
  ) => html`<tr><td>${p.project}</td><td>${p.enabled ? "yes" : "off"}</td><td class="n">${num(p.events)}</td><td class="n">${num(p.unarchived)}</td>
<td class="n">${num(p.summaries)}</td><td class="n">${num(p.sessions)}</td><td class="n">${num(p.supersessions)}</td><td class="n">${bytes(p.textBytes)}</td></tr>`,
)}</tbody></table></div>
<h3>Search and forget</h3>${searchSection(v)}`;
}
