/**
 * A later statement that changes what an earlier one said, even when it holds too little of the
 * query to pass the gate itself: "notice mail goes via Postmark now ... Mailgun client deleted"
 * after "patron notices go out through Mailgun", asked "which email provider delivers the patron
 * notices". The two speak of the same thing when they share a word of the query and two or more
 * words besides (the old tool's name, the setting's name), or a word of the query and a number
 * of the same unit set to another value ("snapshots are kept 30 d" and "retention now 14 d"):
 * what the query found in the earlier statement is what the later one changed. It is shown with
 * the earlier one, right above it; so is one that passes on its own but holds less of the query
 * than the statement it changes. One too thin to pass is tied to the earlier statement by the
 * words they share only when one of them is rare in the project (gate.ts isRare: the old tool's
 * name, a setting's key), not everyday words of the project ("site", "job", "mesh") that any two
 * of its statements may share. One holding only other words of the query than the earlier
 * statement ("uploads are stored in the package registry now; the Artifactory account is closed
 * and its creds deleted from the vault" after "release artifacts get uploaded to Artifactory, creds
 * in the ci vault", asked "where are the release artifacts of a build stored") is tied by two or
 * more shared words each rare in the project; one sharing a word of the query, also by one such
 * word it says is gone ("the release job pushes to the package registry; dropped Artifactory"). A
 * later change holding as much of the query as the earlier statement (holdsAsMuchAsked) speaks of
 * the same thing without sharing other words. The earlier statement's words are read with its
 * bracketed asides: "(shared download folder)" after "artifacts go to the team drive" names what a
 * later "downloads moved to the registry; the shared folder is deleted" changes. An answer taking
 * on a requested change ("charts in Vega instead please?" "Sure, porting them to Vega") is a
 * change, and the request with it.
 */

import { candidates } from "./candidates.ts";
import { mayChange, withoutCommitType } from "./change-cues.ts";
import { keysWithAsides, labelOf, statementOf, tokenKeys, withoutKindLabel } from "./classify.ts";
import { ABOVE, units } from "./conflicts.ts";
import type { MemoryDeps } from "./deps.ts";
import { promptOf } from "./exchange.ts";
import { isRare } from "./gate.ts";
import { familyKey } from "./morphology.ts";
import { keyGroups, type QueryGroup } from "./query.ts";
import { lineBody } from "./summary-line.ts";
import { timeUnitName } from "./unit-symbols.ts";
import type { EventHit, Hit, Unit } from "./units.ts";
import { NUMBER } from "./value-kinds.ts";

/** Words besides the query's that the later and the earlier statement share, at least. */
const SHARED = 2;
/** The earlier statements a later one found on its own is lifted above: the best this many. */
const SHOWN = 5;
/** Of the later statements found on their own that may change one of those, the best this many are read. */
const ALONE = 8;
/** ... and at most this share of the later one's words besides the query's: past it, the later one says the same again. */
const REPEAT = 0.5;
/** Rows a word's count is read from (a rare word's whole count; a common one's estimated, candidates.ts). */
const RARE_LOOKUP = 50;

/** Of the given words (family keys) of a hit, those it rejects (classify.ts: "dropped X", "X is gone", "Y instead of X"). */
function rejectedOf(h: EventHit, keys: readonly string[]): string[] {
  const said = statementOf(h.row.content, h.row.kind);
  return keys.filter((k) => said.rejectedWords.has(k) || said.rejected.has(k));
}

/** Of the query's groups, whether a unit holds one by a value of its kind rather than its word ("listens on :8080" for "port"; gate.ts heldByValue). */
export type HeldByValue = (u: Unit, group: number) => boolean;

/** Whether two hits hold a word of the query in common, the word naming the quantity asked for also held by a value of its kind. */
const sharesAsked = (a: Unit, b: Unit, byValue: HeldByValue) =>
  [...a.match.groups.keys()].some((g) => b.match.groups.has(g) || byValue(b, g)) || [...b.match.groups.keys()].some((g) => byValue(a, g));

/** Of a text's words (family keys it holds), those rare in the project (gate.ts isRare). */
export type RareOf = (text: string, keys: readonly string[]) => string[];

/** RareOf over a project's events, each word looked up once per search (the unknown ones of a call in one lookup). */
export function rareInProject(deps: MemoryDeps, projectId: number, single: boolean): RareOf {
  const rare = new Map<string, boolean>();
  return (text, keys) => {
    const unknown = keys.filter((k) => !rare.has(k));
    if (unknown.length > 0) {
      const query = keyGroups(text, unknown);
      const { groups } = candidates(deps.db, "events", query, {
        projectId,
        single,
        keep: 0,
        perTerm: RARE_LOOKUP,
        maxGroups: query.length,
      });
      for (const k of unknown) rare.set(k, false);
      for (const g of groups) rare.set(g.word, isRare(g));
    }
    return keys.filter((k) => rare.get(k) === true);
  };
}

/** The later statements shown, each with the earlier ones it changes (its score raised above theirs). */
export function laterChanges(
  hits: Hit[],
  passes: (u: Unit) => boolean,
  groups: QueryGroup[],
  rareOf: RareOf = (_, keys) => [...keys],
  byValue: HeldByValue = () => false,
): Map<Unit, Unit[]> {
  const out = new Map<Unit, Unit[]>();
  const earlier = units(hits).filter((u) => u.event !== null && u.replacedBy === null && (u.claim || u.record) && passes(u));
  if (earlier.length === 0) return out;
  const asked = new Set(groups.flatMap((g) => g.forms.map((f) => familyKey(f.word))));
  const keysOf = new Map<Unit, ReadonlySet<string>>();
  // A statement found on its own is lifted only above the best earlier ones (what is shown first).
  const best = [...earlier].sort((a, b) => b.score - a.score).slice(0, SHOWN);
  // The cheap tests first: an earlier passing statement (for one too thin to pass: any; for one that
  // passes on its own: one of the best, above it, holding a query word this one holds).
  const thin: [Hit & { type: "event" }, Unit[]][] = [];
  const alone: [Hit & { type: "event" }, Unit[]][] = [];
  for (const h of hits) {
    if (h.type !== "event" || h.unit.replacedBy !== null) continue;
    const later = h.unit;
    const found = passes(later);
    // Found on its own, it changes something only as a statement: a record, a claim or an agent's report of what it did.
    if (found && !(later.claim || later.record || h.row.kind === "answer")) continue;
    const olders = (found ? best : earlier).filter(
      (o) => o.order < later.order && (!found || (o.score > later.score && sharesAsked(later, o, byValue))),
    );
    if (olders.length > 0) (found ? alone : thin).push([h, olders]);
  }
  const prompts = hits.filter((h): h is EventHit => h.type === "event" && h.row.kind === "prompt");
  // Of those found on their own, the best few are read (a search holds dozens; what is shown is the top).
  alone.sort((a, b) => b[0].unit.score - a[0].unit.score);
  for (const [h, olders] of [...thin, ...alone.slice(0, ALONE)]) {
    // An answer carrying out a requested change ("charts in Vega instead please?" "Sure, ...") is the change.
    const request = requestCarried(h, prompts);
    const carried = request !== undefined;
    if (!carried && h.row.kind !== "correction" && !mayChange(h.row.content)) continue;
    const own = [...tokenKeys(h.row.content)].filter((k) => !asked.has(k));
    let laterSection: string | null | undefined;
    const thin = !passes(h.unit);
    const same = olders.filter((older) => {
      let theirs = keysOf.get(older);
      if (!theirs) {
        theirs = keysWithAsides(lineBody(older.text));
        keysOf.set(older, theirs);
      }
      const seen = theirs;
      const common = own.filter((k) => seen.has(k));
      const shared = common.length;
      // Most of its words said before: the same chatter again ("adjusted the X page, spacing is fine now"), not a change.
      if (shared > REPEAT * own.length) return false;
      // Holding none of the query's words the earlier one holds, it is tied only by two or more words each
      // rare in the project: the old tool's name and where its key was kept ("Artifactory", "vault").
      if (!sharesAsked(h.unit, older, byValue)) return rareOf(h.row.content, common).length >= SHARED;
      // Too thin to pass, it is tied by its words only through a rare one.
      const tied = () => !thin || rareOf(h.row.content, common).length > 0;
      if (shared >= SHARED && tied()) return true;
      // One word they share, rare in the project, that the later one says is gone ("dropped Artifactory") names what it changes.
      const gone = rejectedOf(h, common);
      if (gone.length > 0 && rareOf(h.row.content, gone).length > 0) return true;
      // The same label or commit scope ("print: ..." and "fix(print): ...") names the part of the project both speak of: one word more.
      laterSection ??= sectionOf(h.row.content);
      const more = shared + (laterSection !== null && laterSection === sectionOf(lineBody(older.text)) ? 1 : 0);
      // A number of the same unit changed ("min 24 px" and "raised to 40 px") said with the question's word they share is the same attribute.
      return (more >= SHARED && tied()) || swapsValue(h.row.content, older.text) || holdsAsMuchAsked(h.unit, older);
    });
    if (same.length === 0) continue;
    if (!carried && h.row.kind !== "correction" && !statementOf(h.row.content, h.row.kind).changes) continue;
    out.set(h.unit, same);
    // So is the request it carries out, said by the user: shown above what it changes with the answer.
    if (request && request.row.id > Math.max(...same.map((o) => o.order))) out.set(request.unit, same);
  }
  keepAbove(out);
  return out;
}

/**
 * Whether a later statement holds what the query found in an earlier one: two or more of the
 * query's words the earlier holds, and all of them or as much of the query's weight. A change
 * saying as much of the question ("switched the invoice PDFs over to the new renderer") is about
 * what the earlier one said of it ("invoice PDFs are rendered with the old one"), whatever other
 * words each uses.
 */
export function holdsAsMuchAsked(later: Unit, older: Unit): boolean {
  let common = 0;
  for (const g of older.match.groups.keys()) if (later.match.groups.has(g)) common++;
  return common >= 2 && (common === older.match.groups.size || later.match.held >= older.match.held);
}

/** The label or Conventional Commits scope a text opens with ("print: ...", "fix(print): ..."); not a kind label ("note: ..."). */
const sectionOf = (text: string) => labelOf(withoutCommitType(withoutKindLabel(text)));

/** A number (value-kinds.ts's shape) with its unit ("24 px", "300 rows", "15%"). */
const QUANTITY = new RegExp(`(${NUMBER})\\s?(%|[\\p{L}°]{1,12})(?![\\p{L}\\p{N}])`, "gu");

/** One unit however written: a time unit's symbol by its name, a plural by its singular ("45 min" and "30 minutes", "2 h" and "3 hours"). */
function unitKey(written: string): string {
  const unit = timeUnitName(written) ?? written.toLowerCase();
  return unit.length > 3 && unit.endsWith("s") ? unit.slice(0, -1) : unit;
}

function quantities(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of text.slice(0, 2000).matchAll(QUANTITY)) {
    const unit = unitKey(m[2]!);
    const set = out.get(unit) ?? new Set<string>();
    set.add(m[1]!);
    out.set(unit, set);
  }
  return out;
}

/** Whether both say a number of one unit and the later one's differs: the same quantity set to another value. */
export function swapsValue(later: string, earlier: string): boolean {
  const before = quantities(lineBody(earlier));
  for (const [unit, values] of quantities(later)) {
    const old = before.get(unit);
    if (old && [...values].some((v) => !old.has(v)) && [...old].some((v) => !values.has(v))) return true;
  }
  return false;
}

/** Each later change right above the earlier statements it changes (again after the other reorderings of a search). */
export function keepAbove(changes: Map<Unit, Unit[]>): void {
  for (const [later, olders] of changes) later.score = Math.max(later.score, ...olders.map((o) => o.score * ABOVE));
}

/**
 * The prompt among the hits an answer replies to, when it asks for a change ("can the charts
 * use Vega instead?"): the answer carries it out ("Sure, porting the dashboard charts to Vega"),
 * in words that need no cue of change of their own. A request alone changes nothing
 * (classify.ts); the answer taking it on does.
 */
function requestCarried(h: EventHit, prompts: EventHit[]): EventHit | undefined {
  if (h.row.kind !== "answer") return undefined;
  const p = promptOf(h.row, prompts);
  return p !== undefined && mayChange(p.row.content) ? p : undefined;
}
