/**
 * Starting a parser process (parse-child.ts, run as the program's `kota-parser` helper), for the
 * pool (parse-pool.ts), and once ahead of the pool: `pi-sidecar kota index` starts its parser as the
 * program starts, before the command line's modules load (some 10 ms), so that the parser, which
 * takes some 18 ms to start, is ready when the first files are listed. The pool's first parser is
 * then that one, when it was started with the pool's own command.
 */
import type { Subprocess } from "bun";
import { type HelperCommand, helperCommand } from "../../helper-process.ts";

export type ParserProcess = Subprocess<"pipe", "pipe", "pipe">;

/**
 * A parser works in bursts of files with cold code: the optimizing compiler's last tier (FTL) costs
 * more CPU than it wins back in that time (a cold index took 12% less CPU without it). The lower
 * tiers still compile the hot code. A value the user set wins.
 */
const PARSER_JIT: Record<string, string> = { BUN_JSC_useFTLJIT: "0" };

/** Starts a parser (throws when the command cannot be started). */
export function spawnParser(c: HelperCommand): ParserProcess {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "BUN_BE_BUN") env[k] = v;
  return Bun.spawn({
    cmd: [c.command, ...c.args],
    env: { ...PARSER_JIT, ...env, ...c.env },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
}

const keyOf = (c: HelperCommand) => JSON.stringify([c.command, c.args, c.env]);
let early: { key: string; proc: ParserProcess } | null = null;

/**
 * Starts a parser now for a pool made later in this process to take (`command`: the pool's default),
 * and returns it (null: it could not start; the pool then starts its own and says why). One not
 * taken ends with this process: its input closes.
 */
export function prestartParser(command: () => HelperCommand = () => helperCommand("kota-parser")): ParserProcess | null {
  if (early) return early.proc;
  try {
    const c = command();
    early = { key: keyOf(c), proc: spawnParser(c) };
    return early.proc;
  } catch {
    early = null;
    return null;
  }
}

/** The parser started ahead, once, if it runs `c` and is still running; any other is ended. */
export function takeEarlyParser(c: HelperCommand): ParserProcess | null {
  const e = early;
  early = null;
  if (!e) return null;
  if (e.key === keyOf(c) && e.proc.exitCode === null && e.proc.signalCode === null) return e.proc;
  try {
    e.proc.kill();
  } catch {
    // gone already
  }
  return null;
}
