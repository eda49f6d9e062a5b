/**
 * src/main.ts with the kota command wired in (the local copy of the wiring the lead adds to
 * COMMANDS in src/surfaces/cli/run.ts), so the CLI tests run the real argv -> command path.
 */
import { kotaCommand } from "../../src/surfaces/cli/commands/kota.ts";
import { COMMANDS, runCli } from "../../src/surfaces/cli/run.ts";

if (!COMMANDS.some((c) => c.name === "kota")) COMMANDS.push(kotaCommand);
const code = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  outBytes: (bytes) => process.stdout.write(bytes),
  err: (text) => process.stderr.write(text),
  readStdin: async () => new Uint8Array(await Bun.stdin.arrayBuffer()),
  stdinStream: () => Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>,
  stdinIsTTY: process.stdin.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
});
await new Promise<void>((done) => (process.stdout.writableLength === 0 ? done() : process.stdout.once("drain", () => done())));
process.exit(code);
