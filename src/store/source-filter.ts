/** Narrowing to some sources: one shape and one SQL translation for search, list and stats. */
export type SourceFilter = { source?: string; tool?: string; session?: string; project?: string };

/** Conditions on the sources table aliased `s`, with their parameters in order. */
export function sourceConditions(f: SourceFilter): { conds: string[]; params: string[] } {
  const conds: string[] = [];
  const params: string[] = [];
  if (f.source) {
    conds.push("s.handle = ?");
    params.push(f.source);
  }
  if (f.tool) {
    conds.push("s.tool = ?");
    params.push(f.tool);
  }
  if (f.session) {
    conds.push("s.session = ?");
    params.push(f.session);
  }
  if (f.project) {
    conds.push("s.project = ?");
    params.push(f.project);
  }
  return { conds, params };
}
