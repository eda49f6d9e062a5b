import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { get } from "../../src/store/get.ts";
import { captureIndexed, cleanupTempDirs, noisyLog, testStore } from "../helpers.ts";

afterAll(cleanupTempDirs);

describe("capture", () => {
  test("text under both thresholds passes through untouched and stores nothing", async () => {
    const store = testStore();
    const text = "line\n".repeat(300);
    const r = await captureIndexed(store, { text, tool: "bash" });
    expect(r.stored).toBe(false);
    if (!r.stored) expect(r.text).toBe(text);
    expect(store.db.query("SELECT count(*) AS n FROM sources").get()).toEqual({ n: 0 });
  });

  test("over the line or byte threshold it is stored and a receipt comes back", async () => {
    const store = testStore();
    const byLines = await captureIndexed(store, { text: "x\n".repeat(301), tool: "bash" });
    const byBytes = await captureIndexed(store, { text: "y".repeat(24 * 1024 + 1), tool: "bash" });
    expect(byLines.stored && byLines.receipt).toContain("300-line threshold");
    expect(byBytes.stored && byBytes.receipt).toContain("24.0 KiB threshold");
  });

  test("per-tool rules: disabled tools pass through, per-tool thresholds apply, --force stores", async () => {
    const store = testStore((c) => {
      c.capture.tools = { read: { enabled: false }, grep: { thresholdLines: 10 } };
    });
    const big = "z\n".repeat(500);
    expect((await captureIndexed(store, { text: big, tool: "read" })).stored).toBe(false);
    expect((await captureIndexed(store, { text: "g\n".repeat(11), tool: "grep" })).stored).toBe(true);
    expect((await captureIndexed(store, { text: "tiny", tool: "bash", force: true })).stored).toBe(true);
  });

  test("the stored text, its chunks and the receipt", async () => {
    const store = testStore();
    const log = noisyLog(1400, 7, { line: 700, text: "ERROR build failed: cannot find module 'left-pad'" });
    const r = await captureIndexed(store, { text: log, tool: "bash", session: "s1", project: "/tmp/p", label: "npm run build" });
    if (!r.stored) throw new Error("expected a capture");
    expect(r.lines).toBe(1400);
    expect(r.bytes).toBe(Buffer.byteLength(log));
    expect(r.chunks).toBeGreaterThan(10);
    // Tokens are counted after the receipt (real tokenizer), then stored with the text.
    expect(store.db.query<{ tokens: number }, []>("SELECT tokens FROM blobs").get()!.tokens).toBeGreaterThan(1000);
    // The receipt: id, size, the next calls, and the error line from the middle.
    expect(Buffer.byteLength(r.receipt)).toBeLessThanOrEqual(2048);
    expect(r.receipt).toContain(r.sourceId);
    expect(r.receipt).toContain("1,400 lines");
    expect(r.receipt).toContain(`pi-sidecar search "<distinctive words>" --source ${r.sourceId}`);
    expect(r.receipt).toContain("700  ERROR build failed");
    expect(r.receipt).toMatch(/get ctx_\w+ --lines 680-720/);
    // The chunks join back to the text byte for byte.
    const chunks = store.db.query<{ content: string }, []>("SELECT content FROM chunks ORDER BY ordinal").all();
    expect(chunks.map((c) => c.content).join("")).toBe(log);
  });

  test("every capture gets its own id; identical text in a project is stored once", async () => {
    const store = testStore();
    const text = noisyLog(400, 1);
    const a = await captureIndexed(store, { text, tool: "bash", project: "/p" });
    const b = await captureIndexed(store, { text, tool: "bash", project: "/p" });
    const c = await captureIndexed(store, { text, tool: "bash", project: "/other" });
    if (!a.stored || !b.stored || !c.stored) throw new Error("expected captures");
    expect(new Set([a.sourceId, b.sourceId, c.sourceId]).size).toBe(3);
    expect(b.duplicateOf).toBe(a.sourceId);
    expect(b.receipt).toContain(`identical to ${a.sourceId}`);
    expect(c.duplicateOf).toBeNull();
    expect(store.db.query("SELECT count(*) AS n FROM blobs").get()).toEqual({ n: 2 });
    // Both handles still fetch the text.
    for (const id of [a.sourceId, b.sourceId]) {
      const g = get(store, { source: id, lines: { from: 1, to: 3 } });
      expect(g.ok && g.text).toBe(`${text.split("\n").slice(0, 3).join("\n")}\n`);
    }
  });

  test("secrets never reach the database file", async () => {
    const store = testStore();
    const secret = ["AKIA", "Z7Q2", "X9R4T6Y8U0W3"].join("");
    const jwt = ["eyJhbGciOiJIUzI1NiJ9", "eyJzdWIiOiJ1c2VyLTQyIn0", "c2lnbmF0dXJlLXNpZ25hdHVyZQ"].join(".");
    const text = `${noisyLog(500, 3)}export AWS_ACCESS_KEY_ID=${secret}\ncurl -H "Authorization: Bearer ${jwt}"\n`;
    const r = await captureIndexed(store, { text, tool: "bash" });
    expect(r.stored && r.redactions).toBeGreaterThanOrEqual(2);
    store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    store.db.close();
    for (const file of [store.path, `${store.path}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      expect(bytes.includes(secret)).toBe(false);
      expect(bytes.includes(jwt.split(".")[1]!)).toBe(false);
    }
  });
});
