/**
 * memory_recall, the working context: the top keyword hits for the current prompt, this
 * session's events, what earlier sessions said that no summary holds yet (the open window, its
 * corrections and decisions first), and the project's last two summaries, within a token budget
 * (real tokens, counted on the finished text). Replaced statements are left out; what replaced
 * them stays.
 */
import { countTokens } from "../tokens/count.ts";
import type { MemoryDeps } from "./deps.ts";
import { EVENT_COLUMNS, type EventRow } from "./events.ts";
import { lineEvent, rankedLines } from "./extractive.ts";
import { remembered } from "./remember.ts";
import { ago, clip, eventLine, oneLine } from "./render.ts";
import { rankedHits } from "./search.ts";
import { latestSummaries } from "./summarize.ts";
import { replacements } from "./supersede.ts";

type Section = "related" | "session" | "recent" | "summary";
type Item = { key: string; section: Section; text: string; cost: number; order: number };

const HEADER =
  "[pi-sidecar memory: what this project's earlier sessions left; where statements conflict the newest is current. " +
  "Search more with memory_search.]";
const TITLES: Record<Section, string> = {
  related: "Related to this prompt:",
  session: "This session:",
  recent: "Earlier sessions, not yet summarised:",
  summary: "Earlier (summaries):",
};
const SECTIONS = ["related", "session", "recent", "summary"] as const;
/** Shares of the budget each section may take on the first pass (the rest fills on the second). */
const SHARE: Record<Section, number> = { related: 0.4, session: 0.2, recent: 0.15, summary: 0.25 };
/** Events of the open window read for the recent section (at most two windows wait for a summary). */
const RECENT_EVENTS = 100;
const SESSION_EVENTS = 40;
const RELATED = 8;
/** Candidates ranked for the related section (a search ranks 60 events and 20 summaries). */
const RELATED_CANDIDATES = { events: 40, summaries: 14 };

/** Items' real token counts: the same summary lines and recent events come back recall after recall. */
const counted = remembered<number>(5000);

/** An item's tokens with its newline (real tokenizer); the finished text is counted again as a whole. */
function cost(s: string): number {
  return counted(s, () => countTokens(s) + 1);
}

export type Recalled = { text: string; tokens: number; items: { id: string; section: Section }[] };

function sessionEvents(deps: MemoryDeps, projectId: number, session: string | null): EventRow[] {
  const sessionId = session ? deps.registry.findSession(projectId, session) : null;
  if (sessionId === null) return [];
  // The session's unarchived events (what is archived is in the summaries).
  return deps.db
    .query<EventRow, [number, number, number]>(
      `SELECT ${EVENT_COLUMNS} FROM memory_events WHERE project_id = ? AND archived = 0 AND session_id = ? ORDER BY id DESC LIMIT ?`,
    )
    .all(projectId, sessionId, SESSION_EVENTS);
}

/** The project's unarchived events of other sessions, oldest first. */
function recentEvents(deps: MemoryDeps, projectId: number, skipSessions: Set<number>): EventRow[] {
  return deps.db
    .query<EventRow, [number, number]>(
      `SELECT ${EVENT_COLUMNS} FROM memory_events WHERE project_id = ? AND archived = 0 ORDER BY id DESC LIMIT ?`,
    )
    .all(projectId, RECENT_EVENTS)
    .filter((e) => !skipSessions.has(e.session_id))
    .reverse();
}

function candidateItems(deps: MemoryDeps, projectId: number, session: string | null, prompt: string): Item[] {
  const now = deps.now();
  const items: Item[] = [];
  const seen = new Set<string>();
  const add = (key: string, section: Section, text: string, order: number) => {
    if (seen.has(key)) return;
    seen.add(key);
    items.push({ key, section, text, cost: cost(text), order });
  };
  if (prompt.trim() !== "") {
    let order = 0;
    for (const h of rankedHits(deps, projectId, prompt, RELATED, RELATED_CANDIDATES)) {
      if (h.type === "event") {
        if (h.unit.replacedBy === null) add(`e${h.row.id}`, "related", `- ${eventLine(h.row, now, null, 400)}`, order++);
      } else {
        for (const l of h.lines) {
          if (l.replacedBy !== null) continue;
          add(
            l.event === null ? `s${h.row.id}:${l.text}` : `e${l.event}`,
            "related",
            `- s${h.row.id}: ${clip(l.text.replace(/^- /, ""), 400)}`,
            order++,
          );
        }
      }
    }
  }
  const mine = sessionEvents(deps, projectId, session);
  const others = recentEvents(deps, projectId, new Set(mine.map((e) => e.session_id)));
  const summaries = latestSummaries(deps, projectId, 2);
  const refs = [
    ...mine.map((e) => e.id),
    ...others.map((e) => e.id),
    ...summaries.flatMap((s) => s.text.split("\n").map(lineEvent)),
  ].filter((x): x is number => x !== null);
  const replaced = replacements(deps, refs);
  mine.forEach((e, i) => {
    if (!replaced.has(e.id)) add(`e${e.id}`, "session", `- ${eventLine(e, now, null, 300)}`, i);
  });
  const current = others.filter((e) => !replaced.has(e.id));
  // Ranked as a summary would keep them (corrections, decisions and facts first), counted only when added.
  const byId = new Map(current.map((e) => [e.id, e]));
  rankedLines(current, new Set()).forEach(({ line, text }, i) => {
    const e = byId.get(line.id)!;
    add(`e${e.id}`, "recent", `- e${e.id} ${e.kind}, ${ago(e.ts, now)}: ${clip(oneLine(text.replace(/^- e\d+ [^:]*: /, "")), 300)}`, i);
  });
  summaries.forEach((s, si) => {
    s.text
      .split("\n")
      .slice(1)
      .forEach((line, li) => {
        const ref = lineEvent(line);
        if (ref !== null && replaced.has(ref)) return;
        add(
          ref === null ? `s${s.id}:${li}` : `e${ref}`,
          "summary",
          `- s${s.id} (${ago(s.created_at, now)}): ${clip(oneLine(line.replace(/^- /, "")), 300)}`,
          si * 1000 + li,
        );
      });
  });
  return items;
}

/** Picks items by section share, then fills what is left in the same order of importance. */
function choose(items: Item[], budget: number): Item[] {
  const chosen = new Set<Item>();
  let used = cost(HEADER) + SECTIONS.reduce((n, s) => n + cost(TITLES[s]), 0);
  const spent: Record<Section, number> = { related: 0, session: 0, recent: 0, summary: 0 };
  const ordered = SECTIONS.flatMap((s) => items.filter((i) => i.section === s).sort((a, b) => a.order - b.order));
  for (const pass of [0, 1]) {
    for (const item of ordered) {
      if (chosen.has(item) || used + item.cost > budget) continue;
      if (pass === 0 && spent[item.section] + item.cost > budget * SHARE[item.section]) continue;
      chosen.add(item);
      used += item.cost;
      spent[item.section] += item.cost;
    }
  }
  return ordered.filter((i) => chosen.has(i));
}

/** The lines of the text (none for no items). */
function render(items: Item[]): string[] {
  if (items.length === 0) return [];
  const out = [HEADER];
  for (const section of SECTIONS) {
    const mine = items.filter((i) => i.section === section);
    if (section === "session") mine.reverse(); // oldest first reads as a transcript
    if (mine.length > 0) out.push(TITLES[section], ...mine.map((i) => i.text));
  }
  return out;
}

/** Lines' real token counts, with the newline after them and as the last line (the same lines come back recall after recall). */
const countedLines = remembered<number>(5000);
const countedLast = remembered<number>(500);

/**
 * The real token count of the lines joined by newlines, from each line's own count (kept), not by
 * counting the whole text again. Exact: the tokenizer's pieces (o200k's split) never run from a
 * newline into a line that begins with "-", "[" or a letter (whitespace ending in a newline is a
 * piece of its own, and punctuation takes up only the newlines and slashes after it), so the text
 * splits into the same pieces as its lines do. Every line but the first begins so (the header,
 * titles and "- " items); anything else is counted whole, as before.
 */
async function tokensOf(deps: MemoryDeps, lines: string[]): Promise<number> {
  if (lines.length === 0) return 0;
  if (!lines.every((l, i) => i === 0 || /^[-[\p{L}]/u.test(l))) return deps.count([lines.join("\n")]);
  let n = 0;
  for (const [i, line] of lines.entries())
    n += i === lines.length - 1 ? countedLast(line, () => countTokens(line)) : countedLines(line, () => countTokens(`${line}\n`));
  return n;
}

/** The working context within `budget` tokens; the count is the real tokenizer's, on the text returned. */
export async function recall(
  deps: MemoryDeps,
  projectId: number,
  session: string | null,
  prompt: string,
  budget: number,
): Promise<Recalled> {
  let chosen = choose(candidateItems(deps, projectId, session, prompt), budget);
  let lines = render(chosen);
  let tokens = await tokensOf(deps, lines);
  // Items' costs are estimates (a line's count plus one for its newline): drop the least important items until the whole fits.
  while (tokens > budget && chosen.length > 0) {
    const drop = Math.max(1, Math.ceil(chosen.length * ((tokens - budget) / tokens)));
    chosen = chosen.slice(0, chosen.length - drop);
    lines = render(chosen);
    tokens = await tokensOf(deps, lines);
  }
  return { text: lines.join("\n"), tokens, items: chosen.map((i) => ({ id: i.key.split(":")[0]!, section: i.section })) };
}
