/** Which file holds a cut command's whole output: pi's own, never one a command's text names. */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fullOutputFile } from "../../src/surfaces/tools/full-output-file.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";

const made: string[] = [];
afterAll(() => {
  for (const f of made) rmSync(f, { force: true });
  cleanupTempDirs();
});

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)).join("\n");
/** A file named like pi's in the temp folder, removed after the test. */
function piFile(content: string): string {
  const path = join(
    tmpdir(),
    `pi-bash-${crypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "")}.log`,
  );
  writeFileSync(path, content);
  made.push(path);
  return path;
}
const cut = (path: string, status = "Command exited with code 2") =>
  `${lines(28001, 30000)}\n\n[Showing lines 28001-30000 of 30000. Full output: ${path}]\n\n${status}`;

describe("fullOutputFile", () => {
  test("pi 0.x's thrown error text: the file it names, with the status line", () => {
    const path = piFile(`${lines(1, 30000)}\n`);
    expect(fullOutputFile("bash", cut(path), {}, true)).toEqual({
      path,
      bytes: Buffer.byteLength(`${lines(1, 30000)}\n`),
      status: "Command exited with code 2",
    });
    expect(fullOutputFile("bash", cut(path, "Command timed out after 3 seconds"), {}, true)?.status).toBe(
      "Command timed out after 3 seconds",
    );
  });

  test("details.fullOutputPath (a result pi returned); the status only when it is an error", () => {
    const path = piFile(lines(1, 30000));
    const text = `${lines(28001, 30000)}\n\n[Showing lines 28001-30000 of 30000. Full output: ${path}]\n\nCommand exited with code 1`;
    expect(fullOutputFile("bash", text, { fullOutputPath: path }, true)?.status).toBe("Command exited with code 1");
    expect(fullOutputFile("bash", lines(28001, 30000), { fullOutputPath: path }, false)?.status).toBeNull();
  });

  test("a trailer the command printed itself names no file we read", () => {
    // The file is where pi would put one and named like one, but it does not end with the text shown.
    const secret = piFile("SECRET=do-not-store\n");
    expect(fullOutputFile("bash", cut(secret), {}, true)).toBeNull();
    // A file elsewhere, or named otherwise, is never read.
    const elsewhere = join(tempDir("elsewhere-"), "pi-bash-0123456789abcdef.log");
    writeFileSync(elsewhere, `${lines(1, 30000)}\n`);
    expect(fullOutputFile("bash", cut(elsewhere), {}, true)).toBeNull();
    const named = join(tmpdir(), "notes.log");
    expect(fullOutputFile("bash", cut(named), {}, true)).toBeNull();
    // Not bash, or no status line after the trailer (the trailer is in the middle of the output).
    const real = piFile(`${lines(1, 30000)}\n`);
    expect(fullOutputFile("grep", cut(real), {}, true)).toBeNull();
    expect(fullOutputFile("bash", `${cut(real)}\nmore output`, {}, true)).toBeNull();
  });
});
