/**
 * `npm start`: shows the built binary working on its embedded defaults (default database
 * path, no flags): a noisy 1,400-line build log goes in, a 2 KiB receipt comes out, and the
 * one line that matters is found and fetched. The demo's own session is purged at the end.
 */
import { join } from "node:path";

const BIN = join(import.meta.dir, "..", "dist", "pi-sidecar");
const SESSION = `demo-${Date.now()}`;

function run(args: string[], stdin?: string): string {
  console.log(
    `\n$ pi-sidecar ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}${stdin ? "   # stdin: the build log" : ""}`,
  );
  const p = Bun.spawnSync([BIN, ...args], { stdin: stdin ? Buffer.from(stdin) : "ignore", stdout: "pipe", stderr: "pipe" });
  const out = p.stdout.toString();
  process.stdout.write(out);
  process.stderr.write(p.stderr.toString());
  if (p.exitCode !== 0) throw new Error(`pi-sidecar ${args[0]} exited with ${p.exitCode}`);
  return out;
}

function buildLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 1400; i++) {
    if (i === 917)
      lines.push("src/billing/invoice.ts(88,14): error TS2345: Argument of type 'string' is not assignable to parameter of type 'Money'.");
    else
      lines.push(
        `[${String(i).padStart(4, "0")}] compiled src/module-${i % 97}/part-${i % 13}.ts in ${(i * 37) % 400} ms (cache ${i % 3 ? "hit" : "miss"})`,
      );
  }
  lines.push(`npm notice using token ${["npm_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("")}`);
  lines.push("Build failed with 1 error.");
  return `${lines.join("\n")}\n`;
}

run(["--version"]);
const receipt = run(["capture", "--tool", "build", "--session", SESSION, "--label", "npm run build"], buildLog());
const id = /Source (ctx_\w+)/.exec(receipt)?.[1];
if (!id) throw new Error("no source id in the receipt");
run(["search", "not assignable Money", "--source", id]);
run(["get", id, "--lines", "915-919"]);
run(["stats", "--session", SESSION]);
run(["purge", "--session", SESSION]);
console.log("\nThe demo's source was purged; the database stays at its default path for real use.");
