/**
 * Memory evaluation sets read from a folder: per project, a history as JSON Lines ({kind, session,
 * text, ts}), questions.json ([{id, query, answerContains, staleContains|null, askedAfterTs,
 * kind: fact|corrected|absent}]) and facts.json (substrings of the planted statements; without it, the
 * answers and stale values its questions name). Layouts:
 *
 *   <set>/projects/<project>/{*.jsonl, questions.json, facts.json}
 *   <set>/<project>/{*.jsonl, questions.json, facts.json}
 *   <set>/{<project>.jsonl ..., questions.json, facts.json}     (questions carry `project` when there are several)
 *
 * A set that cannot be read says why (a folder that is not a set is an error, not zero questions).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";

export type SetEvent = { kind: string; session: string | null; text: string; ts: number | null; raw: string };

export type SetQuestion = {
  id: string;
  project: string;
  query: string;
  /** Any of these in a hit answers (lower-cased, spaces collapsed). */
  answer: string[];
  stale: string[];
  askedAfterTs: number;
  kind: "fact" | "corrected" | "absent";
};

export type SetProject = { name: string; events: SetEvent[]; questions: SetQuestion[]; facts: string[] };

export type EvalSet = { name: string; dir: string; projects: SetProject[] };

export const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

function strings(v: unknown): string[] {
  if (typeof v === "string") return v.trim() === "" ? [] : [norm(v)];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === "object") return Object.values(v).flatMap(strings);
  return [];
}

/**
 * The planted statements of a facts.json: a list of strings, or of records whose `contains` is the
 * statement (their other fields, such as ids, roles and kinds, are not text of the history: "prompt"
 * or "fact" as a planted string would make every event holding that word a planted one).
 */
export function factStrings(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(factStrings);
  if (v && typeof v === "object" && "contains" in v) return strings((v as { contains: unknown }).contains);
  return strings(v);
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`);
  }
}

function readHistory(paths: string[]): SetEvent[] {
  const out: SetEvent[] = [];
  for (const path of paths.sort()) {
    readFileSync(path, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (line.trim() === "") return;
        let e: Record<string, unknown>;
        try {
          e = JSON.parse(line);
        } catch (error) {
          throw new Error(`${path}:${i + 1}: ${(error as Error).message}`);
        }
        const ts = typeof e.ts === "number" ? e.ts : typeof e.ts === "string" ? Date.parse(e.ts) : null;
        out.push({
          kind: String(e.kind),
          session: typeof e.session === "string" ? e.session : null,
          text: String(e.text),
          ts: ts !== null && Number.isFinite(ts) ? ts : null,
          raw: line,
        });
      });
  }
  return out;
}

function questionsOf(v: unknown, file: string, project: (q: Record<string, unknown>) => string): SetQuestion[] {
  const list = Array.isArray(v)
    ? v
    : v && typeof v === "object" && Array.isArray((v as { questions?: unknown }).questions)
      ? (v as { questions: unknown[] }).questions
      : null;
  if (!list) throw new Error(`${file}: expected a list of questions`);
  return list.map((raw, i) => {
    const q = raw as Record<string, unknown>;
    const kind = q.kind === "corrected" || q.kind === "absent" ? q.kind : "fact";
    const query = String(q.query ?? q.question ?? "");
    if (query === "") throw new Error(`${file}: question ${i + 1} has no query`);
    const at =
      typeof q.askedAfterTs === "number"
        ? q.askedAfterTs
        : typeof q.askedAfterTs === "string"
          ? Date.parse(q.askedAfterTs)
          : Number.POSITIVE_INFINITY;
    return {
      id: String(q.id ?? `${basename(file)}#${i + 1}`),
      project: project(q),
      query,
      answer: kind === "absent" ? [] : strings(q.answerContains),
      stale: strings(q.staleContains),
      askedAfterTs: Number.isFinite(at) ? at : Number.POSITIVE_INFINITY,
      kind,
    };
  });
}

const jsonlIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(dir, f));

/** A folder holding a project: its history files and questions. */
function projectDir(dir: string, name: string): SetProject {
  const questionsFile = join(dir, "questions.json");
  const factsFile = join(dir, "facts.json");
  return {
    name,
    events: readHistory(jsonlIn(dir)),
    questions: questionsOf(readJson(questionsFile), questionsFile, () => name),
    facts: existsSync(factsFile) ? factStrings(readJson(factsFile)) : [],
  };
}

/** Without facts.json, the planted statements are what the project's questions name as answers and stale values. */
function withFacts(p: SetProject): SetProject {
  if (p.facts.length > 0) return p;
  return { ...p, facts: [...new Set(p.questions.flatMap((q) => [...q.answer, ...q.stale]))] };
}

export function loadSet(dir: string): EvalSet {
  const name = basename(dir);
  const root = existsSync(join(dir, "projects")) && statSync(join(dir, "projects")).isDirectory() ? join(dir, "projects") : dir;
  const subdirs = readdirSync(root)
    .map((f) => join(root, f))
    .filter((p) => statSync(p).isDirectory() && existsSync(join(p, "questions.json")) && jsonlIn(p).length > 0);
  let projects: SetProject[];
  if (subdirs.length > 0) projects = subdirs.sort().map((p) => projectDir(p, basename(p)));
  else {
    // Flat: one history file per project, one questions.json for all.
    const files = jsonlIn(root);
    const questionsFile = [join(root, "questions.json"), join(dir, "questions.json")].find(existsSync);
    if (files.length === 0 || !questionsFile) throw new Error(`${dir}: no project folders with a history (*.jsonl) and questions.json`);
    const names = files.map((f) => basename(f, ".jsonl"));
    const questions = questionsOf(readJson(questionsFile), questionsFile, (q) => {
      const p = String(q.project ?? (names.length === 1 ? names[0] : ""));
      if (!names.includes(p)) throw new Error(`${questionsFile}: question ${String(q.id)} names no known project (${names.join(", ")})`);
      return p;
    });
    const factsFile = [join(root, "facts.json"), join(dir, "facts.json")].find(existsSync);
    const facts = factsFile ? factStrings(readJson(factsFile)) : [];
    projects = files.map((f, i) => ({
      name: names[i]!,
      events: readHistory([f]),
      questions: questions.filter((q) => q.project === names[i]),
      facts,
    }));
  }
  projects = projects.map(withFacts);
  for (const p of projects)
    if (p.questions.length === 0) throw new Error(`${relative(process.cwd(), dir)}: project ${p.name} has no questions`);
  return { name, dir, projects };
}

/** Every set under bench/memory/sets (each sub-folder), and the blind set when it is there. */
export function findSets(base: string): { blind: string | null; sets: string[] } {
  const blind = join(base, "blind");
  const setsDir = join(base, "sets");
  const sets = existsSync(setsDir)
    ? readdirSync(setsDir)
        .map((f) => join(setsDir, f))
        .filter((p) => statSync(p).isDirectory())
    : [];
  return { blind: existsSync(blind) && readdirSync(blind).length > 0 ? blind : null, sets: sets.sort() };
}
