/**
 * Globs, one meaning everywhere (tool names in mcp.json allow/deny, sensitive paths in the read
 * cache): `*` any run of characters within a path segment, `**` any run across segments (`**\/`
 * also matches no folder at all), `?` one character. A name with no `/` (a tool name, a file's
 * basename) is one segment, so `*` covers all of it.
 */
export function globToRegExp(glob: string, options: { ignoreCase?: boolean } = {}): RegExp {
  let body = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      body += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") body += "[^/]*";
    else if (c === "?") body += "[^/]";
    else body += c.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${body}$`, options.ignoreCase ? "i" : "");
}

export function globMatch(glob: string, text: string, options: { ignoreCase?: boolean } = {}): boolean {
  return globToRegExp(glob, options).test(text);
}
