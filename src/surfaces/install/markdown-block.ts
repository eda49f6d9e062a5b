/**
 * A marked block in a Markdown instructions file (AGENTS.md, a Cursor rule): written once,
 * replaced in place on a second install, removed by uninstall with nothing else touched.
 */
const START = "<!-- pi-sidecar:start -->";
const END = "<!-- pi-sidecar:end -->";

function locate(text: string): { from: number; to: number } | null {
  const from = text.indexOf(START);
  if (from === -1) return null;
  const end = text.indexOf(END, from);
  if (end === -1) return null;
  let to = end + END.length;
  if (text[to] === "\n") to++;
  return { from, to };
}

export function withBlock(text: string | null, body: string): string {
  const block = `${START}\n${body.trim()}\n${END}\n`;
  const base = text ?? "";
  const at = locate(base);
  if (at) return base.slice(0, at.from) + block + base.slice(at.to);
  if (base === "") return block;
  return `${base}${base.endsWith("\n") ? "" : "\n"}\n${block}`;
}

/** The text without the block; null when nothing else was in the file. */
export function withoutBlock(text: string | null): string | null {
  if (text === null) return null;
  const at = locate(text);
  if (!at) return text;
  const rest = (text.slice(0, at.from).replace(/\n\n$/, "\n") + text.slice(at.to)).replace(/^\n+/, "");
  return rest.trim() === "" ? null : rest;
}
