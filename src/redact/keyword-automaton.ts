/**
 * Finds every occurrence of a fixed set of keywords in one pass: an Aho–Corasick automaton whose
 * transition table is filled as the scan reaches each state, so the work per character is one table
 * lookup whatever the input (no regex backtracking, no per-keyword passes). Letters are folded to lower case. In a keyword, BOUNDARY
 * stands for any character that cannot be inside a token (space, quotes, `=`, `:`, brackets, a
 * non-ASCII character) and also matches the start of the text.
 */

export const BOUNDARY = "\u0001";

/** Marks a table entry whose state ends at least one keyword. */
const OUTPUT = 0x8000;
/** A table entry not computed yet (no entry holds it: states stay below 0x7fff). */
const UNKNOWN = 0xffff;
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
  if (maxStates >= 0x7fff) throw new Error(`keyword automaton too large (${maxStates} states)`);
  // The trie: goto[state * columns + column], -1 where there is no edge; each state's edges listed too.
  const goto = new Int32Array(maxStates * columns).fill(-1);
  const edges: number[][] = [[]];
  const own: number[][] = [[]];
  let states = 1;
  const sep = dense[SEP]!;
  keywords.forEach((keyword, index) => {
    let state = 0;
    for (let i = 0; i < keyword.length; i++) {
      // BOUNDARY (code 1) and every character above 127 are separators.
      const code = keyword.charCodeAt(i);
      const col = code < 128 ? dense[code]! : sep;
      let next = goto[state * columns + col]!;
      if (next === -1) {
        next = states++;
        own.push([]);
        edges.push([]);
        goto[state * columns + col] = next;
        edges[state]!.push(col);
      }
      state = next;
    }
    own[state]!.push(index);
  });

  // Breadth-first over the trie's own edges: each state's fail state (the longest proper suffix that
  // is also a trie state) and its outputs (its own keywords, then its fail state's).
  const fail = new Int32Array(states);
  const outputs: number[][] = own;
  const queue: number[] = [];
  for (const col of edges[0]!) queue.push(goto[col]!);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const f = fail[state]!;
    if (outputs[f]!.length > 0) outputs[state] = outputs[state]!.concat(outputs[f]!);
    for (const col of edges[state]!) {
      const next = goto[state * columns + col]!;
      let g = f;
      while (g !== 0 && goto[g * columns + col] === -1) g = fail[g]!;
      const target = goto[g * columns + col]!;
      fail[next] = target === -1 ? 0 : target;
      queue.push(next);
    }
  }

  // The transition table, one entry per (state, character): the next state, with OUTPUT set when
  // that state ends a keyword. A state's row is filled the first time the scan reaches the state, so
  // compiling costs the trie alone and a short text touches a handful of rows: redacting one search
  // question in a fresh process does not pay for the whole table.
  const table = new Uint16Array(states * 128).fill(UNKNOWN);
  // A row is filled all at once: where the trie has no edge, the entry is the fail state's (whose
  // row is filled first: its depth is smaller, so the recursion ends at the root).
  const fillRow = (state: number): void => {
    const f = fail[state]!;
    if (state !== 0 && table[f * 128] === UNKNOWN) fillRow(f);
    for (let c = 0; c < 128; c++) {
      const to = goto[state * columns + dense[c]!]!;
      if (to !== -1) table[state * 128 + c] = outputs[to]!.length > 0 ? to | OUTPUT : to;
      else table[state * 128 + c] = state === 0 ? 0 : table[f * 128 + c]!;
    }
  };
  // The text starts as if a separator came before it (that state ends no keyword: none is a lone separator).
  const rootEdge = goto[sep]!;
  const start = rootEdge === -1 ? 0 : rootEdge;

  return {
    keywords,
    scan(text) {
      const hits: number[] = [];
      const n = text.length;
      let state = start;
      for (let i = 0; i < n; i++) {
        const code = text.charCodeAt(i);
        const at = (state << 7) | (code < 128 ? code : SEP);
        let entry = table[at]!;
        if (entry === UNKNOWN) {
          fillRow(state);
          entry = table[at]!;
        }
        state = entry;
        if (state >= OUTPUT) {
          state ^= OUTPUT;
          for (const k of outputs[state]!) hits.push(k, i + 1);
        }
      }
      return hits;
    },
  };
}
