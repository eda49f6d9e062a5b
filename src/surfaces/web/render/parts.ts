/** Pieces several panels use: the savings table, filter forms, cards with their "how" line, a problem box. */
import type { Tally } from "../../../store/index.ts";
import { type Html, href, html, num } from "../html.ts";

export type Filters = { session?: string; tool?: string; project?: string; source?: string };

export function tallyTable(caption: string, first: string, rows: { name: Html | string; t: Tally }[]): Html {
  if (rows.length === 0) return html``;
  return html`<h3>${caption}</h3><div class="scroll"><table>
<thead><tr><th scope="col">${first}</th><th class="n" scope="col">captures</th><th class="n" scope="col">baseline tokens</th>
<th class="n" scope="col">receipt tokens</th><th class="n" scope="col">retrieved tokens</th><th class="n" scope="col">net saved</th>
<th class="n" scope="col">stored tokens</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${r.name}</td><td class="n">${num(r.t.captures)}</td><td class="n">${num(r.t.baselineTokens)}</td>
<td class="n">${num(r.t.receiptTokens)}</td><td class="n">${num(r.t.retrievedTokens)}</td>
<td class="n${r.t.netSavedTokens < 0 ? " negative" : ""}">${num(r.t.netSavedTokens)}</td><td class="n">${num(r.t.storedTokens)}</td></tr>`,
  )}</tbody></table></div>`;
}

export function card(label: string, metric: string, value: number, how: Html | string, extraClass = ""): Html {
  return html`<section class="card" aria-label="${label}"><div class="label">${label}</div>
<div class="value${value < 0 ? " negative" : ""}${extraClass}" data-metric="${metric}" data-value="${value}">${num(value)}</div>
<p class="how">${how}</p></section>`;
}

export function filterForm(action: string, f: Filters, fields: (keyof Filters)[], extra: Html = html``): Html {
  return html`<form class="filters" method="get" action="${action}" role="search" aria-label="Filters">
${fields.map((k) => html`<label>${k}<input name="${k}" value="${f[k] ?? ""}" size="14"></label>`)}
${extra}<button type="submit">Apply</button>${fields.some((k) => f[k]) ? html` <a href="${action}">clear filters</a>` : ""}</form>`;
}

export function problem(title: string, message: string, hint?: string): Html {
  return html`<div class="problem" role="alert"><h2>${title}</h2><p><code>${message}</code></p>${hint ? html`<p>${hint}</p>` : ""}</div>`;
}

export function empty(text: string): Html {
  return html`<p class="note" data-empty="true">${text}</p>`;
}

/** A link to the sources list narrowed to one value. */
export function sourcesLink(key: keyof Filters, value: string | null, label?: string): Html {
  if (value === null) return html`(none)`;
  return html`<a href="${href("/sources", { [key]: value })}">${label ?? value}</a>`;
}

/** A form that asks the server, then the user, before it deletes anything (app.js drives it). */
export function dangerForm(action: string, fields: Record<string, string>, label: string, after?: string): Html {
  return html`<form class="inline" data-action="${action}" method="post"${after ? html` data-after="${after}"` : ""}>${Object.entries(
    fields,
  ).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}<button type="submit" class="danger">${label}</button></form>`;
}
