/**
 * On an output written for this test (no benchmark set's): a word that starts a token
 * (`timeout@@LIBX_1.0`) names what the token is; the same word after a joiner inside a longer
 * name (`__set_timeout`, `x_timeout_ms`) is a part of another name, and weighs less.
 */
import { afterAll, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

test("the token a word starts comes before the longer names it is inside", async () => {
  // `nm -A` style: every line starts with the object's path, so no name is near a line's start.
  const lib = "/opt/toolchains/x86_64-unknown-linux-gnu/sysroot/usr/lib/x86_64-linux-gnu/libx.so.6";
  const addr = (i: number) => (0x1000 + i * 0x40).toString(16).padStart(16, "0");
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const inner = i < 200 && i % 40 === 7 ? `x_timeout_${i}` : i < 200 && i % 40 === 27 ? `__set_timeout_ms_${i}` : "";
    lines.push(`${lib}:${addr(i)} T ${inner || `sym_${i}_entry`}@@LIBX_1.0`);
  }
  lines.splice(260, 0, `${lib}:${addr(999)} B timeout@@LIBX_PRIVATE`);
  const { store, source } = await stored(lines.join("\n"));
  const hits = top3(store, source, "timeout");
  expect(hits[0]!.lines.filter((l) => l.match).map((l) => l.line)).toEqual([261]);
});
