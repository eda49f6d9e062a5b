/**
 * The hooks list Claude Code, Codex and Gemini CLI share: `hooks.<Event>` is a list of groups,
 * `{ matcher, hooks: [{ type: "command", command, ... }] }`. Ours is recognised by its command
 * (`... hook <host>` run by a pi-sidecar), so an install replaces an older one (a moved binary)
 * instead of adding a second, and an uninstall takes out ours and nothing else.
 */
type Json = Record<string, unknown>;

export function isOurHook(command: unknown, host: string): boolean {
  return typeof command === "string" && new RegExp(`\\bhook ${host}\\b`).test(command) && /pi-sidecar|main\.ts/.test(command);
}

/** The groups without our hook (a group left empty is dropped); undefined when nothing is left. */
export function withoutOurHook(groups: unknown, host: string): unknown[] | undefined {
  if (!Array.isArray(groups)) return groups === undefined ? undefined : (groups as unknown[]);
  const kept: unknown[] = [];
  for (const g of groups) {
    const hooks = (g as Json | null)?.hooks;
    if (!Array.isArray(hooks)) {
      kept.push(g);
      continue;
    }
    const others = hooks.filter((h) => !isOurHook((h as Json | null)?.command, host));
    if (others.length === hooks.length) kept.push(g);
    else if (others.length > 0) kept.push({ ...(g as Json), hooks: others });
  }
  return kept.length > 0 ? kept : undefined;
}

export function withOurHook(groups: unknown, host: string, group: Json): unknown[] {
  return [...(withoutOurHook(groups, host) ?? []), group];
}
