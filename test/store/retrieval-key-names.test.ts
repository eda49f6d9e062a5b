/**
 * Search on outputs written for these tests (none comes from a benchmark set): the row whose key is
 * the query's words and nothing else (`disk_count`) over rows whose longer keys hold them
 * (`mirror_disk_count`); the key found at a row's start whatever follows it (`:`, `=`, aligned columns).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { keyOf } from "../../src/store/search/key-name.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("a key that is the query's words", () => {
  test("the pool's own count ranks over each mirror's count", async () => {
    // A storage pool's header, key and value in tab-aligned columns, then one block per mirror with prefixed keys.
    const lines = ["pool header: id=7, device=/dev/md3", "----------------------------------------"];
    const keys = [
      "pool_type\t\traid10",
      "pool_flags\t\t0x3",
      "stripe_width\t\t65536",
      "total_size\t\t4000000000",
      "disk_count\t\t8",
      "spare_count\t\t1",
    ];
    for (let i = 0; i < 24; i++) keys.splice(i % 5 === 0 ? 2 : keys.length, 0, `field_${i}\t\t${i * 11}`);
    lines.push(...keys, "generation\t\t12", "label\t\t\tarchive", "mirrors[12]:");
    for (let m = 0; m < 12; m++) {
      lines.push(`\tmirror ${m}:`);
      lines.push(
        `\t\tmirror_root:\t${5000 + m}\tgen: ${m}`,
        `\t\tmirror_journal:\t${7000 + m}\tgen: ${m}`,
        `\t\tmirror_total_size:\t${1000000 + m}`,
      );
      lines.push("\t\tmirror_disk_count:\t2", "\t\tmirror_state:\t\tclean", "\t\tmirror_errors:\t\t0", "");
    }
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = text.split("\n").indexOf("disk_count\t\t8") + 1;
    const hits = top3(store, source, "disk count of the whole volume");
    expect(shows(hits.slice(0, 1), answer, "disk_count\t\t8")).toBe(true);
  });
});

describe("the key a row defines", () => {
  test("before a colon, an equals sign, or an aligned column", () => {
    expect(keyOf("  max_conns: 40")).toEqual([2, 11]);
    expect(keyOf('"retry-limit": 3')).toEqual([1, 12]);
    expect(keyOf("--log-level=debug")).toEqual([2, 11]);
    expect(keyOf("cache.size\t\t512")).toEqual([0, 10]);
    expect(keyOf("queue_depth     64")).toEqual([0, 11]);
  });
  test("none in prose, a URL, or a comparison", () => {
    expect(keyOf("running out of memory")).toBeNull();
    expect(keyOf("http://example.test/a")).toBeNull();
    expect(keyOf("a == b")).toBeNull();
  });
});
