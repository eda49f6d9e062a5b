/**
 * Chunk titles from the text's structure: the markdown heading path, the JSON key path
 * (array items named by their id/name field), otherwise the line range.
 */
import type { RawChunk } from "./chunk.ts";
import { outlineSections } from "./outline-titles.ts";
import { tableHeaders } from "./table-titles.ts";

export type TextKind = "json" | "markdown" | "text";

const MAX_TITLE = 160;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^\s*(```|~~~)/;
const LABEL_KEYS = new Set(["id", "name", "title", "key", "slug", "ref", "uid", "path"]);

/** Lines a tool may print before its JSON (`npm warn ...` on stderr, mixed in): at most this many. */
const MAX_PREAMBLE_LINES = 5;

/** Where the JSON document starts: at the top, or after a few lines of warnings; -1 when it is not JSON. */
export function jsonStart(text: string): number {
  const tail = text.trimEnd().at(-1);
  let at = 0;
  for (let line = 0; line <= MAX_PREAMBLE_LINES && at < text.length; line++) {
    const head = text.slice(at, at + 64).trimStart()[0];
    if ((head === "{" && tail === "}") || (head === "[" && tail === "]")) return at;
    const nl = text.indexOf("\n", at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return -1;
}

export function detectKind(text: string): TextKind {
  if (jsonStart(text) >= 0) return "json";
  if (/^#{1,6}[ \t]+\S/m.test(text)) return "markdown";
  return "text";
}

/** Titles are indexed: cut at a word boundary, never inside a word. */
function clip(title: string): string {
  if (title.length <= MAX_TITLE) return title;
  const cut = title.slice(0, MAX_TITLE - 1);
  const boundary = Math.max(cut.lastIndexOf(" "), cut.lastIndexOf("."), cut.lastIndexOf("["), cut.lastIndexOf("("));
  return `${boundary > MAX_TITLE / 2 ? cut.slice(0, boundary) : cut}…`;
}

export function lineRangeTitle(chunk: RawChunk): string {
  return chunk.lineStart === chunk.lineEnd ? `line ${chunk.lineStart}` : `lines ${chunk.lineStart}-${chunk.lineEnd}`;
}

/** Titles for each chunk, in order. */
export function titleChunks(text: string, kind: TextKind, chunks: RawChunk[]): string[] {
  if (kind === "json") {
    const titles = jsonTitles(text, chunks);
    if (titles) return titles;
  }
  if (kind === "markdown") return markdownTitles(chunks);
  const sections = outlineSections(chunks);
  const tables = tableHeaders(chunks);
  return chunks.map((c, i) => {
    // The outline section the chunk continues, or the header of the ruled table whose rows it starts among.
    const within = sections[i] || tables[i];
    return clip(within ? `${lineRangeTitle(c)} ${within}` : lineRangeTitle(c));
  });
}

function markdownTitles(chunks: RawChunk[]): string[] {
  const stack: { level: number; text: string }[] = [];
  let fenced = false;
  const path = () => stack.map((h) => h.text).join(" > ");
  return chunks.map((chunk) => {
    let atStart = stack.length > 0 ? path() : "";
    const inside: string[] = [];
    let sawLine = false;
    for (const line of chunk.text.split("\n")) {
      if (FENCE.test(line)) fenced = !fenced;
      const m = fenced ? null : HEADING.exec(line);
      if (m) {
        const level = m[1]!.length;
        while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
        stack.push({ level, text: m[2]!.trim() });
        if (!sawLine) atStart = path();
        else inside.push(m[2]!.trim());
      }
      if (line.trim() !== "") sawLine = true;
    }
    // The section the chunk starts in, then the sections it goes on into.
    const main = atStart || (inside.length > 0 ? inside.shift()! : "");
    const title = inside.length > 0 ? `${main} · ${inside.join(" · ")}` : main;
    return clip(title || lineRangeTitle(chunk));
  });
}

type Holder = { label?: string };
type Frame = { t: "o"; key: string | null; holder: Holder | null } | { t: "a"; i: number; holder: Holder };
type Snapshot = { key: string | null; i: number; holder: Holder | null; t: "o" | "a" }[];

function render(snapshot: Snapshot): string {
  let out = "$";
  for (const f of snapshot) {
    if (f.t === "o") {
      if (f.key !== null) out += /^[A-Za-z_$][\w$]*$/.test(f.key) ? `.${f.key}` : `[${JSON.stringify(f.key)}]`;
    } else if (f.i >= 0) {
      out += `[${f.i}]`;
      if (f.holder?.label) out += `(${f.holder.label})`;
    }
  }
  return out;
}

/**
 * One pass over the JSON text keeping the path of containers; snapshots are taken at each
 * chunk's first and last character. Labels of array items are filled in by reference when
 * their id/name key is met later. Returns null when the text turns out not to be JSON.
 */
function jsonTitles(text: string, chunks: RawChunk[]): string[] | null {
  const marks: number[] = [];
  let offset = 0;
  for (const c of chunks) {
    marks.push(offset, offset + c.text.length - 1);
    offset += c.text.length;
  }
  const snaps: Snapshot[] = [];
  const stack: Frame[] = [];
  let next = 0;
  let expectKey = false;
  let labelKey: string | null = null; // set right after `"id":` inside an array item object
  const snapshot = (): Snapshot =>
    stack.map((f) => (f.t === "o" ? { t: "o", key: f.key, i: -1, holder: f.holder } : { t: "a", key: null, i: f.i, holder: f.holder }));
  const startValue = () => {
    const top = stack[stack.length - 1];
    if (top?.t === "a" && top.i < 0) top.i = 0;
  };
  // Warnings printed before the document are outside it: the scan starts at the document.
  const start = Math.max(0, jsonStart(text));
  while (next < marks.length && marks[next]! < start) {
    snaps.push(snapshot());
    next++;
  }
  for (let p = start; p < text.length; p++) {
    while (next < marks.length && marks[next] === p) {
      snaps.push(snapshot());
      next++;
    }
    const ch = text.charCodeAt(p);
    if (ch === 34 /* " */) {
      let q = p + 1;
      while (q < text.length) {
        const c = text.charCodeAt(q);
        if (c === 92) q += 2;
        else if (c === 34) break;
        else q++;
      }
      const top = stack[stack.length - 1];
      if (top?.t === "o" && expectKey) {
        top.key = q - p - 1 <= 200 ? safeParse(text.slice(p, q + 1)) : text.slice(p + 1, p + 200);
        expectKey = false;
      } else {
        startValue();
        if (labelKey && top?.t === "o" && top.holder && !top.holder.label)
          top.holder.label = `${labelKey}=${safeParse(text.slice(p, Math.min(q + 1, p + 60))).slice(0, 48)}`;
        labelKey = null;
      }
      // Snapshots inside the string still belong here.
      while (next < marks.length && marks[next]! <= q) {
        snaps.push(snapshot());
        next++;
      }
      p = q;
      continue;
    }
    switch (ch) {
      case 123 /* { */:
        {
          startValue();
          const top = stack[stack.length - 1];
          stack.push({ t: "o", key: null, holder: top?.t === "a" ? top.holder : null });
          expectKey = true;
          labelKey = null;
          break;
        }
      case 91 /* [ */:
        startValue();
        stack.push({ t: "a", i: -1, holder: {} });
        labelKey = null;
        break;
      case 125 /* } */:
      case 93 /* ] */:
        {
          const top = stack.pop();
          if (!top || (top.t === "o") !== (ch === 125)) return null;
          expectKey = false;
          break;
        }
      case 44 /* , */:
        {
          const top = stack[stack.length - 1];
          if (top?.t === "a") {
            top.i++;
            top.holder = {};
          } else if (top?.t === "o") expectKey = true;
          labelKey = null;
          break;
        }
      case 58 /* : */:
        {
          const top = stack[stack.length - 1];
          if (top?.t === "o" && top.holder && top.key && LABEL_KEYS.has(top.key.toLowerCase())) labelKey = top.key;
          break;
        }
      default:
        if ((ch >= 48 && ch <= 57) || ch === 45) {
          startValue();
          const top = stack[stack.length - 1];
          if (labelKey && top?.t === "o" && top.holder && !top.holder.label) {
            const m = /^-?\d[\d.eE+-]*/.exec(text.slice(p, p + 32));
            if (m) top.holder.label = `${labelKey}=${m[0]}`;
          }
          labelKey = null;
        } else if (ch > 32) {
          startValue();
          labelKey = null;
        }
    }
  }
  while (next < marks.length) {
    snaps.push(snapshot());
    next++;
  }
  if (stack.length !== 0) return null;
  return chunks.map((_, k) => {
    const first = render(snaps[2 * k]!);
    const last = render(snaps[2 * k + 1]!);
    return clip(first === last ? first : `${first} … ${last}`);
  });
}

function safeParse(quoted: string): string {
  try {
    const v = JSON.parse(quoted);
    return typeof v === "string" ? v : quoted;
  } catch {
    return quoted.replace(/^"|"$/g, "");
  }
}
