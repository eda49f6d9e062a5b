import type { Occurrence } from "./lines.ts";

/**
 * The objects of a long JSON line (a whole document minified onto one line, or a stretch of
 * one): each object is a record, its own fields with short scalar values (`"filePath":"…"`,
 * `"errorCount":2`) name it, as a block's first line or an owner line names the lines under it.
 * The stretch may start inside a string (a chunk edge): both readings are tried and the one that
 * stays valid JSON outside its strings is kept; a line that is not JSON has no skeleton.
 */

export type JsonObject = {
  /** Where `{` and its `}` are on the row (end -1: past the row's end; start -1: before its start). */
  start: number;
  end: number;
  /** The enclosing object (-1: none on the row). */
  parent: number;
  /** Its place in the enclosing object as a path (`.messages[3]`; "" when unknown). */
  name: string;
  /** Whether it opened on the row (else it began before the row: its start is where the row first shows it). */
  whole: boolean;
  /** Its own fields with a short scalar value: [start of the key's quote, end of the value). */
  fields: [number, number][];
};

export type JsonLine = {
  objects: JsonObject[];
  /** The row starts where the document does: paths from it are whole. */
  fromStart: boolean;
};

/** A scalar value longer than this is content, not a name. */
export const NAME_VALUE = 200;
/** At most this many own fields are kept per object. */
const MAX_FIELDS = 24;
const MAX_OBJECTS = 20000;
const MAX_DEPTH = 256;

const isScalarChar = (c: number) =>
  c === 32 ||
  c === 9 ||
  c === 10 ||
  c === 13 ||
  (c >= 48 && c <= 57) ||
  c === 45 ||
  c === 43 ||
  c === 46 ||
  // Letters of true, false, null, and exponents.
  c === 116 ||
  c === 114 ||
  c === 117 ||
  c === 101 ||
  c === 102 ||
  c === 97 ||
  c === 108 ||
  c === 115 ||
  c === 110 ||
  c === 69;

type Frame = {
  object: number;
  array: boolean;
  /** The container's own name: its key, or its index after its array's name. */
  name: string;
  index: number;
  key: string;
  keyAt: number;
  valueAt: number;
  scalar: boolean;
};

/** A container the row starts inside of, from the stored chunk title (its path where the row starts). */
type Outer = { array: boolean; name: string; index: number };

/**
 * The containers a JSON path passes through (`$[5].messages[15].message`: the top array at item
 * 5, its object at key messages, that array at item 15, its object), outermost first; null when
 * it is not a whole path (a cut title).
 */
export function outerContainers(path: string): Outer[] | null {
  if (!path.startsWith("$")) return null;
  const out: Outer[] = [];
  const step = /\[(\d+)\](?:\([^)]*\))?|\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]/y;
  let name = "$";
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const m = step.exec(path);
    if (!m) return null;
    if (m[1] !== undefined) {
      out.push({ array: true, name, index: Number(m[1]) });
      name += `[${m[1]}]`;
    } else {
      const key = m[2] ?? (JSON.parse(m[3]!) as string);
      out.push({ array: false, name, index: 0 });
      name += keyPath(key);
    }
  }
  return out;
}

/** Reads the row starting outside (inString false) or inside a string; null when it stops being JSON. */
function read(row: string, inString: boolean, outer: Outer[]): JsonLine | null {
  const objects: JsonObject[] = [];
  const stack: Frame[] = [];
  const around = [...outer];
  let inStr = inString;
  let strStart = inString ? 0 : -1;
  let lastStringAt = -1;
  let lastStringEnd = -1;
  let afterKey = false;
  /** Objects whose enclosing object began before the row (found when the row reaches it). */
  let orphans: number[] = [];
  let implicit = 0;
  /** The innermost container; when the row has closed every one it opened, one that began before the row. */
  const top = (i: number): Frame => {
    if (stack.length === 0) {
      const o = around.pop() ?? { array: false, name: "", index: 0 };
      let object = -1;
      if (!o.array) {
        object = objects.length;
        objects.push({ start: implicit === 0 ? 0 : i, end: -1, parent: -1, name: o.name, fields: [], whole: false });
        for (const k of orphans) objects[k]!.parent = object;
        orphans = [object];
      }
      implicit++;
      stack.push({ object, array: o.array, name: o.name, index: o.index, key: "", keyAt: -1, valueAt: -1, scalar: false });
    }
    return stack.at(-1)!;
  };
  const endValue = (f: Frame | undefined, at: number) => {
    afterKey = false;
    if (!f || f.array || f.object < 0 || f.keyAt < 0 || f.valueAt < 0) return;
    const o = objects[f.object]!;
    if (f.scalar && at - f.valueAt <= NAME_VALUE && o.fields.length < MAX_FIELDS) o.fields.push([f.keyAt, at]);
    f.keyAt = -1;
    f.valueAt = -1;
  };
  let structural = 0;
  for (let i = 0; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (inStr) {
      if (c === 92) i++;
      else if (c === 34) {
        inStr = false;
        lastStringAt = strStart;
        lastStringEnd = i;
      }
      continue;
    }
    if (c === 34) {
      inStr = true;
      strStart = i;
      continue;
    }
    if (c === 58) {
      // A key ends: the value follows.
      const f = top(i);
      afterKey = true;
      if (!f.array) {
        // The key is read only here: most strings are values.
        f.key = lastStringEnd - lastStringAt < 400 ? row.slice(lastStringAt + 1, lastStringEnd) : "";
        f.keyAt = lastStringAt;
        f.valueAt = i + 1;
        f.scalar = true;
      }
      structural++;
      continue;
    }
    if (c === 123 || c === 91) {
      // The row's first token, read from outside a string: the document itself opens here.
      const parentFrame = !inString && structural === 0 ? null : top(i);
      if (parentFrame) parentFrame.scalar = false;
      const name = !parentFrame
        ? ""
        : parentFrame.array
          ? `${parentFrame.name}[${parentFrame.index}]`
          : afterKey
            ? keyPath(parentFrame.key)
            : "[?]";
      afterKey = false;
      let object = -1;
      if (c === 123) {
        if (objects.length >= MAX_OBJECTS) return objects.length > 0 ? { objects, fromStart: false } : null;
        object = objects.length;
        const parent = enclosingObject(stack);
        if (parent < 0 && implicit > 0) orphans.push(object);
        objects.push({ start: i, end: -1, parent, name, fields: [], whole: true });
      }
      // Nesting deeper than any document's: not records worth naming.
      if (stack.length >= MAX_DEPTH) return null;
      stack.push({ object, array: c === 91, name, index: 0, key: "", keyAt: -1, valueAt: -1, scalar: false });
      structural++;
      continue;
    }
    if (c === 125 || c === 93) {
      const f = stack.pop();
      if (f) {
        endValue(f, i);
        if (f.object >= 0) objects[f.object]!.end = i + 1;
      }
      structural++;
      continue;
    }
    if (c === 44) {
      const f = top(i);
      if (f.array) f.index++;
      else endValue(f, i);
      structural++;
      continue;
    }
    if (!isScalarChar(c)) return null;
  }
  return structural > 0 ? { objects, fromStart: false } : null;
}

const keyPath = (key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

function enclosingObject(stack: Frame[]): number {
  for (let k = stack.length - 1; k >= 0; k--) if (stack[k]!.object >= 0) return stack[k]!.object;
  return -1;
}

/**
 * The objects of a long row when it reads as JSON (from its start, or from inside a string),
 * else null. `startsLine`: the row is a whole line's start, so a document opening on it is whole.
 */
export function jsonLine(row: string, startsLine: boolean, title = ""): JsonLine | null {
  const head = row.trimStart().charCodeAt(0);
  const fromStart = startsLine && (head === 123 || head === 91);
  const outer = (!fromStart && outerContainers(title.split(" … ")[0] ?? "")) || [];
  const outside = read(row, false, outer);
  if (outside) {
    outside.fromStart = fromStart;
    return outside;
  }
  return read(row, true, outer);
}

/** The innermost object holding position `at` (-1: none). */
export function objectAt(line: JsonLine, at: number): number {
  const { objects } = line;
  // The last object opened at or before `at`, then out through its parents until one holds `at`.
  let lo = 0;
  let hi = objects.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (objects[mid]!.start <= at) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo - 1; k >= 0; k = objects[k]!.parent) {
    const o = objects[k]!;
    if (o.end < 0 || o.end > at) return k;
  }
  return -1;
}

/** Object k and the objects around it, innermost first (at most `depth`). */
export function objectChain(line: JsonLine, k: number, depth = 6): number[] {
  const out: number[] = [];
  for (let o = k; o >= 0 && out.length < depth; o = line.objects[o]!.parent) out.push(o);
  return out;
}

/** The key path of object k, as far as the row shows it (`…` when it starts before the row). */
export function objectPath(line: JsonLine, k: number): string {
  const names: string[] = [];
  for (let o = k; o >= 0; o = line.objects[o]!.parent) {
    names.unshift(line.objects[o]!.name);
    // A container the row began inside of is named by its whole path.
    if (names[0]!.startsWith("$")) return names.join("");
  }
  const path = names.join("");
  // Whole when the row starts where the document does; else the path from the first container the row opens.
  return line.fromStart ? `$${path}` : `…${path}`;
}

/** An object this long (in characters) is a record: a term anywhere in it counts for a place in it. */
export const JSON_RECORD = 2400;

/** What names the object a place is in: its own fields and those of the objects around it. */
export type ObjectNames = {
  /** The best occurrence of term t in a field that names the object, or null. */
  level: (t: number) => Occurrence | null;
  /** Shows the field that holds occurrence o with the place. */
  use: (o: Occurrence) => void;
  /** Term t occurs elsewhere in the object (when it is short enough to be one record). */
  inRecord: (t: number) => boolean;
  /** The stretches to show with the place: the fields of its object and of the objects around it. */
  spans: () => [number, number][];
  path: () => string;
};

/**
 * The objects of a long row and which of the occurrences are in their own fields; `at(pos)`
 * then says what names the object at pos. Null when the row is not JSON.
 */
export function objectNames(
  row: string,
  startsLine: boolean,
  title: string,
  occ: Occurrence[],
  terms: number,
): { at: (pos: number) => ObjectNames | null; named: (o: Occurrence) => Occurrence[] } | null {
  const line = jsonLine(row, startsLine, title);
  if (!line || line.objects.length === 0) return null;
  // Occurrences in a field, by object, and every occurrence's start by term (sorted).
  const inField = new Map<number, { o: Occurrence; field: [number, number] }[]>();
  const starts: number[][] = Array.from({ length: terms }, () => []);
  for (const o of occ) {
    starts[o.term]!.push(o.at);
    const k = objectAt(line, o.at);
    if (k < 0) continue;
    const field = line.objects[k]!.fields.find(([a, b]) => o.at >= a && o.end <= b);
    if (!field) continue;
    const list = inField.get(k) ?? [];
    list.push({ o, field });
    inField.set(k, list);
  }
  for (const s of starts) s.sort((a, b) => a - b);
  const within = (t: number, from: number, to: number) => {
    const s = starts[t]!;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < s.length && s[lo]! < to;
  };
  const byPos = [...occ].sort((a, b) => a.at - b.at);
  const fieldOwner = new Map<Occurrence, number>();
  for (const [k, list] of inField) for (const x of list) fieldOwner.set(x.o, k);
  return {
    // When o is in a field that names an object, the occurrences inside that object (places the name is for).
    named: (o) => {
      const k = fieldOwner.get(o);
      if (k === undefined) return [];
      const obj = line.objects[k]!;
      const to = obj.end < 0 ? row.length : obj.end;
      let lo = 0;
      let hi = byPos.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (byPos[mid]!.at < obj.start) lo = mid + 1;
        else hi = mid;
      }
      const out: Occurrence[] = [];
      for (let i = lo; i < byPos.length && byPos[i]!.at < to; i++) if (byPos[i]!.term !== o.term) out.push(byPos[i]!);
      return out;
    },
    at: (pos) => {
      const k = objectAt(line, pos);
      if (k < 0) return null;
      const chain = objectChain(line, k);
      const own = line.objects[k]!;
      const used: [number, number][] = [];
      return {
        level: (t) => {
          for (const c of chain) {
            let best: Occurrence | null = null;
            for (const x of inField.get(c) ?? []) if (x.o.term === t && (!best || x.o.end - x.o.at > best.end - best.at)) best = x.o;
            if (best) return best;
          }
          return null;
        },
        use: (o) => {
          for (const c of chain) {
            const x = inField.get(c)?.find((y) => y.o === o);
            if (x) {
              used.push(x.field);
              return;
            }
          }
        },
        inRecord: (t) => own.whole && own.end > 0 && own.end - own.start <= JSON_RECORD && within(t, own.start, own.end),
        spans: () => {
          // Its own fields, the fields used, then those of the objects around it (the reader keeps the nearest that fit).
          const all = [...own.fields, ...used, ...chain.slice(1).flatMap((c) => line.objects[c]!.fields)];
          return [...new Map(all.map((f) => [f[0], f])).values()].sort((a, b) => a[0] - b[0]);
        },
        path: () => objectPath(line, k),
      };
    },
  };
}
