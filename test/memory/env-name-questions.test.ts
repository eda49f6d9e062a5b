/**
 * "Which env var ..." is answered by a text naming an environment variable (env-name.ts): a name in
 * capitals with underscores said with a quarter of the question's words passes, as a place does
 * for "where". Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksEnvName, namesEnvName } from "../../src/memory/env-name.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

describe("an environment variable's name", () => {
  test("capitals with an underscore between parts name one; a word in capitals or a snake_case name does not", () => {
    for (const t of ["set SMTP_RELAY_HOST first", "export S3_BUCKET=raw", "KEY_2 is unset"]) expect(namesEnvName(t)).toBe(true);
    for (const t of ["the API is DOWN", "relay_host in settings.py", "_PRIVATE", "MAX_"]) expect(namesEnvName(t)).toBe(false);
  });

  test("'env var', 'environment variable' ask for one", () => {
    expect(asksEnvName("which env var points the mailer at the relay?")).toBe(true);
    expect(asksEnvName("what environment variables does the worker read")).toBe(true);
    expect(asksEnvName("which relay does the mailer use")).toBe(false);
  });
});

async function mailerHistory(): Promise<TestMemory> {
  const m = testMemory();
  for (let i = 0; i < 40; i++)
    await m.add(
      "prompt",
      i % 2 === 0 ? `the relay on host ${i} rejected the digest, can you retry it` : `the theme colour on page ${i} is off`,
      "s1",
    );
  await m.add("prompt", "the mailer renders the footer twice", "s1");
  await m.add("answer", "Fixed: the footer partial was included by the mailer layout too.", "s1");
  return m;
}

const ERROR = "ConfigError: RELAY_HOST is not set (config/app.ts:12)";

describe("which env var", () => {
  test("an error naming the variable answers, holding only a part of the question's words", async () => {
    const m = await mailerHistory();
    const error = await m.add("error", ERROR, "s2");
    expect(await search(m, "which env var gives the mailer its relay host?")).toContain(error);
  });

  test("the same error does not answer another question in the same words", async () => {
    const m = await mailerHistory();
    const error = await m.add("error", ERROR, "s2");
    expect(await search(m, "which library gives the mailer its relay host?")).not.toContain(error);
  });
});
