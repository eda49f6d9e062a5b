/**
 * `/sidecar web` in pi: starts `pi-sidecar web` as a child and shows its URL; `/sidecar web open`
 * also opens it in the browser (it never opens by itself), `/sidecar web stop` stops it. The child
 * is started with `--attached`: it stops when its stdin closes, which happens when pi exits however
 * it exits (a crash or a kill included); at session shutdown it is also told to stop.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import { openBrowser } from "../web/open-browser.ts";
import { say } from "./commands.ts";
import { findCommand } from "./connect.ts";
import { type SidecarCommand, sidecarCommand } from "./sidecar-command.ts";

const USAGE = "/sidecar web [open|stop]: a local page with the savings, sources and retrieval log (127.0.0.1 only)";
const START_TIMEOUT_MS = 15_000;

type Running = { child: ChildProcess; url: string };

/** Starts the child and waits for the line with its URL ({url, port, pid} on stdout). */
function start(command: string[], env: Record<string, string>, open: boolean): Promise<Running> {
  const [bin, ...prefix] = command;
  const child = spawn(bin!, [...prefix, "web", "--json", "--attached", ...(open ? ["--open"] : [])], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => finish(new Error(`no URL after ${START_TIMEOUT_MS / 1000} s${err ? `: ${err.trim()}` : ""}`)),
      START_TIMEOUT_MS,
    );
    const finish = (error: Error | null, url?: string) => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners("data");
      if (error) {
        child.kill("SIGTERM");
        reject(error);
      } else resolve({ child, url: url! });
    };
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (d: string) => {
      err = (err + d).slice(-2000);
    });
    child.stdout?.on("data", (d: string) => {
      out += d;
      const line = out.split("\n").find((l) => l.trim().startsWith("{"));
      if (!line) return;
      try {
        finish(null, (JSON.parse(line) as { url: string }).url);
      } catch {
        finish(new Error(`unexpected output: ${line.slice(0, 200)}`));
      }
    });
    child.on("error", (e) => finish(new Error(`cannot run ${bin}: ${e.message}`)));
    child.on("exit", (code) => finish(new Error(`it exited (code ${code})${err ? `: ${err.trim().split("\n").at(-1)}` : ""}`)));
  });
}

/** Adds `/sidecar web` to `sidecar` (without one, registers a `/sidecar` of its own that has only `web`). */
export function registerWebCommand(pi: ExtensionAPI, config: Readonly<Config>, dir: string, sidecar?: SidecarCommand): void {
  const own = sidecar ? null : sidecarCommand();
  addWeb(pi, sidecar ?? own!, config, dir);
  own?.register(pi);
}

function addWeb(pi: ExtensionAPI, sidecar: SidecarCommand, config: Readonly<Config>, dir: string): void {
  let running: Running | null = null;
  let starting: Promise<Running> | null = null;
  const stop = () => {
    // Closing stdin is enough (--attached); the signal makes it prompt.
    running?.child.stdin?.end();
    running?.child.kill("SIGTERM");
    running = null;
  };
  sidecar.add("web", {
    usage: USAGE,
    run: async (args: string, ctx: ExtensionContext) => {
      const [action, ...extra] = args.split(/\s+/).filter(Boolean);
      if (extra.length > 0 || (action !== undefined && action !== "open" && action !== "stop")) return say(ctx, `Usage: ${USAGE}`);
      if (action === "stop") {
        if (!running) return say(ctx, "The web page is not running.");
        stop();
        return say(ctx, "Stopped the web page.");
      }
      if (running && running.child.exitCode === null) {
        if (action === "open") openBrowser(running.url, (m) => say(ctx, `pi-sidecar web: ${m}`));
        return say(ctx, `The web page is running: ${running.url}`);
      }
      try {
        starting ??= start(findCommand(config, dir), { PI_SIDECAR_DB: config.db }, action === "open");
        const r = await starting;
        running = r;
        r.child.on("exit", () => {
          if (running === r) running = null;
        });
        say(
          ctx,
          `pi-sidecar web page: ${r.url} (only this machine, with the token in the URL; it stops when pi exits, or /sidecar web stop)`,
        );
      } catch (error) {
        say(
          ctx,
          `The web page did not start: ${error instanceof Error ? error.message : String(error)}. Try pi-sidecar web in a terminal.`,
        );
      } finally {
        starting = null;
      }
    },
  });
  pi.on("session_shutdown", async () => stop());
}
