/**
 * Credentials told by the shape of the line they sit on: a protocol command (`PASS x`, `AUTH PLAIN x`),
 * a command whose argument is a password (`keytool -storepass x`), a server directive
 * (`requirepass x`), a published API that takes a password as an argument. Each rule is data: the
 * keywords that wake it and a pattern run over the line that holds the hit, whose capture groups are
 * the secrets.
 *
 * Linear: a rule reads at most MAX_LINE characters of a line and runs at most once per line, and its
 * pattern has no nested quantifiers.
 */
import type { Detector } from "./detector.ts";
import { isHarmlessValue } from "./harmless-values.ts";
import { classifyKey } from "./key-names.ts";
import { BOUNDARY } from "./keyword-automaton.ts";
import { RANK, type ScanContext } from "./scan-context.ts";

const MAX_LINE = 1024;

export type LineRule = {
  kind: string;
  /** Lower-case keywords (BOUNDARY allowed) that wake the rule. */
  hints: readonly string[];
  /** Run over the line, not sticky; every non-empty capture group is a secret. */
  pattern: RegExp;
  /** Lines around the hit's line the pattern sees too (a prompt on the line before). */
  before?: number;
  /** Lines after the hit's line the pattern sees too (a command's output). */
  after?: number;
  /** This capture group is a name that must say credential (classifyKey); it is not redacted. */
  nameGroup?: number;
  /** The hit must be written exactly as the hint in capitals (`AUTH`, `PASS`, `LOGIN`: protocol commands). */
  upper?: boolean;
  /** A literal the stretch must hold before the pattern runs (`<` for markup): a cheap native scan first. */
  requires?: string;
  /** Skip values that only stand for a password (placeholders, references, `$VAR`). */
  checkValue?: boolean;
};

/** pos lies inside an earlier pass's `[REDACTED:kind]` marker: redaction must be stable. */
function insideMarker(text: string, pos: number): boolean {
  const from = Math.max(0, pos - 64);
  const before = text.slice(from, pos);
  const open = before.lastIndexOf("[REDACTED:");
  return open !== -1 && !before.includes("]", open);
}

function lineStartBefore(ctx: ScanContext, from: number, lines: number): number {
  let at = from;
  for (let i = 0; i < lines && at > 0; i++) {
    const window = Math.max(0, at - 1 - MAX_LINE);
    const prev = ctx.text.slice(window, at - 1).lastIndexOf("\n");
    if (prev === -1) break;
    at = window + prev + 1;
  }
  return at;
}

function apply(ctx: ScanContext, rule: LineRule, pattern: RegExp, anchored: boolean, key: string, pos: number): void {
  // A window of the line around the hit, each stretch read once per rule: on a long line, later
  // hits read the next window; a rule anchored at the line's start reads only the first.
  if (pos < ((ctx.state.get(key) as number | undefined) ?? -1)) return;
  const lineStart = ctx.lineStart(pos);
  if (anchored && pos - lineStart > 128) return;
  const windowStart = pos - lineStart > MAX_LINE / 2 ? pos - MAX_LINE / 4 : lineStart;
  const from = rule.before && windowStart === lineStart ? lineStartBefore(ctx, lineStart, rule.before) : windowStart;
  let to = Math.min(ctx.lineEnd(pos), windowStart + MAX_LINE);
  ctx.state.set(key, to);
  for (let i = 0; i < (rule.after ?? 0) && to < ctx.text.length; i++) {
    const limit = Math.min(ctx.text.length, to + 1 + 4 * MAX_LINE);
    const next = ctx.text.slice(to + 1, limit).indexOf("\n");
    to = next === -1 ? limit : to + 1 + next;
  }
  const line = ctx.text.slice(from, to);
  if (rule.requires !== undefined && !line.includes(rule.requires)) return;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(line); match !== null; match = pattern.exec(line)) {
    if (match[0].length === 0) pattern.lastIndex++;
    if (rule.nameGroup !== undefined && classifyKey(match[rule.nameGroup] ?? "") === null) continue;
    for (let g = 1; g < match.length; g++) {
      if (g === rule.nameGroup) continue;
      const span = match.indices?.[g];
      const value = match[g];
      if (span === undefined || !value) continue;
      if (rule.checkValue !== false && isHarmlessValue(value, { cls: "password", quoted: true, numbersAreSecret: true })) continue;
      if (ctx.covered(from + span[0]) || value.includes("REDACTED") || insideMarker(ctx.text, from + span[0])) continue;
      ctx.add(from + span[0], from + span[1], rule.kind, RANK.context);
    }
  }
}

export function lineRulesDetector(name: string, rules: readonly LineRule[]): Detector {
  const byHint = new Map<string, number[]>();
  // The hit as a protocol writes it, in capitals, for rules that ask for it (one per rule: one hint each).
  const uppers = rules.map((r) => (r.upper ? r.hints[0]!.replace(BOUNDARY, "").toUpperCase() : undefined));
  const patterns = rules.map((r) => new RegExp(r.pattern.source, `${r.pattern.flags.replace("g", "")}gd`));
  // (Read once: RegExp#source builds a new string at every read.)
  const anchored = rules.map((r) => r.pattern.source.startsWith("^"));
  const keys = rules.map((_, i) => `${name}.${i}`);
  rules.forEach((rule, i) => {
    for (const hint of rule.hints) byHint.set(hint, [...(byHint.get(hint) ?? []), i]);
  });
  return {
    name,
    hints: [...byHint.keys()],
    onHit(ctx, start, end, hint) {
      for (const i of byHint.get(hint) ?? []) {
        const upper = uppers[i];
        if (upper !== undefined && !ctx.text.startsWith(upper, end - upper.length)) continue;
        apply(ctx, rules[i]!, patterns[i]!, anchored[i]!, keys[i]!, start);
      }
    },
  };
}
