/**
 * Edits of a host's JSON (or JSON with comments) config that leave everything else as it was:
 * jsonc-parser's `modify` rewrites only the value at a path, so the user's other entries, their
 * order, formatting and comments outside that value stay. A file that does not parse is refused
 * with the parser's complaint: nothing is written over what a person may be editing.
 */
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from "jsonc-parser";
import { AppError } from "../../errors.ts";

type Json = Record<string, unknown>;

function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.includes("\t"),
    tabSize: indent.includes("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/** The file's value (an object), or {} for a missing or empty file; a broken file throws with where it broke. */
export function parseObject(text: string | null, path: string): Json {
  if (text === null || text.trim() === "") return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const e = errors[0]!;
    const line = text.slice(0, e.offset).split("\n").length;
    throw new AppError(
      "BAD_CONFIG",
      `${path} is not valid JSON (${printParseErrorCode(e.error)} at line ${line}); fix it, then run this again. Nothing was changed.`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new AppError("BAD_CONFIG", `${path} does not hold a JSON object; nothing was changed.`);
  return value as Json;
}

/** `text` with the value at `path` set (undefined: removed). Returns text ending in a newline. */
export function setAt(text: string | null, path: (string | number)[], value: unknown): string {
  const base = text === null || text.trim() === "" ? "{}\n" : text;
  const edits = modify(base, path, value, { formattingOptions: formatting(base === "{}\n" ? "{\n  \n}" : base) });
  const out = applyEdits(base, edits);
  return out.endsWith("\n") ? out : `${out}\n`;
}

export function getAt(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Json)[k];
  }
  return v;
}
