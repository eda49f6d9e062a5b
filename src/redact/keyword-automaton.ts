/**
 * Finds every occurrence of a fixed set of keywords in one pass: an Aho–Corasick automaton compiled
 * to a dense table, so the work per character is one table lookup whatever the input (no regex
 * backtracking, no per-keyword passes). Letters are folded to lower case. In a keyword, BOUNDARY
 * stands for any character that cannot be inside a token (space, quotes, `=`, `:`, brackets, a
 * non-ASCII character) and also matches the start of the text.
 */

export const BOUNDARY = "\u0001";

/** Marks a table entry whose state ends at least one keyword. */
const OUTPUT = 0x8000;
/** The column every separator character shares; also used for characters above 127. */
const SEP = 1;
/** Punctuation that can be part of a token or of a keyword, so it keeps a column of its own. */
const TOKEN_PUNCTUATION = new Set(["_", "-", ".", "/", "~", "+"]);

function columnOf(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) return code;
  if (TOKEN_PUNCTUATION.has(String.fromCharCode(code))) return code;
  return SEP;
}

export type KeywordAutomaton = {
  readonly keywords: readonly string[];
  /** Flattened [keywordIndex, end, keywordIndex, end, ...] in order of end position (end is exclusive). */
  scan(text: string): number[];
};

export function compileKeywords(keywords: readonly string[]): KeywordAutomaton {
  // Dense column numbers: characters that behave alike (a and A, all separators) share one.
  const dense = new Int32Array(128).fill(-1);
  let columns = 0;
  for (let c = 0; c < 128; c++) {
    const col = columnOf(c);
    if (dense[col] === -1) dense[col] = columns++;
    dense[c] = dense[col]!;
  }
  const maxStates = keywords.reduce((n, k) => n + k.length, 1);
  if (maxStates > 0x7fff) throw new Error(`keyword automaton too large (${maxStates} states)`);
  // The trie: goto[state * columns + column], -1 where there is no edge.
  const goto = new Int32Array(maxStates * columns).fill(-1);
  const own: number[][] = [[]];
  let states = 1;
  keywords.forEach((keyword, index) => {
    let state = 0;
    for (const ch of keyword) {
      const col = dense[ch === BOUNDARY ? SEP : columnOf(ch.charCodeAt(0))]!;
      let next = goto[state * columns + col]!;
      if (next === -1) {
        next = states++;
        own.push([]);
        goto[state * columns + col] = next;
      }
      state = next;
    }
    own[state]!.push(index);
  });

  // Breadth-first: each state's transitions and outputs complete those of its fail state.
  const delta = new Int32Array(states * columns);
  const fail = new Int32Array(states);
  const outputs: number[][] = own.map((o) => [...o]);
  const queue: number[] = [];
  for (let col = 0; col < columns; col++) {
    const next = goto[col]!;
    delta[col] = next === -1 ? 0 : next;
    if (next !== -1) queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const f = fail[state]!;
    if (outputs[f]!.length > 0) outputs[state]!.push(...outputs[f]!);
    for (let col = 0; col < columns; col++) {
      const next = goto[state * columns + col]!;
      if (next === -1) {
        delta[state * columns + col] = delta[f * columns + col]!;
      } else {
        fail[next] = delta[f * columns + col]!;
        queue.push(next);
        delta[state * columns + col] = next;
      }
    }
  }

  // Each entry is the next state, with OUTPUT set when that state ends a keyword: one load per character.
  const table = new Uint16Array(states * 128);
  for (let s = 0; s < states; s++) {
    for (let c = 0; c < 128; c++) {
      const next = delta[s * columns + dense[c]!]!;
      table[s * 128 + c] = outputs[next]!.length > 0 ? next | OUTPUT : next;
    }
  }
  // The text starts as if a separator came before it (that state ends no keyword: none is a lone separator).
  const start = delta[dense[SEP]!]!;

  return {
    keywords,
    scan(text) {
      const hits: number[] = [];
      const n = text.length;
      let state = start;
      for (let i = 0; i < n; i++) {
        const code = text.charCodeAt(i);
        state = table[(state << 7) | (code < 128 ? code : SEP)]!;
        if (state >= OUTPUT) {
          state ^= OUTPUT;
          for (const k of outputs[state]!) hits.push(k, i + 1);
        }
      }
      return hits;
    },
  };
}
