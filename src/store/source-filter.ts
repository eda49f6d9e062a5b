/** Narrowing to some sources: one shape and one SQL translation for search, list and stats. */
import { asStored } from "../redact/lazy.ts";

export type SourceFilter = { source?: string; tool?: string; session?: string; project?: string };

/**
 * Conditions on the sources table aliased `s`, with their parameters in order. Tool, session and
 * project were redacted when stored, so the values asked for are matched as they were stored.
 */
export function sourceConditions(f: SourceFilter): { conds: string[]; params: string[] } {
  const conds: string[] = [];
  const params: string[] = [];
  if (f.source) {
    conds.push("s.handle = ?");
    params.push(f.source);
  }
  if (f.tool) {
    conds.push("s.tool = ?");
    params.push(asStored(f.tool)!);
  }
  if (f.session) {
    conds.push("s.session = ?");
    params.push(asStored(f.session)!);
  }
  if (f.project) {
    conds.push("s.project = ?");
    params.push(asStored(f.project)!);
  }
  return { conds, params };
}
