/**
 * A name written as an initialism in one statement and spelled out in another (initialisms.ts)
 * is a shared subject when a correction is linked to what it replaces (supersede.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { initialismsOf, spells } from "../../src/memory/initialisms.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("initialisms", () => {
  test("upper-case short words are initialisms; identifiers and long words are not", () => {
    expect(initialismsOf("the SLA says 99.9, MQTT broker via AWS_REGION, see NOTICE")).toEqual(["sla", "mqtt"]);
    expect(initialismsOf("PRs need review")).toEqual(["pr"]);
  });

  test("a run of words spells an initialism, with or without its small words", () => {
    expect(spells("the service level agreement is 99.9", "sla")).toBe(true);
    expect(spells("keys have a time to live of 30s", "ttl")).toBe(true);
    expect(spells("the service was late again", "sla")).toBe(false);
    expect(spells("s l a", "sla")).toBe(false);
  });
});

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you run import batch ${i} again, it timed out on the ops box`, "s1");
    await m.add("answer", `Batch ${i} went through on the second try.`, "s1");
  }
}

describe("initialisms in corrections", () => {
  test("a correction naming the old tool by its initials replaces the statement that spelled it out", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const old = await m.add("prompt", "after every import we run message queue telemetry probes from the ops box", "s1");
    await chatter(m, 15);
    const added = await m.ok(
      {
        type: "add",
        project: PROJECT,
        session: "s2",
        kind: "correction",
        text: "MQT was too noisy, heartbeat checks run after every import now",
      },
      "add",
    );
    expect(added.supersedes).toContain(old);
  });
});
