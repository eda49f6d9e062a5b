/**
 * Episodic memory, the service the engine exposes: one entry point, `handle(request)`, for every
 * surface. Events are stored redacted and counted, corrections replace what they correct, windows
 * become summaries, recall assembles a working context within a token budget. SQLite alone: no
 * vector store, no model (unless the pi surface hands in a model summary), no process, no network.
 *
 * Each call is short: an add is one small transaction plus a bounded maintenance step.
 */
import { errorMessage, fail, type Result } from "../errors.ts";
import { type MemoryDeps, type MemoryOptions, parseMemoryId, summaryId } from "./deps.ts";
import { insertEvents, type Prepared, prepareEvent, type RawEvent } from "./events.ts";
import { forgetId, forgetQuery, markCleanIfEmpty } from "./forget.ts";
import { checkReplacements, maintain, STEP_MS, storeModelSummary } from "./maintain.ts";
import { createRegistry } from "./projects.ts";
import { recall } from "./recall.ts";
import { recentMemories } from "./recent.ts";
import { eventLine, summaryLine } from "./render.ts";
import { runRetention } from "./retention.ts";
import { rankedHits } from "./search.ts";
import { publishDisabled, takeSpool } from "./spool.ts";
import { markProjects, spoolDir } from "./spool-file.ts";
import { memoryStats, memoryStatus } from "./stats.ts";
import { nextWindow, windowText } from "./summarize.ts";
import { checkedUpTo, startChecks } from "./supersede.ts";
import { MAX_BATCH, type MemoryAnswer, type MemoryHit, type MemoryRequest } from "./types.ts";
import { type Hit, hitScore } from "./units.ts";

export type MemoryService = { handle(request: MemoryRequest): Promise<Result<MemoryAnswer>> };

const MAX_LIMIT = 50;
const MAX_INJECTIONS_KEPT = 50;
/**
 * Maintenance steps a batch add takes before it returns (the rest is left pending), as many as a
 * single add: the steps of a batch are spent on its own backlog, so more of them only made each
 * batch wait longer (4 steps were a quarter of an import's time) without ending the backlog sooner.
 */
const IMPORT_STEPS = 1;
/**
 * A batch of at least this many events that finds the project's checks already behind is part of
 * an import in progress: it is stored and adds to the backlog without a step of its own. Its step
 * would check against an index the import keeps splitting into new segments (each lookup seeks
 * in every one), while the backlog pass that follows merges the index first and then checks the
 * same events faster; the step only made every batch of a million-event import wait 30 ms (a ninth
 * of its time). Smaller batches (captures) and an import's first batch take their step as before.
 */
const IMPORT_BATCH = 1000;

/** Whether the project's checks are behind: some event (of any project: ids are shared) is newer than what they reached. */
function checksBehind(deps: MemoryDeps, projectId: number): boolean {
  const top = deps.db.query<{ id: number | null }, []>("SELECT max(id) AS id FROM memory_events").get()?.id ?? 0;
  return !checkedUpTo(deps, projectId, top);
}

const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

function checkProject(project: unknown): Result<{ project: string }> {
  if (typeof project !== "string" || project.trim() === "")
    return fail("BAD_PROJECT", "project must be the project's directory (a non-empty path).");
  return { ok: true, project };
}

export function toMemoryHit(deps: MemoryDeps, h: Hit): MemoryHit {
  if (h.type === "event") {
    return {
      id: `e${h.row.id}`,
      type: "event",
      kind: h.row.kind,
      ts: h.row.ts,
      session: deps.registry.sessionName(h.row.session_id) || null,
      text: h.row.content,
      score: Math.round(h.unit.score * 1000) / 1000,
      supersededBy: h.unit.replacedBy === null ? null : `e${h.unit.replacedBy}`,
    };
  }
  const lines = h.lines.map((l) => summaryLine(l.text, l.replacedBy, true)!);
  return {
    id: summaryId(h.row.id),
    type: "summary",
    kind: "summary",
    ts: h.row.created_at,
    session: null,
    text: [h.row.text.split("\n")[0], ...lines].join("\n"),
    score: Math.round(hitScore(h) * 1000) / 1000,
    supersededBy: null,
  };
}

function searchText(deps: MemoryDeps, query: string, hits: Hit[]): string {
  if (hits.length === 0) return `No memories match ${quoted(query)}. Try other or fewer words; memory_recall gives this session's context.`;
  const now = deps.now();
  const lines = [
    `${hits.length} memor${hits.length === 1 ? "y" : "ies"} for ${quoted(query)} (where statements conflict, the newer is current):`,
  ];
  for (const h of hits) {
    if (h.type === "event") lines.push(eventLine(h.row, now, h.unit.replacedBy));
    else
      lines.push(
        `${summaryId(h.row.id)} ${h.row.text.split("\n")[0]}:`,
        ...h.lines.map((l) => `  ${summaryLine(l.text, l.replacedBy, true)}`),
      );
  }
  return lines.join("\n");
}

export function createMemoryService(options: MemoryOptions): MemoryService {
  const deps: MemoryDeps = {
    ...options,
    log: options.log ?? (() => {}),
    registry: createRegistry(options.db, (id) => startChecks(options, id)),
  };
  markCleanIfEmpty(options.db);

  type Rejected = { index: number; reason: string; code: string };
  async function add(
    project: string,
    session: string | null,
    raw: RawEvent[],
  ): Promise<Result<{ ids: number[]; duplicates: number; prepared: Prepared[]; rejected: Rejected[] } | { skipped: string }>> {
    const prepared: Prepared[] = [];
    const rejected: Rejected[] = [];
    for (const [index, r] of raw.entries()) {
      const p = await prepareEvent(deps, r, { project, session });
      if (p.ok) prepared.push(p.event);
      else rejected.push({ index, reason: p.message, code: p.code });
    }
    const inserted = prepared.length === 0 ? { ids: [], duplicates: 0 } : insertEvents(deps, project, prepared);
    if (inserted !== null && inserted.ids.length > 0) markProjects(spoolDir(deps.config.db), [project]);
    if (inserted === null)
      return { ok: true, skipped: `Memory is off for ${project}: nothing stored. Turn it on with /memory on or \`pi-sidecar memory on\`.` };
    return { ok: true, ...inserted, prepared, rejected };
  }

  const handlers: { [T in MemoryRequest["type"]]: (r: Extract<MemoryRequest, { type: T }>) => Promise<Result<MemoryAnswer>> } = {
    async add(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const session = r.session ?? null;
      const done = await add(r.project, session, [{ kind: r.kind, text: r.text, ts: r.ts, session: session ?? undefined }]);
      if (!done.ok) return done;
      if ("skipped" in done)
        return {
          ok: true,
          type: "add",
          id: "",
          kind: r.kind,
          tokens: 0,
          cut: false,
          sourceId: null,
          redactions: 0,
          supersedes: [],
          summaries: [],
          summaryDue: false,
          skipped: done.skipped,
        };
      if (done.rejected.length > 0) return fail(done.rejected[0]!.code, done.rejected[0]!.reason);
      const id = done.ids[0]!;
      const e = done.prepared[0]!;
      const projectId = deps.registry.project(r.project, false)!;
      const m = await maintain(deps, projectId);
      const supersedes = deps.db
        .query<{ old_id: number }, [number]>("SELECT old_id FROM memory_supersessions WHERE new_id = ? ORDER BY old_id")
        .all(id)
        .map((x) => `e${x.old_id}`);
      return {
        ok: true,
        type: "add",
        id: `e${id}`,
        kind: e.kind,
        tokens: e.tokens,
        cut: e.cut,
        sourceId: e.source,
        redactions: e.redactions,
        supersedes,
        summaries: m.summaries.map(summaryId),
        summaryDue: m.summaryDue,
      };
    },

    async addMany(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      if (!Array.isArray(r.events)) return fail("BAD_EVENTS", "events must be a list of {kind, text, session?, ts?}.");
      if (r.events.length > MAX_BATCH) return fail("TOO_MANY", `At most ${MAX_BATCH} events per call; send the rest in another call.`);
      const known = deps.registry.project(r.project, false);
      const importing = known !== null && r.events.length >= IMPORT_BATCH && checksBehind(deps, known);
      const done = await add(r.project, r.session ?? null, r.events);
      if (!done.ok) return done;
      if ("skipped" in done)
        return {
          ok: true,
          type: "addMany",
          added: 0,
          duplicates: 0,
          ids: [],
          rejected: [],
          summaries: [],
          pending: false,
          skipped: done.skipped,
        };
      const projectId = deps.registry.project(r.project, false);
      // A batch is stored first; the maintenance it leaves (corrections to check, about one window
      // per windowEvents events to summarise) gets a few bounded steps now and says it is pending:
      // `memory add --jsonl` then works the backlog off with summarize before it returns, and every
      // later call takes a step. Done in proportion here, an import of 5,000 events would wait
      // seconds for checks no caller is waiting on.
      const windows = Math.ceil(done.ids.length / deps.config.memory.windowEvents) + 1;
      const m =
        projectId === null || importing
          ? null
          : await maintain(deps, projectId, { maxSummaries: windows, budgetMs: STEP_MS * IMPORT_STEPS });
      return {
        ok: true,
        type: "addMany",
        added: done.ids.length,
        duplicates: done.duplicates,
        pending: importing || (m?.pending ?? false),
        ids: done.ids.map((id) => `e${id}`),
        rejected: done.rejected.map(({ index, reason }) => ({ index, reason })),
        summaries: (m?.summaries ?? []).map(summaryId),
      };
    },

    async search(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      if (typeof r.query !== "string" || r.query.trim() === "")
        return fail("EMPTY_QUERY", 'Give search words, e.g. memory_search({query: "staging port"}).');
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(r.limit ?? 5)));
      const projectId = deps.registry.project(r.project, false);
      if (projectId === null) return { ok: true, type: "search", query: r.query, hits: [], text: `No memory for ${r.project} yet.` };
      checkReplacements(deps, projectId, performance.now() + STEP_MS);
      const hits = rankedHits(deps, projectId, r.query, limit);
      return {
        ok: true,
        type: "search",
        query: r.query,
        hits: hits.map((h) => toMemoryHit(deps, h)),
        text: searchText(deps, r.query, hits),
      };
    },

    async recall(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const budget = Math.min(32_000, Math.max(50, Math.floor(r.budget ?? deps.config.memory.recallTokens)));
      const projectId = deps.registry.project(r.project, false);
      if (projectId === null) return { ok: true, type: "recall", text: "", tokens: 0, budget, items: [] };
      if (r.inject && !deps.registry.enabled(projectId)) return { ok: true, type: "recall", text: "", tokens: 0, budget, items: [] };
      checkReplacements(deps, projectId, performance.now() + STEP_MS);
      const got = await recall(deps, projectId, r.session ?? null, typeof r.prompt === "string" ? r.prompt : "", budget);
      if (r.inject && got.items.length > 0) {
        deps.db
          .query("INSERT INTO memory_injections (project_id, session, at, mode, tokens, items) VALUES (?, ?, ?, ?, ?, ?)")
          .run(projectId, r.session ?? null, deps.now(), r.inject, got.tokens, JSON.stringify(got.items.map((i) => i.id)));
        deps.db
          .query(
            "DELETE FROM memory_injections WHERE project_id = ? AND id <= (SELECT id FROM memory_injections WHERE project_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
          )
          .run(projectId, projectId, MAX_INJECTIONS_KEPT);
      }
      return { ok: true, type: "recall", text: got.text, tokens: got.tokens, budget, items: got.items };
    },

    async forget(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const hasId = typeof r.id === "string" && r.id.trim() !== "";
      const hasQuery = typeof r.query === "string" && r.query.trim() !== "";
      if (hasId === hasQuery) return fail("BAD_FORGET", "Give exactly one of an id (e123, s45) or a query (the words to forget).");
      const projectId = deps.registry.project(r.project, false);
      if (projectId === null) return fail("NOT_FOUND", `No memory for ${r.project}.`);
      let more = false;
      let forgotten: Awaited<ReturnType<typeof forgetId>>;
      if (hasId) {
        const target = parseMemoryId(r.id!);
        if (!target) return fail("BAD_ID", `${quoted(r.id!)} is not a memory id: events look like e123, summaries like s45.`);
        forgotten = await forgetId(deps, projectId, target);
      } else {
        const q = await forgetQuery(deps, projectId, r.query!);
        if (!q.ok) return q;
        more = q.more;
        forgotten = q;
      }
      if (!forgotten.ok) return forgotten;
      const f = forgotten.forgotten;
      const ids = [...f.events.map((id) => `e${id}`), ...f.summaries.map(summaryId)];
      const text =
        f.events.length + f.summaries.length + f.rewritten.length === 0
          ? `Nothing matched ${quoted(r.query ?? r.id ?? "")}; nothing was deleted.`
          : `Deleted ${f.events.length} event${f.events.length === 1 ? "" : "s"} and ${f.summaries.length} summar${f.summaries.length === 1 ? "y" : "ies"}` +
            (f.rewritten.length > 0
              ? `; removed their lines from ${f.rewritten.length} summar${f.rewritten.length === 1 ? "y" : "ies"}`
              : "") +
            ` (rows, index entries and the file's free pages).${more ? " More matched: run the same forget again." : ""}`;
      const note = f.note ?? "";
      return { ok: true, type: "forget", events: f.events.length, summaries: f.summaries.length, ids, text: text + note };
    },

    stats: async (r) => ({ ok: true, ...memoryStats(deps, r.project) }),

    async status(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      return { ok: true, ...memoryStatus(deps, r.project, r.session ?? null) };
    },

    async setEnabled(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const projectId = deps.registry.project(r.project, true)!;
      deps.registry.setEnabled(projectId, r.enabled === true);
      publishDisabled(deps);
      const text = r.enabled
        ? `Memory is on for ${r.project}: prompts, answers, corrections, failures and edited files are remembered.`
        : `Memory is off for ${r.project}: nothing is captured or injected (what is stored stays; forget deletes it). /memory on turns it back on.`;
      return { ok: true, type: "setEnabled", project: r.project, enabled: r.enabled === true, text };
    },

    async summarize(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const projectId = deps.registry.project(r.project, false);
      if (projectId === null) return { ok: true, type: "summarize", summaries: [], pending: false };
      const steps = Math.min(1000, Math.max(1, Math.floor(r.steps ?? 20)));
      const m = await maintain(deps, projectId, { budgetMs: STEP_MS * 10, maxSummaries: steps, force: r.force === true, backlog: true });
      return { ok: true, type: "summarize", summaries: m.summaries.map(summaryId), pending: m.pending };
    },

    async window(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const projectId = deps.registry.project(r.project, false);
      const w = projectId === null ? null : nextWindow(deps, projectId);
      if (!w?.due) return { ok: true, type: "window", window: null, text: "" };
      const window = { first: w.rows[0]!.id, last: w.rows.at(-1)!.id, events: w.rows.length, tokens: w.tokens };
      return { ok: true, type: "window", window, text: windowText(w.rows) };
    },

    async storeSummary(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const projectId = deps.registry.project(r.project, false);
      if (projectId === null || !r.window) return fail("NOT_FOUND", `No memory for ${r.project}.`);
      const id = await storeModelSummary(deps, projectId, r.window, typeof r.text === "string" ? r.text : null);
      return { ok: true, type: "summarize", summaries: id === null ? [] : [summaryId(id)], pending: nextWindow(deps, projectId).due };
    },

    retention: async () => ({ ok: true, type: "retention", ...runRetention(deps) }),

    async recent(r) {
      const c = checkProject(r.project);
      if (!c.ok) return c;
      const projectId = deps.registry.project(r.project, false);
      const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(r.limit ?? 20)));
      return { ok: true, type: "recent", hits: projectId === null ? [] : recentMemories(deps, projectId, limit) };
    },
  };

  return {
    async handle(request) {
      if (typeof request !== "object" || request === null || !(request.type in handlers)) {
        return fail("BAD_REQUEST", `Unknown memory request; types: ${Object.keys(handlers).join(", ")}.`);
      }
      const handler = handlers[request.type] as (r: MemoryRequest) => Promise<Result<MemoryAnswer>>;
      // What pi's capture left in the spool comes first: every answer sees it.
      try {
        const taken = await takeSpool(deps);
        for (const projectId of taken.projects) await maintain(deps, projectId);
      } catch (error) {
        deps.log(`memory: spool: ${errorMessage(error)}`);
      }
      return handler(request);
    },
  };
}
