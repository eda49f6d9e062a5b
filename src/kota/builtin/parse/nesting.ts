/**
 * A cheap look before the native parser: brackets nested deeper than any real code goes (the parser
 * recurses once per level and overflows its stack near 10,000) are refused without parsing. Brackets
 * inside strings and comments count too, so the limit is far above what code written by people or
 * generators reaches. The parser process still guards against every other way to crash it.
 */
export const MAX_NESTING = 1000;

export function nestingProblem(text: string, max = MAX_NESTING): { line: number; message: string } | null {
  let depth = 0;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      if (++depth > max) {
        return { line, message: `brackets nested more than ${max} levels deep: not parsed (only its text is searchable)` };
      }
    } else if (c === 41 || c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if (c === 10) line++;
  }
  return null;
}
