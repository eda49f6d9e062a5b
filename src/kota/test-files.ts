/** Which files are tests, and where a file's conventional test would sit. */
import { posix } from "node:path";

const TEST_FILE = /(?:^|\/)(?:__tests__|__test__|tests?|spec|e2e)\/|[._-](?:test|spec|e2e)\.[cm]?[jt]sx?$/;

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

/** Paths where a test of `path` would conventionally live (`a.ts` -> `a.test.ts`, `__tests__/a.spec.ts`, ...). */
export function conventionalTests(path: string): string[] {
  const dir = posix.dirname(path);
  const ext = posix.extname(path);
  const stem = posix.basename(path, ext);
  const exts = [ext, ".ts", ".tsx", ".js", ".mts"].filter((e, i, a) => a.indexOf(e) === i);
  const out: string[] = [];
  for (const e of exts) {
    for (const kind of ["test", "spec"]) {
      const name = `${stem}.${kind}${e}`;
      out.push(posix.join(dir, name), posix.join(dir, "__tests__", name), posix.join(dir, "..", "__tests__", name));
      out.push(posix.join(dir, "test", name), posix.join(dir, "tests", name));
    }
  }
  if (stem === "index") out.push(...conventionalTests(`${dir}${ext}`).filter((p) => !p.startsWith("..")));
  return out.filter((p) => !p.startsWith(".."));
}
