#!/usr/bin/env bun
/** The entry point: argv -> command. The only place that calls process.exit. */
import { helperRole, runHelper } from "./kota/index.ts";
import { runCli } from "./surfaces/cli/run.ts";

async function readStdin(): Promise<Uint8Array> {
  return new Uint8Array(await Bun.stdin.arrayBuffer());
}

// A helper process of the code index (a parser that may crash, KotaDB's watchdog): the same binary in another role.
const helper = helperRole();

// No top-level await: the binary is compiled to bytecode (CommonJS), which starts several times faster.
if (helper) void runHelper(helper).then((code) => process.exit(code));
else
  void runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(text),
    outBytes: (bytes) => process.stdout.write(bytes),
    err: (text) => process.stderr.write(text),
    readStdin,
    stdinStream: () => Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    // Let stdout drain before exiting (large outputs to a pipe).
    if (process.stdout.writableLength === 0) process.exit(code);
    else process.stdout.once("drain", () => process.exit(code));
  });
