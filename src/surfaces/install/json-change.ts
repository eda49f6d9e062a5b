/**
 * The two edits hosts' JSON configs need, as text-to-text functions for `changeFile`: one entry
 * set or removed at a path (an MCP server), and our hook put into or taken out of a hooks list.
 * Both parse the file first, so a broken file is refused untouched, and leave the text as it was
 * when there is nothing to change.
 */
import { withOurHook, withoutOurHook } from "./hook-entries.ts";
import { getAt, parseObject, setAt } from "./json-edit.ts";

type Edit = (text: string | null) => string | null;

/** Sets `value` at `keys` (undefined: removes it); `seed` starts a file that does not exist yet. */
export function entryEdit(path: string, keys: string[], value: unknown, seed?: (text: null) => string): Edit {
  return (text) => {
    const current = getAt(parseObject(text, path), keys);
    if (value === undefined && current === undefined) return text;
    if (JSON.stringify(value) === JSON.stringify(current)) return text;
    return setAt(text === null && seed ? seed(null) : text, keys, value);
  };
}

/** Puts our hook group into the list at `keys` (group null: takes ours out). */
export function hookListEdit(path: string, keys: string[], host: string, group: Record<string, unknown> | null): Edit {
  return (text) => {
    const current = getAt(parseObject(text, path), keys);
    const next = group ? withOurHook(current, host, group) : withoutOurHook(current, host);
    if (JSON.stringify(next) === JSON.stringify(current)) return text;
    return setAt(text, keys, next);
  };
}
