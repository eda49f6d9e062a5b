/**
 * A shell command rewritten so its output passes through `pi-sidecar capture --passthrough`:
 *
 *   [cd DIR && ...]{ (
 *   COMMAND
 *   ) 2>&1; printf '\n%s %d\n' MARKER "$?"; } | pi-sidecar capture --passthrough --exit-marker MARKER ...
 *
 * The command runs unchanged in a subshell with stderr joined to stdout (the order a terminal
 * shows); its exit status travels down the pipe behind a one-off marker line, which capture
 * strips before it prints the output (byte for byte when small, a receipt when large) and then
 * exits with that status. No `pipefail` or PIPESTATUS: it works in bash, zsh and plain sh.
 * Leading `cd DIR &&` steps stay outside, so the shell's working folder still moves. A command
 * is left alone when wrapping could change what it does: it goes to the background, changes
 * the shell's own state, talks to a terminal, already goes through pi-sidecar, or cannot be
 * parsed (an unclosed quote, a heredoc without its terminator, a `case`).
 */
import { programOf, type ScannedCommand, scanCommand } from "./shell-scan.ts";

export type WrapOptions = {
  /** How to run pi-sidecar: the binary (or bun + main.ts in a checkout). */
  bin: string[];
  session?: string;
  project?: string;
  /** The marker word (tests fix it; otherwise random per call). */
  marker?: string;
  /** The host whose shell call this is (claude, codex, gemini): the stored output's baseline is that host's own cut. */
  host?: string;
};

export type Wrap = { wrapped: true; command: string } | { wrapped: false; reason: string };

/** Builtins whose effect is the shell's own state: in a subshell it would be lost. */
const SHELL_STATE = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "unset",
  "source",
  ".",
  "alias",
  "unalias",
  "set",
  "shopt",
  "setopt",
  "unsetopt",
  "exec",
  "eval",
  "declare",
  "typeset",
  "local",
  "readonly",
  "trap",
  "ulimit",
  "umask",
  "hash",
  "read",
  "fg",
  "bg",
  "disown",
  "jobs",
]);

/** Programs that take over a terminal (editors, pagers, monitors, shells and REPLs). */
const INTERACTIVE = new Set([
  "vi",
  "vim",
  "nvim",
  "view",
  "nano",
  "pico",
  "emacs",
  "less",
  "more",
  "most",
  "top",
  "htop",
  "btop",
  "atop",
  "watch",
  "tmux",
  "screen",
  "man",
  "ssh",
  "mosh",
  "telnet",
  "ftp",
  "sftp",
]);

/** Programs that start a REPL when given no arguments. */
const REPL_WITHOUT_ARGS = new Set([
  "python",
  "python3",
  "node",
  "bun",
  "deno",
  "irb",
  "ipython",
  "bash",
  "sh",
  "zsh",
  "fish",
  "R",
  "ghci",
  "lua",
  "psql",
  "mysql",
  "sqlite3",
  "redis-cli",
  "mongosh",
]);

/** Commands whose output is a line or nothing: a wrapper would cost a process and save nothing. */
const QUIET = new Set([
  "true",
  "false",
  ":",
  "pwd",
  "echo",
  "printf",
  "mkdir",
  "touch",
  "rm",
  "rmdir",
  "mv",
  "cp",
  "ln",
  "chmod",
  "chown",
  "chgrp",
  "which",
  "type",
  "whoami",
  "id",
  "hostname",
  "date",
  "sleep",
  "kill",
  "test",
  "[",
  "[[",
  "basename",
  "dirname",
  "realpath",
  "readlink",
]);

const CONTAINER_TOOLS = new Set(["docker", "podman", "nerdctl", "kubectl", "oc"]);
const MAX_COMMAND = 64 * 1024;
const LABEL_CHARS = 120;

/** Single-quoted for any POSIX shell. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

function interactive(c: ScannedCommand): string | null {
  const p = programOf(c.words);
  if (!p) return null;
  const { program, args } = p;
  if (INTERACTIVE.has(program)) return `${program} needs a terminal`;
  if (REPL_WITHOUT_ARGS.has(program) && args.length === 0) return `${program} without arguments starts an interactive session`;
  if (program === "git") {
    if (args.some((a) => ["-i", "--interactive", "-p", "--patch", "-e", "--edit"].includes(a))) return "an interactive git command";
    if (args[0] === "commit" && !args.some((a) => /^(-m|--message|-F|--file|--no-edit|-C|--reuse-message|--fixup|-am|-[a-zA-Z]*m)/.test(a)))
      return "git commit without a message opens an editor";
  }
  if (
    CONTAINER_TOOLS.has(program) &&
    args.some((a) => a === "run" || a === "exec" || a === "attach") &&
    args.some((a) => /^-[a-zA-Z]*[it][a-zA-Z]*$/.test(a) || a === "--interactive" || a === "--tty" || a === "--stdin")
  )
    return `${program} with a terminal or stdin (-i/-t)`;
  return null;
}

/** Why this command must not be wrapped, or null when it can be. */
function reasonToLeave(commands: ScannedCommand[], bin: string[]): string | null {
  for (const c of commands) {
    if (programOf(c.words)?.program === "pi-sidecar" || c.words.some((w) => bin.includes(w))) return "it already goes through pi-sidecar";
  }
  for (const c of commands) {
    const p = programOf(c.words);
    if (p && SHELL_STATE.has(p.program)) return `${p.program} changes the shell's own state`;
    const why = interactive(c);
    if (why) return why;
  }
  if (commands.every((c) => QUIET.has(programOf(c.words)?.program ?? ":"))) return "its output is a line or nothing";
  return null;
}

export function newMarker(): string {
  return `__pi_sidecar_exit_${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex")}`;
}

export function wrapCommand(command: string, o: WrapOptions): Wrap {
  if (command.length > MAX_COMMAND) return { wrapped: false, reason: "it is too long to check" };
  if (command.trim() === "") return { wrapped: false, reason: "it is empty" };
  const scan = scanCommand(command);
  if (!scan.ok) return { wrapped: false, reason: `it cannot be parsed safely (${scan.reason})` };
  if (scan.background) return { wrapped: false, reason: "it runs something in the background (&)" };
  // Leading `cd DIR &&` steps stay outside the wrapper, so the working folder still moves.
  let hoist = 0;
  while (hoist < scan.commands.length - 1 && scan.commands[hoist]!.words[0] === "cd" && scan.commands[hoist]!.op === "&&") hoist++;
  const rest = scan.commands.slice(hoist);
  const why = reasonToLeave(rest, o.bin);
  if (why) return { wrapped: false, reason: why };
  const restStart = hoist === 0 ? 0 : scan.commands[hoist - 1]!.end + 2;
  const prefix = command.slice(0, restStart);
  const body = command.slice(restStart).trim();
  if (/(^|[^\\])(\\\\)*\\$/.test(body)) return { wrapped: false, reason: "it ends with a line continuation" };
  const marker = o.marker ?? newMarker();
  // The label travels base64url-encoded: no quotes or braces for a host's command checks to trip on.
  const label = Buffer.from(body.length > LABEL_CHARS ? `${body.slice(0, LABEL_CHARS - 1)}…` : body).toString("base64url");
  const capture = [
    ...o.bin.map(shellQuote),
    "capture",
    "--passthrough",
    "--exit-marker",
    marker,
    ...(o.session && /^[\w.-]+$/.test(o.session) ? ["--session", o.session] : []),
    ...(o.project ? ["--project", shellQuote(o.project)] : []),
    ...(o.host && /^[a-z]+$/.test(o.host) ? ["--host", o.host] : []),
    "--label-base64",
    label,
  ].join(" ");
  const wrapped = `${prefix}${prefix && !/\s$/.test(prefix) ? " " : ""}( (\n${body}\n) 2>&1; echo ${marker} $? ) | ${capture}`;
  return { wrapped: true, command: wrapped };
}
