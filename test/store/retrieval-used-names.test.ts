/**
 * Search on an output written for this test (none comes from a benchmark set): a configuration
 * dump where the best place uses a name in its value (`relay_servers = $upstreamgroups`) and the
 * row that defines the name (`upstreamgroups = ...`) is far from it and lacks the query's other word.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("a name used in a value", () => {
  test("the row defining it ranks right after the place that uses it", async () => {
    // `name = value` settings, values naming other settings with `$`; several settings end in `_servers`.
    const lines: string[] = [];
    const words = ["alpha", "bravo", "cargo", "delta", "ember", "flint", "gauge", "harbor", "index", "jolly"];
    for (let i = 0; i < 400; i++) {
      const w = words[i % 10]!;
      const v = words[(i * 3) % 10]!;
      if (i === 300) lines.push("upstreamgroups = edge-a.example.test, edge-b.example.test, $myorigin");
      if (i === 120) lines.push("relay_servers = $upstreamgroups $relay_maps");
      if (i % 45 === 7) lines.push(`${w}_maps_${i} = $${v}_limit $upstreamgroups $${w}_servers_pool`);
      else if (i % 9 === 4) lines.push(`${w}_servers_${i} = $${v}_${w}`);
      else lines.push(`${w}_${v}_${i} = ${i % 3 === 0 ? `$default_${w}_${v}` : String(i * 13)}`);
    }
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = lines.findIndex((l) => l.startsWith("upstreamgroups =")) + 1;
    const hits = top3(store, source, "upstreamgroups servers");
    expect(shows(hits.slice(0, 2), answer, "upstreamgroups = edge-a.example.test")).toBe(true);
  });
});
