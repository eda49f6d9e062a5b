#!/usr/bin/env bun
/** The entry point: argv -> command. The only place that calls process.exit. */
import { helperRole, prestartParser, runHelper } from "./kota/index.ts";

async function readStdin(): Promise<Uint8Array> {
  return new Uint8Array(await Bun.stdin.arrayBuffer());
}

/**
 * Everything printed goes through here; `flushed` settles when the last write reached stdout (Bun's
 * writableLength reads 0 while a pipe's reader is behind, so it cannot tell).
 */
let flushed: Promise<void> = Promise.resolve();
function toStdout(chunk: string | Uint8Array): void {
  flushed = new Promise((done) => process.stdout.write(chunk, () => done()));
}

// A helper process of the code index (a parser that may crash, KotaDB's watchdog): the same binary in another role.
const helper = helperRole();

// No top-level await: the binary is compiled to bytecode (CommonJS), which starts several times faster.
// The command line's modules load only for a command: a helper (a parser process, started for every
// index) skips their start-up, some 5 ms of its own before it can parse.
if (helper) void runHelper(helper).then((code) => process.exit(code));
else {
  // `kota index` parses files (every one on a first index): its parser starts now, ready some 10 ms
  // sooner than when the command starts it, once the files are listed (kota/builtin/parse/parser-process.ts).
  const [command, sub] = process.argv.slice(2);
  if (command === "kota" && sub === "index" && !process.argv.includes("kotadb")) prestartParser();
  const { runCli } = require("./surfaces/cli/run.ts") as typeof import("./surfaces/cli/run.ts");
  void runCli(process.argv.slice(2), {
    out: toStdout,
    outBytes: toStdout,
    err: (text) => process.stderr.write(text),
    readStdin,
    stdinStream: () => Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  }).then(async (code) => {
    // Exit once the last write reached stdout: a large answer to a slow reader is not cut at 64 KiB.
    await flushed;
    process.exit(code);
  });
}
