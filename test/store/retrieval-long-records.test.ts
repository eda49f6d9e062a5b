/**
 * Records longer than a hit shows whole (more than 40 lines), on outputs written for these tests:
 * the field the query asks for and the name of its record are far apart in it, and every other
 * record has the same field.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

/** Pretty-printed JSON: a list of volumes of 60 fields each, the name in the middle, `capacity` near the end. */
function volumesJson(): string {
  const names = ["vol-amber", "vol-birch", "vol-cedar", "vol-delta", "vol-ember", "vol-fjord"];
  const volumes = names.map((name, k) => {
    const o: Record<string, string | number | boolean | null> = {};
    for (let i = 0; i < 30; i++) o[`attr${String.fromCharCode(97 + (i % 26))}${i}`] = i % 3 === 0 ? null : k * 100 + i;
    o.label = name;
    o.device = `/dev/nbd${k}`;
    for (let i = 30; i < 56; i++) o[`attr${String.fromCharCode(97 + (i % 26))}${i}`] = i % 2 === 0;
    o.capacity = `${(k + 1) * 64}G`;
    o.state = "online";
    return o;
  });
  return JSON.stringify({ volumes }, null, 3);
}

describe("a field far from its record's name", () => {
  test("in pretty JSON, the field of the object the name is in", async () => {
    const text = volumesJson();
    const { store, source } = await stored(text);
    const rows = text.split("\n");
    const name = rows.findIndex((l) => l.includes('"vol-delta"'));
    const answer = rows.findIndex((l, i) => i > name && l.includes('"capacity"')) + 1;
    expect(rows[answer - 1]).toContain('"256G"');
    expect(shows(top3(store, source, "capacity of vol-delta"), answer, '"capacity": "256G"')).toBe(true);
  });

  test("in a log of one block, the counter many lines under the line that names the table", async () => {
    // A maintenance log without blank lines (one block of 104 lines): per table the same lines.
    const tables = ["ledger_entries", "audit_trail", "session_tokens", "shipment_events"];
    const lines: string[] = [];
    tables.forEach((t, k) => {
      lines.push(`NOTE: compacting "${t}"`, `NOTE: ${t}: lock acquired`);
      for (let i = 0; i < 22; i++) lines.push(`pass ${i}: ${1000 + i * k} pages read, ${i} reused`);
      lines.push(`rows: ${700 + k * 1111} purged, ${90000 - k} kept`, `elapsed: ${k + 1}.${k}s`);
    });
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = lines.indexOf("rows: 2922 purged, 89998 kept") + 1;
    expect(answer).toBeGreaterThan(0);
    expect(shows(top3(store, source, "rows purged from session_tokens"), answer, "2922 purged")).toBe(true);
  });
});
