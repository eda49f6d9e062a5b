/**
 * The OpenCode plugin `install opencode` writes: OpenCode runs it in its own process and calls
 * its `tool.execute.after` hook with each tool's result, which the hook may change. A text result
 * goes through `pi-sidecar capture --passthrough` (the same thresholds, redaction and receipts as
 * everywhere): under the threshold it comes back unchanged, above it the receipt replaces it.
 * When OpenCode already cut a long output and kept the whole in a file (metadata.outputPath),
 * the file is what is stored. File reads and pi-sidecar's own tools are never replaced, and any
 * failure leaves the result as it was.
 */
export const PLUGIN_MARK =
  "// pi-sidecar plugin for OpenCode: written by `pi-sidecar install opencode`; `pi-sidecar uninstall opencode` removes it.";

export function opencodePlugin(bin: string[]): string {
  return `${PLUGIN_MARK}
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";

const BIN = ${JSON.stringify(bin)};
// What the model asked to read, and what it asked pi-sidecar itself, is never replaced.
const NEVER = new Set(["read", "edit", "write", "patch", "multiedit", "todowrite", "todoread", "task", "question"]);
const SMALL = 4096; // under this many characters no result is over any threshold: no process is started
const MAX = 256 * 1024 * 1024;

function passthrough(text, tool, sessionID, directory, label) {
  return new Promise((done) => {
    const args = [...BIN.slice(1), "capture", "--passthrough", "--tool", tool, "--session", sessionID, "--project", directory];
    if (label) args.push("--label-base64", Buffer.from(label.slice(0, 200)).toString("base64url"));
    let out = "";
    let child;
    try {
      child = spawn(BIN[0], args, { stdio: ["pipe", "pipe", "ignore"] });
    } catch {
      return done(null);
    }
    const timer = setTimeout(() => child.kill(), 30000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (c) => (out += c));
    child.on("error", () => done(null));
    child.on("close", (code) => {
      clearTimeout(timer);
      done(code === 0 && out !== "" ? out : null);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(text);
  });
}

function labelOf(args) {
  for (const key of ["command", "url", "pattern", "query", "path", "filePath"]) if (typeof args?.[key] === "string") return args[key];
  return "";
}

export const PiSidecar = async ({ directory }) => ({
  "tool.execute.after": async (input, output) => {
    try {
      const tool = String(input?.tool ?? "");
      if (NEVER.has(tool) || /pi[-_]sidecar|^context_/.test(tool) || typeof output?.output !== "string") return;
      let text = output.output;
      const file = output.metadata?.outputPath;
      if (output.metadata?.truncated && typeof file === "string") {
        try {
          if (statSync(file).size <= MAX) text = readFileSync(file, "utf8");
        } catch {}
      }
      if (text.length < SMALL) return;
      const answer = await passthrough(text, tool, String(input.sessionID ?? ""), directory, labelOf(input.args));
      if (answer !== null && answer !== text) output.output = answer.replace(/\\n$/, "");
    } catch {}
  },
});
`;
}
