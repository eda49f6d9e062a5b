// Stands in for pi: starts `pi-sidecar web --attached` with a pipe for its stdin, prints the child's pid, then waits to be killed.
import { spawn } from "node:child_process";
import { join } from "node:path";

const [db] = process.argv.slice(2) as [string];
const child = spawn(process.execPath, [join(import.meta.dir, "../../src/main.ts"), "--db", db, "web", "--json", "--attached"], {
  stdio: ["pipe", "pipe", "ignore"],
});
child.stdout.once("data", () => process.stdout.write(`${child.pid}\n`));
setInterval(() => {}, 60_000);
