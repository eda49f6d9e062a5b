import { describe, expect, test } from "bun:test";
import { REFRESH_ENTRY, replay } from "../../src/readcache/replay.ts";

let n = 0;
const read = (path: string, hash: string, trusted: [number, number][]) => ({
  type: "message",
  id: `e${++n}`,
  message: { role: "toolResult", toolName: "read", details: { readcache: { v: 1, path, hash, lines: 100, mode: "full", trusted } } },
});
const other = () => ({ type: "message", id: `e${++n}`, message: { role: "assistant" } });
const refresh = (path: string, range?: [number, number]) => ({
  type: "custom",
  id: `e${++n}`,
  customType: REFRESH_ENTRY,
  data: { path, range },
});

describe("replay", () => {
  test("rebuilds trust from the branch's read results", () => {
    const { trust, records } = replay([other(), read("/a", "h", [[1, 50]]), other(), read("/a", "h", [[40, 100]])]);
    expect(trust.versions("/a")[0]!.ranges).toEqual([[1, 100]]);
    expect(records.length).toBe(2);
  });

  test("a compaction drops trust from results it summarised away, keeps the ones after its first kept entry", () => {
    const early = read("/a", "h", [[1, 100]]);
    const kept = read("/b", "h2", [[1, 10]]);
    const entries = [
      early,
      other(),
      kept,
      read("/c", "h3", [[1, 5]]),
      { type: "compaction", id: "c1", firstKeptEntryId: kept.id, summary: "..." },
    ];
    const { trust } = replay(entries);
    expect(trust.versions("/a")).toEqual([]);
    expect(trust.versions("/b")[0]!.ranges).toEqual([[1, 10]]);
    expect(trust.versions("/c")[0]!.ranges).toEqual([[1, 5]]);
    // Reads after the compaction count again.
    const after = replay([...entries, read("/a", "h", [[1, 20]])]);
    expect(after.trust.versions("/a")[0]!.ranges).toEqual([[1, 20]]);
  });

  test("a branch where the file was never read trusts nothing (tree navigation hands replay another branch)", () => {
    const common = [other(), read("/x", "h", [[1, 10]])];
    const branchA = [...common, read("/a", "h", [[1, 100]])];
    const branchB = [...common, other()];
    expect(replay(branchA).trust.versions("/a").length).toBe(1);
    expect(replay(branchB).trust.versions("/a")).toEqual([]);
  });

  test("refresh entries invalidate a path or a range", () => {
    const { trust } = replay([read("/a", "h", [[1, 100]]), refresh("/a", [40, 60]), read("/b", "h", [[1, 9]]), refresh("/b")]);
    expect(trust.versions("/a")[0]!.ranges).toEqual([
      [1, 39],
      [61, 100],
    ]);
    expect(trust.versions("/b")).toEqual([]);
  });

  test("results without read-cache details are ignored", () => {
    const { trust } = replay(
      [
        { type: "message", message: { role: "toolResult", toolName: "read", details: { truncation: {} } } },
        { type: "weird" },
        null as unknown as object,
      ].filter(Boolean),
    );
    expect(trust.files()).toBe(0);
  });
});
