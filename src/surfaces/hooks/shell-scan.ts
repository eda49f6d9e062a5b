/**
 * Just enough of the POSIX shell grammar to decide whether a command can be wrapped safely:
 * quotes ('', "", $'', backslashes), comments, command and arithmetic substitution, backticks,
 * parameter expansion, subshells and groups, heredocs (their bodies skipped, their terminators
 * found), and the top-level control operators (`&&`, `||`, `;`, `|`, `|&`, `&`, newlines),
 * which split the command into simple commands whose first words are reported. Anything it
 * does not understand makes the scan fail, and a failed scan leaves the command alone.
 */

export type ScannedCommand = {
  /** The words of one top-level simple command, quotes removed where that is easy (for matching, not for running). */
  words: string[];
  /** The operator that ends it ("" at the end of the command). */
  op: string;
  /** Where it starts and ends in the command text. */
  start: number;
  end: number;
};

export type Scan = { ok: true; commands: ScannedCommand[]; background: boolean; heredocs: number } | { ok: false; reason: string };

const OPERATORS = ["&&", "||", ";;", "|&", ";", "|", "&", "\n"];

/** Skips a quoted or bracketed construct starting at i; returns the index after it, or -1. */
function skipQuoted(s: string, i: number): number {
  const c = s[i]!;
  if (c === "'") {
    const end = s.indexOf("'", i + 1);
    return end === -1 ? -1 : end + 1;
  }
  if (c === "$" && s[i + 1] === "'") {
    for (let j = i + 2; j < s.length; j++) {
      if (s[j] === "\\") j++;
      else if (s[j] === "'") return j + 1;
    }
    return -1;
  }
  if (c === '"') {
    for (let j = i + 1; j < s.length; j++) {
      const d = s[j];
      if (d === "\\") j++;
      else if (d === '"') return j + 1;
      else if (d === "$" && (s[j + 1] === "(" || s[j + 1] === "{")) {
        const k = skipQuoted(s, j);
        if (k === -1) return -1;
        j = k - 1;
      } else if (d === "`") {
        const k = skipQuoted(s, j);
        if (k === -1) return -1;
        j = k - 1;
      }
    }
    return -1;
  }
  if (c === "`") {
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === "\\") j++;
      else if (s[j] === "`") return j + 1;
    }
    return -1;
  }
  if (c === "$" && (s[i + 1] === "(" || s[i + 1] === "{")) {
    const close = s[i + 1] === "(" ? ")" : "}";
    const open = s[i + 1]!;
    let depth = 1;
    for (let j = i + 2; j < s.length; j++) {
      const d = s[j]!;
      if (d === "\\") {
        j++;
        continue;
      }
      if (d === "'" || d === '"' || d === "`" || (d === "$" && (s[j + 1] === "(" || s[j + 1] === "{" || s[j + 1] === "'"))) {
        const k = skipQuoted(s, j);
        if (k === -1) return -1;
        j = k - 1;
        continue;
      }
      if (d === open) depth++;
      else if (d === close && --depth === 0) return j + 1;
    }
    return -1;
  }
  return i + 1;
}

type Heredoc = { word: string; strip: boolean };

/** The heredoc operator at i (`<<`, `<<-`, not `<<<`): its terminator word and the index after it. */
function heredocAt(s: string, i: number): { doc: Heredoc; next: number } | null {
  if (s.startsWith("<<<", i)) return null;
  let j = i + 2;
  const strip = s[j] === "-";
  if (strip) j++;
  while (s[j] === " " || s[j] === "\t") j++;
  let word = "";
  while (j < s.length && !/[\s;&|<>()]/.test(s[j]!)) {
    const c = s[j]!;
    if (c === "'" || c === '"') {
      const end = s.indexOf(c, j + 1);
      if (end === -1) return null;
      word += s.slice(j + 1, end);
      j = end + 1;
    } else if (c === "\\") {
      word += s[j + 1] ?? "";
      j += 2;
    } else {
      word += c;
      j++;
    }
  }
  return word === "" ? null : { doc: { word, strip }, next: j };
}

/** Skips heredoc bodies that start at the line after `i` (a newline); returns the index after the last terminator, or -1. */
function skipBodies(s: string, i: number, docs: Heredoc[]): number {
  let at = i + 1;
  for (const doc of docs) {
    for (;;) {
      if (at > s.length) return -1;
      const nl = s.indexOf("\n", at);
      const line = s.slice(at, nl === -1 ? s.length : nl);
      const candidate = doc.strip ? line.replace(/^\t+/, "") : line;
      at = nl === -1 ? s.length + 1 : nl + 1;
      if (candidate === doc.word) break;
      if (nl === -1) return -1;
    }
  }
  return Math.min(at, s.length) - 1;
}

function unquote(word: string): string {
  return word.replace(/\\(.)/g, "$1").replace(/'([^']*)'|"([^"]*)"/g, (_m, a, b) => a ?? b ?? "");
}

export function scanCommand(s: string): Scan {
  const commands: ScannedCommand[] = [];
  let words: string[] = [];
  let word = "";
  let start = 0;
  let depth = 0; // ( ) subshells and { } groups at this level
  let background = false;
  let heredocs = 0;
  let pending: Heredoc[] = [];
  const endWord = () => {
    if (word !== "") words.push(unquote(word));
    word = "";
  };
  const endCommand = (op: string, at: number, next: number) => {
    endWord();
    if (words.length > 0 || op !== "") commands.push({ words, op, start, end: at });
    words = [];
    start = next;
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\") {
      if (s[i + 1] === "\n") {
        i += 2;
        continue;
      }
      word += s.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "'" || c === '"' || c === "`" || (c === "$" && (s[i + 1] === "(" || s[i + 1] === "{" || s[i + 1] === "'"))) {
      const next = skipQuoted(s, i);
      if (next === -1) return { ok: false, reason: `an unclosed ${c === "$" ? s.slice(i, i + 2) : c}` };
      word += s.slice(i, next);
      i = next;
      continue;
    }
    if (c === "#" && word === "" && (i === 0 || /[\s;&|()]/.test(s[i - 1]!))) {
      const nl = s.indexOf("\n", i);
      i = nl === -1 ? s.length : nl;
      continue;
    }
    if (c === "<" && s[i + 1] === "<" && s[i + 2] !== "<") {
      const h = heredocAt(s, i);
      if (!h) return { ok: false, reason: "a heredoc without a terminator word" };
      endWord();
      pending.push(h.doc);
      heredocs++;
      i = h.next;
      continue;
    }
    if (c === "(" || (c === "{" && word === "" && /\s/.test(s[i + 1] ?? ""))) {
      // A subshell or group: its insides are one unit at this level.
      endWord();
      depth++;
      word = c;
      endWord();
      i++;
      continue;
    }
    if (c === ")" || (c === "}" && word === "" && depth > 0)) {
      if (depth === 0) return { ok: false, reason: `an unmatched ${c}` };
      endWord();
      depth--;
      word = c;
      endWord();
      i++;
      continue;
    }
    // Redirections that contain & or |: >&2, 2>&1, &>file, &>>file, >|file, <&0.
    if ((c === ">" || c === "<") && (s[i + 1] === "&" || s[i + 1] === "|")) {
      word += s.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === "&" && s[i + 1] === ">") {
      endWord();
      word = "&>";
      i += 2;
      continue;
    }
    const op = OPERATORS.find((o) => s.startsWith(o, i));
    if (op) {
      if (op === "\n" && pending.length > 0) {
        const after = skipBodies(s, i, pending);
        if (after === -1) return { ok: false, reason: `a heredoc whose terminator ${pending[0]!.word} never comes` };
        pending = [];
        if (depth === 0) endCommand("\n", i, after + 1);
        i = after + 1;
        continue;
      }
      if (depth === 0) {
        if (op === "&") background = true;
        endCommand(op, i, i + op.length);
      } else if (op !== "\n") {
        endWord();
      }
      i += op.length;
      continue;
    }
    if (c === " " || c === "\t") {
      endWord();
      i++;
      continue;
    }
    word += c;
    i++;
  }
  if (pending.length > 0) return { ok: false, reason: `a heredoc whose terminator ${pending[0]!.word} never comes` };
  if (depth !== 0) return { ok: false, reason: "an unclosed ( or {" };
  endCommand("", s.length, s.length);
  return { ok: true, commands: commands.filter((c) => c.words.length > 0 || c.op !== "\n"), background, heredocs };
}

/** The program a simple command runs: past `VAR=value` assignments and wrappers like `env`, `time`, `nice`. */
export function programOf(words: string[]): { program: string; args: string[] } | null {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  while (i < words.length && ["env", "time", "nice", "nohup", "command", "builtin", "stdbuf", "ionice"].includes(words[i]!)) {
    i++;
    while (i < words.length && (words[i]!.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
  }
  const program = words[i];
  if (program === undefined) return null;
  return { program: program.replace(/^.*\//, ""), args: words.slice(i + 1) };
}
