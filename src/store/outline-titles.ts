/**
 * Titles of plain-text chunks that continue an outline section: a manual page's or a help
 * text's section name sits at the left margin with its body indented under it, often many
 * blank-separated paragraphs long, so a chunk deep in the body does not hold the name. Such a
 * chunk is titled with the section it continues (titles are indexed: a question naming the
 * section finds the chunk, and the chunks around it are read with it).
 */
import { blankSpan as blank } from "./blank-span.ts";
import type { RawChunk } from "./chunk.ts";

/** A section name is a short line: a longer one at the margin is prose, not a name. */
const MAX_NAME = 60;

/** Each chunk's outline section when it starts inside one (its first non-blank line indented), else "". */
export function outlineSections(chunks: RawChunk[]): string[] {
  const out: string[] = [];
  // The section the lines so far are in, and a line at the margin that becomes the next one if
  // the next non-blank line is indented (its body), or ends the section if not.
  let current = "";
  let pending: string | null = null;
  for (const chunk of chunks) {
    const text = chunk.text;
    let section: string | null = null;
    for (let at = 0; at < text.length; ) {
      let end = text.indexOf("\n", at);
      if (end < 0) end = text.length;
      if (!blank(text, at, end)) {
        const c = text.charCodeAt(at);
        const margin = c !== 32 && c !== 9;
        if (pending !== null) current = margin ? "" : pending;
        section ??= margin ? "" : current;
        if (margin) {
          const name = text.slice(at, end).trim();
          pending = name.length <= MAX_NAME ? name : null;
          if (pending === null) current = "";
        } else pending = null;
      }
      at = end + 1;
    }
    out.push(section ?? "");
  }
  return out;
}
