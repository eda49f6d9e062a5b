/**
 * Whether Claude Code would run a Bash command without asking, so the hook can apply its rewrite
 * (which Claude Code applies only beside `permissionDecision: "allow"`, measured on 2.1.332)
 * without ever granting more than the person already has. Yes when every top-level command is
 * covered by an allow rule in the settings files and none by a deny or ask rule, or is plainly
 * read-only (the programs below, no redirection to a file, no path outside the project), which
 * Claude Code runs without asking too. Anything else is left to Claude Code, unrewritten: it asks
 * as it always does. Deny and ask rules are evaluated by Claude Code on the rewritten command
 * anyway (measured), so a deny still wins.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { programOf, type ScannedCommand, scanCommand } from "./shell-scan.ts";

type Rules = { allow: string[]; deny: string[]; ask: string[] };

function rulesIn(file: string): Rules {
  try {
    const p = (JSON.parse(readFileSync(file, "utf8")) as { permissions?: Partial<Record<keyof Rules, unknown>> }).permissions ?? {};
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    return { allow: list(p.allow), deny: list(p.deny), ask: list(p.ask) };
  } catch {
    return { allow: [], deny: [], ask: [] };
  }
}

/** The permission rules of every settings file Claude Code reads (managed, user, project, local). */
export function claudeRules(project: string, env: Record<string, string | undefined>): Rules {
  const user = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");
  const files = [
    process.platform === "darwin"
      ? "/Library/Application Support/ClaudeCode/managed-settings.json"
      : "/etc/claude-code/managed-settings.json",
    join(user, "settings.json"),
    join(project, ".claude", "settings.json"),
    join(project, ".claude", "settings.local.json"),
  ];
  const all: Rules = { allow: [], deny: [], ask: [] };
  for (const f of files) {
    const r = rulesIn(f);
    all.allow.push(...r.allow);
    all.deny.push(...r.deny);
    all.ask.push(...r.ask);
  }
  return all;
}

/** Does a `Bash(...)` rule cover this simple command's text? `Bash`, `Bash(*)`, `Bash(x:*)` prefix, `*` wildcards, exact. */
export function ruleMatches(rule: string, command: string): boolean {
  const r = rule.trim();
  if (r === "Bash" || r === "Bash(*)") return true;
  const m = /^Bash\((.*)\)$/s.exec(r);
  if (!m) return false;
  const pattern = m[1]!.trim();
  if (pattern.endsWith(":*")) {
    const prefix = pattern.slice(0, -2);
    return command === prefix || command.startsWith(`${prefix} `);
  }
  if (!pattern.includes("*")) return command === pattern;
  const re = new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
    "s",
  );
  // `git *` also covers a bare `git`, as a space before a trailing * is optional.
  return re.test(command) || (pattern.endsWith(" *") && command === pattern.slice(0, -2));
}

const READ_ONLY = new Set([
  "cat",
  "head",
  "tail",
  "wc",
  "ls",
  "tree",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "du",
  "file",
  "stat",
  "sort",
  "uniq",
  "cut",
  "nl",
  "diff",
  "cmp",
  "comm",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "pwd",
  "echo",
  "which",
  "cd",
]);
const GIT_READ_ONLY = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "ls-files",
  "ls-tree",
  "rev-parse",
  "describe",
  "shortlog",
  "grep",
]);
const FIND_ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/;

function insideProject(word: string, project: string): boolean {
  if (word.startsWith("~")) return false;
  const path = word.replace(/^[^=]*=/, "");
  if (path.includes("..")) {
    const rel = relative(project, resolve(project, path));
    if (rel.startsWith("..") || isAbsolute(rel)) return false;
  }
  if (isAbsolute(path)) {
    const rel = relative(project, path);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  }
  return true;
}

function readOnly(c: ScannedCommand, project: string): boolean {
  const p = programOf(c.words);
  if (!p || (c.words[0] !== p.program && !c.words[0]!.endsWith(`/${p.program}`))) return false; // no VAR= or wrappers
  for (const w of c.words) {
    if (w === "(" || w === ")" || w === "{" || w === "}" || /[`$]/.test(w)) return false;
    if (/^\d*>{1,2}|^&>|^>\||^<>/.test(w) && !/^(\d*>{1,2}&\d|\d*>{1,2}\/dev\/null|&>\/dev\/null)$/.test(w)) return false;
    if (w.startsWith("/") || w.startsWith("~") || w.includes("..")) if (!insideProject(w, project)) return false;
  }
  if (p.program === "git") {
    const sub = p.args.find((a) => !a.startsWith("-"));
    return sub !== undefined && GIT_READ_ONLY.has(sub) && !p.args.some((a) => a === "--output" || a.startsWith("--output="));
  }
  if (p.program === "find") return !p.args.some((a) => FIND_ACTIONS.test(a));
  if (p.program === "sort") return !p.args.some((a) => a === "-o" || a.startsWith("--output"));
  return READ_ONLY.has(p.program);
}

function textOf(command: string, c: ScannedCommand): string {
  return command.slice(c.start, c.end).trim();
}

/** "allow" when Claude Code would run this command without asking; null when it would ask or deny. */
export function claudeWouldAllow(command: string, project: string, rules: Rules): boolean {
  const scan = scanCommand(command);
  if (!scan.ok) return false;
  const parts = scan.commands.filter((c) => c.words.length > 0);
  if (parts.length === 0) return false;
  for (const c of parts) {
    const text = textOf(command, c);
    if (rules.deny.some((r) => ruleMatches(r, text)) || rules.ask.some((r) => ruleMatches(r, text))) return false;
    if (!(rules.allow.some((r) => ruleMatches(r, text)) || readOnly(c, project))) return false;
  }
  return true;
}
