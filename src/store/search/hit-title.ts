/**
 * The title of a hit: the names of the record that holds its row (a JSON key path, the nearest
 * Markdown heading), so the model reads where in the output the lines come from.
 */
import { jsonPathAt } from "./json.ts";
import type { Window } from "./windows.ts";

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

export function titleFor(w: Window, row: number): string {
  const rows = w.region.rows;
  const names = w.matches.find((m) => m.row === row)?.names;
  if (names) return names.path();
  if (w.region.kind === "json") return jsonPathAt(rows, row, w.region.title);
  if (w.region.kind === "markdown") {
    for (let k = row; k >= 0; k--) {
      // A heading starts with `#`: the pattern is tried on those rows only.
      if (rows[k]!.charCodeAt(0) !== 35) continue;
      const h = HEADING.exec(rows[k]!);
      if (h) return h[2]!.trim();
    }
    return w.region.title.startsWith("line") ? "" : w.region.title;
  }
  return "";
}
