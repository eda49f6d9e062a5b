/**
 * Globs, one meaning everywhere (tool names in mcp.json allow/deny, sensitive paths in the read
 * cache and the code index): `*` any run of characters within a path segment, `**` any run across
 * segments (`**\/` also matches no folder at all), `?` one character. A name with no `/` (a tool
 * name, a file's basename) is one segment, so `*` covers all of it. The `gitignore` dialect reads
 * patterns as git does: `[...]` classes, `\` escapes, and `**` only between slashes or at an end.
 *
 * Matching never backtracks: a pattern compiles to a small automaton whose set of live states is
 * advanced one character at a time, so a test costs at most (pattern length x text length) steps;
 * the sets met and their moves are remembered, so a test usually costs one lookup per character.
 * (A regular expression from `*a*a*a...*b` backtracks exponentially: minutes on a 40-character name.)
 */

export type GlobOptions = {
  ignoreCase?: boolean;
  gitignore?: boolean;
  /** Sets of live states the test remembers (default 64; 0: none, each character steps every live state). */
  maxSets?: number;
};

export type Glob = { test(text: string): boolean };

const SLASH = 47;

/** One automaton state: what it consumes (and where that leads) and where it goes for free. */
type State = { accept: ((c: number) => boolean) | null; to: number; eps: number[] };

function classMatcher(body: string, ignoreCase: boolean): (c: number) => boolean {
  let negate = false;
  let i = 0;
  if (body[0] === "!" || body[0] === "^") {
    negate = true;
    i = 1;
  }
  const ranges: [number, number][] = [];
  while (i < body.length) {
    let lo = body[i]!;
    if (lo === "\\" && i + 1 < body.length) lo = body[++i]!;
    let hi = lo;
    if (body[i + 1] === "-" && i + 2 < body.length) {
      hi = body[i + 2]!;
      if (hi === "\\" && i + 3 < body.length) hi = body[++i + 2]!;
      i += 2;
    }
    i++;
    ranges.push([lo.codePointAt(0)!, hi.codePointAt(0)!]);
    if (ignoreCase) {
      const l = lo.toLowerCase();
      const h = hi.toLowerCase();
      ranges.push([l.codePointAt(0)!, h.codePointAt(0)!]);
    }
  }
  return (c) => c !== SLASH && ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negate;
}

/** The end of a `[...]` class starting at `i`, or -1 when it is not closed (then `[` is literal). */
function classEnd(pattern: string, i: number): number {
  let j = i + 1;
  if (pattern[j] === "!" || pattern[j] === "^") j++;
  if (pattern[j] === "]") j++;
  while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
  return j < pattern.length ? j : -1;
}

export function compileGlob(pattern: string, options: GlobOptions = {}): Glob {
  const ignoreCase = options.ignoreCase === true;
  const git = options.gitignore === true;
  const source = ignoreCase ? pattern.toLowerCase() : pattern;
  const fold = (t: string) => (ignoreCase ? t.toLowerCase() : t);
  // Fast paths for the usual shapes: a plain name, `*.log`, `.env*`.
  if (!/[*?[\\]/.test(source)) return { test: (t) => fold(t) === source };
  const star = /^\*([^*?[\\/]+)$/.exec(source);
  if (star) {
    const suffix = star[1]!;
    return { test: (t) => fold(t).endsWith(suffix) && !fold(t).slice(0, -suffix.length).includes("/") };
  }
  const prefix = /^([^*?[\\/]+)\*$/.exec(source);
  if (prefix) {
    const head = prefix[1]!;
    return { test: (t) => fold(t).startsWith(head) && !fold(t).slice(head.length).includes("/") };
  }

  const states: State[] = [];
  const add = (accept: State["accept"], to: number, eps: number[] = []) => {
    states.push({ accept, to, eps });
    return states.length - 1;
  };
  // The longest run of literal characters: a text without it cannot match, whatever the wildcards do.
  let run = "";
  let needle = "";
  const endRun = () => {
    if (run.length > needle.length) needle = run;
    run = "";
  };
  const nonSlash = (c: number) => c !== SLASH;
  const any = () => true;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const here = states.length;
    if (c === "*" || c === "?" || (git && c === "[" && classEnd(source, i) !== -1)) endRun();
    if (c === "*" && source[i + 1] === "*") {
      const atStart = i === 0 || source[i - 1] === "/";
      const atEnd = i + 2 === source.length || source[i + 2] === "/";
      if (!git || (atStart && atEnd)) {
        if (source[i + 2] === "/") {
          // `**/`: nothing, or anything that ends with a slash.
          const loop = here + 1;
          add(null, 0, [here + 3, loop]);
          add(any, loop, [loop + 1]);
          add((x) => x === SLASH, here + 3);
          i += 2;
        } else {
          add(any, here, [here + 1]);
          i += 1;
        }
        continue;
      }
      // git: any other run of asterisks is one asterisk.
      while (source[i + 1] === "*") i++;
      add(nonSlash, here, [here + 1]);
    } else if (c === "*") add(nonSlash, here, [here + 1]);
    else if (c === "?") add(nonSlash, here + 1);
    else if (git && c === "[" && classEnd(source, i) !== -1) {
      const end = classEnd(source, i);
      add(classMatcher(source.slice(i + 1, end), ignoreCase), here + 1);
      i = end;
    } else {
      if (git && c === "\\" && i + 1 < source.length) i++;
      const code = source.codePointAt(i)!;
      run += String.fromCodePoint(code);
      if (code > 0xffff) i++;
      add((x) => x === code, here + 1);
    }
  }
  endRun();
  const test = automaton(states, options.maxSets ?? MAX_SETS);
  return {
    test(raw: string): boolean {
      const text = ignoreCase ? raw.toLowerCase() : raw;
      return text.includes(needle) && test(text);
    },
  };
}

/** Sets of live states a glob remembers (past them, it steps the states one character at a time). */
const MAX_SETS = 64;
/** Remembered moves between those sets, all together. */
const MAX_MOVES = 4096;
const DEAD = -1;

/**
 * The test of a compiled automaton: each set of live states met is remembered with its moves on
 * each character seen, so a test walks from set to set with one lookup per character (the glob
 * tests of the code index ask about every file of a repository, each character of each path once
 * per glob). A move not remembered yet is made the long way (every live state, one character) and
 * its answer kept; past `maxSets` sets or MAX_MOVES moves, no more are kept and the test goes on
 * the long way from where it stands. Either way the live states are the same, so the answer is.
 */
function automaton(states: State[], maxSets: number): (text: string) => boolean {
  const final = states.length;
  const n = final + 1;
  const close = (set: Uint8Array, s: number) => {
    if (set[s]) return;
    set[s] = 1;
    if (s < final) for (const e of states[s]!.eps) close(set, e);
  };
  /** The states `from` moves to on `code` (into `to`); false when none. */
  const step = (from: Uint8Array, code: number, to: Uint8Array): boolean => {
    to.fill(0);
    let any = false;
    for (let s = 0; s < final; s++) {
      if (!from[s]) continue;
      const st = states[s]!;
      if (st.accept?.(code)) {
        close(to, st.to);
        any = true;
      }
    }
    return any;
  };
  const sets: Uint8Array[] = [];
  const accepts: boolean[] = [];
  const moves: Map<number, number>[] = [];
  const ids = new Map<string, number>();
  let moveCount = 0;
  /** The number of a set met before, a new number for a new one, or undefined when no more are kept. */
  const idOf = (set: Uint8Array): number | undefined => {
    const key = set.join("");
    let id = ids.get(key);
    if (id === undefined && sets.length < maxSets) {
      id = sets.length;
      sets.push(set.slice());
      accepts.push(set[final] === 1);
      moves.push(new Map());
      ids.set(key, id);
    }
    return id;
  };
  // One pair of state sets per glob: a test runs to its end before the next one starts.
  let live = new Uint8Array(n);
  let next = new Uint8Array(n);
  close(live, 0);
  const start = idOf(live);
  /** The long way, from the live states in `live`, for the text from `i` on. */
  const stepRest = (text: string, i: number): boolean => {
    while (i < text.length) {
      const code = text.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      if (!step(live, code, next)) return false;
      [live, next] = [next, live];
    }
    return live[final] === 1;
  };
  return (text) => {
    if (start === undefined) {
      live.fill(0);
      close(live, 0);
      return stepRest(text, 0);
    }
    let id = start;
    // Code points, as `for (const ch of text)` reads them (a lone surrogate is one).
    for (let i = 0; i < text.length; ) {
      const code = text.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
      let to = moves[id]!.get(code);
      if (to === undefined) {
        if (!step(sets[id]!, code, next)) to = DEAD;
        else {
          const known = idOf(next);
          if (known === undefined) {
            [live, next] = [next, live];
            return stepRest(text, i);
          }
          to = known;
        }
        if (moveCount < MAX_MOVES) {
          moves[id]!.set(code, to);
          moveCount++;
        }
      }
      if (to === DEAD) return false;
      id = to;
    }
    return accepts[id]!;
  };
}

const compiled = new Map<string, Glob>();

export function globMatch(glob: string, text: string, options: { ignoreCase?: boolean } = {}): boolean {
  const key = `${options.ignoreCase ? "i" : "c"}${glob}`;
  let g = compiled.get(key);
  if (!g) {
    // A small cache: the same few globs are asked about again and again.
    if (compiled.size >= 256) compiled.clear();
    g = compileGlob(glob, options);
    compiled.set(key, g);
  }
  return g.test(text);
}
