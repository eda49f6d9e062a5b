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

describe("replay with pruning", () => {
  const withId = (e: ReturnType<typeof read>, id: string) => ({ ...e, message: { ...e.message, toolCallId: id } });
  const marker = (path: string, hash: string, mode: string, trusted: [number, number][]) => ({
    type: "message",
    id: `e${++n}`,
    message: { role: "toolResult", toolName: "read", details: { readcache: { v: 1, path, hash, lines: 100, mode, trusted } } },
  });

  test("a pruned read is not in view: its lines are not trusted", () => {
    const entries = [withId(read("/a", "h", [[1, 100]]), "c1"), withId(read("/b", "h", [[1, 10]]), "c2")];
    const { trust, records } = replay(entries, new Set(["c1"]));
    expect(trust.versions("/a")).toEqual([]);
    expect(trust.versions("/b").length).toBe(1);
    expect(records.length).toBe(2); // still counted as served
  });

  test("an unchanged marker whose full read was pruned restores nothing; with its read in view it counts", () => {
    const entries = [withId(read("/a", "h", [[1, 100]]), "c1"), marker("/a", "h", "unchanged", [[1, 100]])];
    expect(replay(entries, new Set(["c1"])).trust.versions("/a")).toEqual([]);
    expect(replay(entries).trust.versions("/a")[0]!.ranges).toEqual([[1, 100]]);
  });

  test("a diff whose base read was summarised away restores nothing", () => {
    const entries = [
      read("/a", "h1", [[1, 100]]),
      other(),
      { type: "compaction", id: `e${++n}`, firstKeptEntryId: "none" },
      marker("/a", "h2", "diff", [[1, 100]]),
    ];
    expect(replay(entries).trust.versions("/a")).toEqual([]);
  });
});
