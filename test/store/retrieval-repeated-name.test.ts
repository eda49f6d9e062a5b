/**
 * Near-identical rows that all name a thing in one column tie; the row that names it again as a
 * whole entry (its own file, `/usr/bin/pktool`, not `/usr/bin/pktool_agent`) is about it, and
 * wins the tie (score.ts). The output is made up for the test.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** A table of binaries: type, mode, run path, binding, file; a few use pktool's private run path. */
function binaries(): string {
  const rows = ["  TYPE   PERM RPATH              BIND FILE"];
  const own = new Map([
    [1000, "/usr/bin/pktool"],
    [1100, "/usr/sbin/pktool_agent"],
    [1120, "/usr/sbin/pktool_relay"],
    [1300, "/usr/bin/pktoolctl"],
    [1320, "/usr/bin/pktool_dump"],
    [700, "/usr/libexec/pktool_probe"],
    [720, "/usr/libexec/pktool_sync"],
    [900, "/usr/sbin/pktool_keys"],
    [920, "/usr/sbin/pktool_stat"],
  ]);
  for (let i = 1; i <= 1400; i++) {
    const file = own.get(i);
    rows.push(file ? `ET_DYN 0755 /usr/lib/pktool     NOW ${file}` : `ET_DYN 0755 -                  NOW /usr/bin/prog${i}`);
  }
  return `${rows.join("\n")}\n`;
}

describe("ties between rows that name the same thing", () => {
  test("the row whose own entry is the thing asked about shows", async () => {
    const text = binaries();
    const { store, source } = await stored(text);
    expect(shows(top3(store, source, "pktool rpath"), 1001, "/usr/bin/pktool")).toBe(true);
  });
});
