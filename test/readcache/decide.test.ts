import { afterAll, describe, expect, test } from "bun:test";
import { contentHash, type DecideInput, decide, linesOf } from "../../src/readcache/decide.ts";
import { createObjectStore } from "../../src/readcache/objects.ts";
import { addRange, covers, removeRange } from "../../src/readcache/ranges.ts";
import { isSensitivePath } from "../../src/readcache/sensitive.ts";
import { createTrust, type ReadRecord } from "../../src/readcache/trust.ts";
import { cleanupTempDirs, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

const file = (n: number, edit?: (i: number) => string | null) =>
  `${Array.from({ length: n }, (_, k) => edit?.(k + 1) ?? `line ${k + 1} of the file`).join("\n")}\n`;

/** One read through decide(), as the extension does it: trust is updated from the record. */
function reader() {
  const store = testStore();
  const objects = createObjectStore(store.db, store.now);
  const trust = createTrust();
  return (text: string, shown: [number, number] | null, wholeFile = false) => {
    const input: DecideInput = {
      path: "/p/f.ts",
      text,
      shown,
      wholeFile,
      builtIn: shown ? linesOf(text, shown) : "",
      versions: trust.versions("/p/f.ts"),
    };
    const d = decide(input, objects);
    if (d.record.trusted.length > 0) objects.put(d.record.hash, text);
    trust.record(d.record);
    return d;
  };
}

describe("ranges", () => {
  test("merge, subtract, cover", () => {
    let r = addRange([], [1, 10]);
    r = addRange(r, [20, 30]);
    r = addRange(r, [11, 19]);
    expect(r).toEqual([[1, 30]]);
    expect(removeRange(r, [5, 6])).toEqual([
      [1, 4],
      [7, 30],
    ]);
    expect(covers(r, [3, 30])).toBe(true);
    expect(covers(removeRange(r, [5, 6]), [3, 8])).toBe(false);
  });
});

describe("decide", () => {
  test("a repeat of a whole-file read is unchanged; any edit makes it a diff", () => {
    const read = reader();
    const v1 = file(200);
    expect(read(v1, [1, 200], true).mode).toBe("full");
    const again = read(v1, [1, 200], true);
    expect(again.mode).toBe("unchanged");
    expect(again.text).toContain("[readcache: unchanged]");
    const v2 = file(200, (i) => (i === 120 ? "line 120 CHANGED" : null));
    const d = read(v2, [1, 200], true);
    expect(d.mode).toBe("diff");
    expect(d.text).toContain("1 line changed of 200");
    expect(d.text).toContain("+line 120 CHANGED");
    expect(d.record.trusted).toEqual([[1, 200]]);
    expect(read(v2, [1, 200], true).mode).toBe("unchanged");
  });

  test("never claims unseen lines are unchanged: a read cut at 2,000 lines trusts only those", () => {
    const read = reader();
    const big = file(3000);
    expect(read(big, [1, 2000]).mode).toBe("full");
    const rest = read(big, [2001, 3000]);
    expect(rest.mode).toBe("full");
    expect(read(big, [1500, 2500]).mode).toBe("unchanged");
    expect(read(big, [10, 20]).mode).toBe("unchanged");
  });

  test("range reads: inside a seen range unchanged, outside full", () => {
    const read = reader();
    const text = file(500);
    read(text, [100, 200]);
    expect(read(text, [120, 150]).mode).toBe("unchanged");
    expect(read(text, [190, 210]).mode).toBe("full");
    expect(read(text, [300, 310]).mode).toBe("full");
  });

  test("unchanged_range when the shown lines are identical but the file changed elsewhere", () => {
    const read = reader();
    read(file(300), [1, 100]);
    const edited = file(300, (i) => (i === 250 ? "far away edit" : null));
    const d = read(edited, [10, 50]);
    expect(d.mode).toBe("unchanged_range");
    expect(d.text).toContain("[readcache: unchanged_range]");
    const touched = file(300, (i) => (i === 30 ? "edit inside" : null));
    expect(read(touched, [10, 50]).mode).toBe("full");
  });

  test("the diff gate: a rewrite is sent in full, not as a patch", () => {
    const read = reader();
    read(file(100), [1, 100], true);
    const rewritten = `${Array.from({ length: 100 }, (_, i) => `completely different ${i}`).join("\n")}\n`;
    expect(read(rewritten, [1, 100], true).mode).toBe("full");
  });

  test("no diff without a full earlier read of the file", () => {
    const read = reader();
    read(file(100), [1, 60]);
    expect(
      read(
        file(100, (i) => (i === 80 ? "x" : null)),
        [1, 100],
        true,
      ).mode,
    ).toBe("full");
  });

  test("the hash is of the content", () => {
    expect(contentHash("a")).not.toBe(contentHash("b"));
    expect(linesOf("a\nb\nc\n", [2, 3])).toBe("b\nc\n");
    expect(linesOf("a\nb\nc", [3, 3])).toBe("c");
  });
});

describe("trust", () => {
  test("records accumulate per version; refresh invalidates a path or a range", () => {
    const t = createTrust();
    const rec = (hash: string, trusted: [number, number][]): ReadRecord => ({ v: 1, path: "/f", hash, lines: 100, mode: "full", trusted });
    t.record(rec("h1", [[1, 10]]));
    t.record(rec("h1", [[11, 20]]));
    expect(t.versions("/f")[0]!.ranges).toEqual([[1, 20]]);
    t.invalidate("/f", [5, 6]);
    expect(t.versions("/f")[0]!.ranges).toEqual([
      [1, 4],
      [7, 20],
    ]);
    t.invalidate("/f");
    expect(t.versions("/f")).toEqual([]);
  });
});

describe("sensitive paths", () => {
  test("secrets, keys and credentials are recognised; ordinary files are not", () => {
    for (const p of [
      "/r/.env",
      "/r/.env.local",
      "/r/cert.pem",
      "/r/server.key",
      "/r/a.p12",
      "/r/a.pfx",
      "/r/a.crt",
      "/r/a.der",
      "/r/a.pk8",
      "/h/.ssh/id_rsa",
      "/h/.ssh/id_ecdsa",
      "/h/.ssh/id_ed25519",
      "/h/.npmrc",
      "/h/.netrc",
      "/h/.pgpass",
      "/r/credentials.json",
      "/r/vault.kdbx",
    ]) {
      expect({ p, s: isSensitivePath(p) }).toEqual({ p, s: true });
    }
    for (const p of ["/r/src/env.ts", "/r/README.md", "/r/keyboard.ts", "/r/package.json"]) expect(isSensitivePath(p)).toBe(false);
    expect(isSensitivePath("/r/config/prod.yaml", ["config/*.yaml"])).toBe(false);
    expect(isSensitivePath("/r/config/prod.yaml", ["**/config/*.yaml"])).toBe(true);
    expect(isSensitivePath("/r/token.txt", ["token.*"])).toBe(true);
  });
});

describe("the engine's read cache decision", () => {
  test("a file with anything redaction would touch is never cached or stored", async () => {
    const { createEngine } = await import("../../src/engine.ts");
    const { testConfig, tempDir } = await import("../helpers.ts");
    const path = `${tempDir()}/s.db`;
    const engine = createEngine({ config: testConfig(path) });
    const secret = ["AKIA", "Z7Q2X9R4T6Y8U0W3"].join("");
    const text = `const key = "${secret}";\nconsole.log(key);\n`;
    const d = await engine.readcache({ path: "/p/aws.ts", text, shown: [1, 2], wholeFile: true, builtIn: text, versions: [] });
    expect(d.mode).toBe("full");
    expect(d.record.trusted).toEqual([]);
    await engine.close();
    expect(require("node:fs").readFileSync(path).includes(secret)).toBe(false);
  });
});
