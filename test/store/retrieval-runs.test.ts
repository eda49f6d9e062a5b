/**
 * Search on an output written for this test (none comes from a benchmark set): a run of
 * near-identical rows (one metric per queue) where a few rows hold the value asked for; the hit
 * shows those rows, not only the run's first and last ones.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { shows, stored, top3 } from "./retrieval-helpers.ts";

afterAll(cleanupTempDirs);

describe("a run of near-identical rows", () => {
  test("shows the rows with the value asked for, wherever they are in the run", async () => {
    // Exporter metrics: a help line, then one gauge per queue; a few queues report 7, the rest 1.
    const names = ["amber", "basil", "cedar", "dune", "elm", "fern", "gale", "heath", "iris", "juniper"];
    const lines = ["# HELP queue_ready_state Whether a queue is ready.", "# TYPE queue_ready_state gauge"];
    const sevens = new Set([5, 30, 55, 70, 95]);
    for (let i = 0; i < 120; i++) {
      lines.push(`queue_ready_state{queue="${names[i % 10]}-${names[Math.floor(i / 10) % 10]}"} ${sevens.has(i) ? 7 : 1}`);
    }
    lines.push("# HELP process_open_fds Number of open file descriptors.", "# TYPE process_open_fds gauge", "process_open_fds 31");
    const text = lines.join("\n");
    const { store, source } = await stored(text);
    const answer = lines.indexOf('queue_ready_state{queue="amber-dune"} 7') + 1;
    // "stuck" is nowhere: no row has the whole query, every row of the run is a place.
    expect(shows(top3(store, source, "queues stuck in ready state 7"), answer, 'queue="amber-dune"} 7')).toBe(true);
  });
});
