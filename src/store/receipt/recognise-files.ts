/**
 * File listings (`ls -l`, `ls -1`, `find`, `git ls-files`, `tree`): every line is a name, so a
 * name that holds "fail" or "ERROR" is data, not a failure. The summary counts the entries; no
 * line is picked as important (a listing, like git log).
 */
import { plural, type Recogniser } from "./recogniser.ts";
import type { TextView } from "./text-view.ts";

/** `ls -l` rows: type and permission bits, links, then the rest; and its "total N" header. */
const LONG_ROW = /^[-dlcbpsD][rwxsStT-]{9}[.@+]?\s+\d+\s/;
const TOTAL = /^total \d+$/;
/** A path or a bare name: no spaces, no "key: value", no "[tag]" (which log lines have). */
const PATH = /^(?:\.{1,2}\/)?[^\s:[\]()=,;'"]+\/?$/;
/** `tree` rows. */
const TREE = /^[│|\s]*[├└`|]--?[─-]* /;

function kindOf(line: string): "long" | "path" | "tree" | null {
  if (LONG_ROW.test(line) || TOTAL.test(line)) return "long";
  if (TREE.test(line)) return "tree";
  if (PATH.test(line)) return "path";
  return null;
}

function windowLines(view: TextView): string[] {
  return [...view.headText.split("\n").slice(0, -1), ...view.tailText.split("\n").slice(1)].filter((l) => l.trim() !== "");
}

export const fileListing: Recogniser = {
  kind: "file-listing",
  listing: true,
  detect(view) {
    const lines = windowLines(view);
    if (lines.length < 20) return false;
    const kinds = lines.map(kindOf);
    if (kinds.filter((k) => k !== null).length < lines.length * 0.97) return false;
    // Bare single words (a word list, a column of numbers) are no listing: names have a dot or a slash, or ls -l rows.
    const named = lines.filter((l, i) => kinds[i] !== "path" || /[./]/.test(l)).length;
    return named >= lines.length * 0.6;
  },
  analyze(view) {
    const dirs = view.scan("d", /^d[rwxsStT-]{9}/, 0).total;
    const links = view.scan("l", /^l[rwxsStT-]{9}/, 0).total;
    const files = view.scan("-", /^-[rwxsStT-]{9}/, 0).total;
    if (dirs + links + files > 0) {
      const parts = [plural(files, "file"), plural(dirs, "directory", "directories"), ...(links > 0 ? [plural(links, "link")] : [])];
      return { summary: [`${plural(dirs + links + files, "entry", "entries")}: ${parts.join(", ")}`], important: [] };
    }
    const entries = view.scan(/^[^\S\n]*\S/gm, null, 0).total;
    return { summary: [`${plural(entries, "entry", "entries")} listed`], important: [] };
  },
};
