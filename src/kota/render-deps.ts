/** A deps answer as text, at decreasing detail: every path, then fewer per level, then counts and the nearest files. */
import type { Rendering } from "./budget.ts";
import type { DepsLevels, DepsResult } from "./contract.ts";

const CAPS = [Infinity, 40, 15, 5, 0];

function levelLines(title: string, levels: DepsLevels, cap: number, cut: string[]): string[] {
  const total = levels.direct.length + Object.values(levels.indirect).reduce((n, l) => n + l.length, 0);
  if (total === 0) return [`${title}: none`];
  const out = [`${title} (${total}):`];
  const list = (label: string, paths: string[], limit: number) => {
    out.push(`  ${label} (${paths.length})${limit === 0 && paths.length > 0 ? "" : ":"}`);
    for (const p of paths.slice(0, limit)) out.push(`    ${p}`);
    if (paths.length > limit) {
      if (limit > 0) out.push(`    ... ${paths.length - limit} more`);
      cut.push(`${title} ${label} to ${limit} of ${paths.length}`);
    }
  };
  list("direct", levels.direct, Math.max(cap, Math.min(levels.direct.length, 10)));
  for (const [depth, paths] of Object.entries(levels.indirect)) list(`${depth} steps away`, paths, cap);
  return out;
}

export function renderDeps(r: DepsResult, level: number): Rendering {
  const cap = CAPS[Math.min(level, CAPS.length - 1)]!;
  const cut: string[] = [];
  const lines = [`deps of ${r.file}`];
  const both = r.direction === "both";
  const workspace = [...new Set(r.unresolvedWorkspace ?? [])];
  const others = r.unresolved.filter((s) => !workspace.includes(s));
  const asked = r.direction !== "dependents";
  // First, before any list: what the index could not follow makes "none" untrue.
  if (workspace.length > 0 && asked)
    lines.push(
      `${workspace.length} import(s) name packages of this repository that could not be resolved (they point at build output this checkout does not have, with no source found for it): ${workspace.slice(0, 10).join(", ")}${workspace.length > 10 ? ", ..." : ""}. The imports listed may be incomplete.`,
    );
  const importers = r.direction !== "dependencies" ? r.unresolvedImporters : undefined;
  if (importers)
    lines.push(
      `${importers.files} file(s) import this file's package ${importers.package} by specifiers that could not be resolved: the files importing it may be more than listed.`,
    );
  const none = (l: DepsLevels) => l.direct.length === 0 && Object.keys(l.indirect).length === 0;
  // Only what was asked for: a direction not asked for is not "none".
  if (asked) {
    if ((workspace.length > 0 || others.length > 0) && none(r.dependencies)) lines.push("imports (dependencies): none resolved");
    else lines.push(...levelLines("imports (dependencies)", r.dependencies, cap, cut));
  }
  if (r.direction !== "dependencies") {
    if (importers && none(r.dependents)) lines.push("imported by (dependents): none resolved");
    else lines.push(...levelLines("imported by (dependents)", r.dependents, cap, cut));
  }
  if (others.length > 0) lines.push(`unresolved imports: ${others.slice(0, 20).join(", ")}${others.length > 20 ? ", ..." : ""}`);
  if (both && none(r.dependencies) && none(r.dependents) && others.length === 0 && workspace.length === 0 && !importers)
    lines.push("(no imports either way inside the repository)");
  return { text: lines.join("\n"), cut: [...new Set(cut)] };
}

export const DEPS_LEVELS = CAPS.length;
export const DEPS_NARROW = "Narrow it: depth 1, one direction, or include_tests false.";
