/**
 * Source file paths a prompt names explicitly (`src/a.ts`, `./lib/b.tsx`, `@src/c.ts`, an absolute
 * path inside the project), in order, once each, only those that exist as files in the project.
 */
import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

const CANDIDATE =
  /(?:^|[\s`'"(<[{,])@?((?:\.{1,2}\/|\/)?[\w.@-]+(?:\/[\w.@-]+)*\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs))(?=$|[\s`'")>\]},.:;!?])/g;

export function promptPaths(prompt: string, project: string): string[] {
  const out: string[] = [];
  for (const m of prompt.matchAll(CANDIDATE)) {
    const raw = m[1]!;
    const abs = isAbsolute(raw) ? raw : resolve(project, raw);
    const rel = relative(project, abs).replace(/\\/g, "/");
    if (rel.startsWith("..") || isAbsolute(rel) || out.includes(rel)) continue;
    try {
      if (!statSync(abs).isFile()) continue;
    } catch {
      continue;
    }
    out.push(rel);
  }
  return out;
}
