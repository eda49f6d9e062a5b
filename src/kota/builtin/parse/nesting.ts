/**
 * A cheap look before the native parser: brackets nested deeper than any real code goes (the parser
 * recurses once per level and overflows its stack near 10,000) are refused without parsing. Brackets
 * inside strings and comments count too, so the limit is far above what code written by people or
 * generators reaches. The parser process still guards against every other way to crash it.
 */
export const MAX_NESTING = 1000;

/** +1 for an opening bracket `( [ {`, -1 for a closing one, 0 for any other ASCII character. */
const STEP = new Int8Array(128);
STEP[40] = STEP[91] = STEP[123] = 1;
STEP[41] = STEP[93] = STEP[125] = -1;

export function nestingProblem(text: string, max = MAX_NESTING): { line: number; message: string } | null {
  // Nesting deeper than `max` takes more than `max` opening brackets: most files have fewer, counted
  // by the string search (far quicker than a look per character). The others get the full look:
  // one table look per character, and lines are counted only for a refusal.
  if (openingsAtMost(text, max)) return null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) continue;
    const step = STEP[c]!;
    if (step === 1) {
      if (++depth > max)
        return { line: lineAt(text, i), message: `brackets nested more than ${max} levels deep: not parsed (only its text is searchable)` };
    } else if (step === -1 && depth > 0) depth--;
  }
  return null;
}

const OPENINGS = ["(", "[", "{"];

/** Whether `text` has no more than `limit` opening brackets. */
function openingsAtMost(text: string, limit: number): boolean {
  let n = 0;
  for (const ch of OPENINGS) for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) if (++n > limit) return false;
  return true;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
