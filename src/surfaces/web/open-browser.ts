/** Opens a URL in the desktop's browser, only when asked (`--open`, `/sidecar web open`). */
import { spawn } from "node:child_process";

/** Failures are reported through `problem`; the URL is printed anyway, so nothing else depends on it. */
export function openBrowser(url: string, problem: (message: string) => void): void {
  const [cmd, ...args] =
    process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  try {
    const child = spawn(cmd!, args, { stdio: "ignore", detached: true });
    child.on("error", (e) => problem(`could not open a browser (${e.message}); open the URL yourself`));
    child.unref();
  } catch (e) {
    problem(`could not open a browser (${String(e)}); open the URL yourself`);
  }
}
