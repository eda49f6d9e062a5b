/**
 * Globs, one meaning everywhere (tool names in mcp.json allow/deny, sensitive paths in the read
 * cache and the code index): `*` any run of characters within a path segment, `**` any run across
 * segments (`**\/` also matches no folder at all), `?` one character. A name with no `/` (a tool
 * name, a file's basename) is one segment, so `*` covers all of it. The `gitignore` dialect reads
 * patterns as git does: `[...]` classes, `\` escapes, and `**` only between slashes or at an end.
 *
 * Matching never backtracks: a pattern compiles to a small automaton whose set of live states is
 * advanced one character at a time, so a test costs at most (pattern length x text length) steps.
 * (A regular expression from `*a*a*a...*b` backtracks exponentially: minutes on a 40-character name.)
 */

export type GlobOptions = { ignoreCase?: boolean; gitignore?: boolean };

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
  const final = states.length;
  const n = final + 1;
  // One pair of state sets per glob: a test runs to its end before the next one starts.
  let live = new Uint8Array(n);
  let next = new Uint8Array(n);
  const close = (set: Uint8Array, s: number) => {
    if (set[s]) return;
    set[s] = 1;
    if (s < final) for (const e of states[s]!.eps) close(set, e);
  };

  return {
    test(raw: string): boolean {
      const text = ignoreCase ? raw.toLowerCase() : raw;
      if (!text.includes(needle)) return false;
      live.fill(0);
      close(live, 0);
      for (const ch of text) {
        const code = ch.codePointAt(0)!;
        next.fill(0);
        let any = false;
        for (let s = 0; s < final; s++) {
          if (!live[s]) continue;
          const st = states[s]!;
          if (st.accept?.(code)) {
            close(next, st.to);
            any = true;
          }
        }
        if (!any) return false;
        [live, next] = [next, live];
      }
      return live[final] === 1;
    },
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
