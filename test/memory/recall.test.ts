/**
 * Recall that generalises: other forms of a word (deploy / deployment, logger / logging,
 * rebuild / rebuilt), identifiers split and whole, statements above chatter, repeated chatter
 * shown once, recency only between near ties, and a hit that holds too little of the question
 * left out. Each sentence here is this test's own; nothing in src/ knows these words.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { camelParts, extraTerms, joinedForm } from "../../src/memory/identifiers.ts";
import { wordForms } from "../../src/memory/morphology.ts";
import { porterStem } from "../../src/memory/stem.ts";
import { isStopWord } from "../../src/memory/stopwords.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: ReturnType<typeof testMemory>, query: string, limit = 5) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit }, "search")).hits;

const stems = (w: string) => wordForms(w).map((f) => f.stem);

describe("word forms", () => {
  test("inflections, derived words and irregular verbs reach the index's stems", () => {
    expect(stems("deploy")).toContain(porterStem("deployment"));
    expect(stems("deployment")).toContain(porterStem("deploys"));
    expect(stems("logger")).toContain(porterStem("logging"));
    expect(stems("logging")).toContain(porterStem("logger"));
    expect(stems("rebuild")).toContain(porterStem("rebuilt"));
    expect(stems("rebuilt")).toContain(porterStem("rebuild"));
    expect(stems("wrote")).toContain(porterStem("written"));
    // A word's own stem comes first and weighs most; derived forms weigh less.
    expect(wordForms("deploy")[0]).toEqual({ word: "deploy", stem: porterStem("deploy"), weight: 1 });
    expect(wordForms("deploy").find((f) => f.stem === porterStem("deployment"))!.weight).toBeLessThan(1);
    // Numbers and short words are only themselves.
    expect(wordForms("8080")).toHaveLength(1);
    expect(wordForms("id")).toHaveLength(1);
  });

  test("identifiers: camelCase parts and the joined form of snake and kebab names", () => {
    expect(camelParts("rateLimiter")).toEqual(["rate", "limiter"]);
    expect(camelParts("HTTPServer")).toEqual(["http", "server"]);
    expect(camelParts("lowercase")).toEqual([]);
    expect(joinedForm("rate_limiter")).toBe("ratelimiter");
    expect(joinedForm("user-events")).toBe("userevents");
    expect(joinedForm("2024-01-05")).toBeNull();
    expect(extraTerms("call rateLimiter.check() before the queue_worker runs")?.split(" ")).toEqual(
      expect.arrayContaining(["rate", "limiter", "queueworker"]),
    );
    expect(extraTerms("plain words only")).toBeNull();
  });

  test("the stop list is SMART's, apostrophes split as the index splits them", () => {
    for (const w of ["the", "which", "would", "don", "use", "however"]) expect(isStopWord(w)).toBe(true);
    for (const w of ["deploy", "logger", "port", "database"]) expect(isStopWord(w)).toBe(false);
  });
});

describe("search", () => {
  test("a question in other forms of the statement's words finds it", async () => {
    const m = testMemory();
    const log = await m.add("note", "Logging goes through winston with a JSON transport to the collector.");
    const dep = await m.add("decision", "Deployment of the gateway happens from the release pipeline after a tag.");
    const idx = await m.add("note", "The spelling index is rebuilt every night by a cron job on box seven.");
    for (let i = 0; i < 30; i++) await m.add("prompt", `Please look at ticket ${i} about the checkout page layout.`);
    expect((await search(m, "which logger do we use?"))[0]!.id).toBe(log);
    expect((await search(m, "how do we deploy the gateway?"))[0]!.id).toBe(dep);
    expect((await search(m, "how do I rebuild the spelling index?"))[0]!.id).toBe(idx);
  });

  test("identifiers are found split and whole", async () => {
    const m = testMemory();
    const camel = await m.add("note", "Throttling lives in rateLimiter, configured per route.");
    const snake = await m.add("note", "The nightly_compactor job trims old segments.");
    expect((await search(m, "where is the rate limiter?"))[0]!.id).toBe(camel);
    expect((await search(m, "what does nightlyCompactor do?"))[0]!.id).toBe(snake);
    expect((await search(m, "nightly compactor"))[0]!.id).toBe(snake);
  });

  test("a statement ranks above chatter with the same words, and repeated chatter is one hit", async () => {
    const m = testMemory();
    for (let i = 0; i < 25; i++) {
      await m.add("command", "command failed (exit 1): make migrate-orders");
      await m.add("prompt", "can you rerun the orders migration?");
    }
    await m.add("files", "edited: db/migrations/orders.sql");
    const fact = await m.add("decision", "Orders migrations run only from the ops box, never from laptops.");
    const hits = await search(m, "where do the orders migrations run from?");
    expect(hits[0]!.id).toBe(fact);
    const texts = hits.map((h) => h.text);
    expect(texts.filter((t) => t.includes("make migrate-orders")).length).toBeLessThanOrEqual(1);
    expect(texts.filter((t) => t.includes("rerun the orders migration")).length).toBeLessThanOrEqual(1);
  });

  test("recency breaks ties, it does not outrank a better match", async () => {
    const m = testMemory();
    const old = await m.add("note", "The invoice exporter writes CSV files to the finance share every Monday.");
    m.clock.t += 200 * 86_400_000;
    const recent = await m.add("note", "Someone asked about the exporter again.");
    const hits = await search(m, "where does the invoice exporter write CSV files?");
    expect(hits[0]!.id).toBe(old);
    expect(hits.map((h) => h.id)).not.toContain(undefined);
    expect(hits.findIndex((h) => h.id === recent)).not.toBe(0);
  });

  test("a hit holding too little of the question is left out", async () => {
    const m = testMemory();
    await m.add("note", "The storefront renders product pages on the server.");
    await m.add("note", "Sessions expire after two hours of inactivity.");
    // Nothing was said about fonts or typefaces: the storefront statement alone does not answer.
    expect(await search(m, "which typeface and font sizes does the storefront use?")).toEqual([]);
    expect((await search(m, "how does the storefront render product pages?")).length).toBeGreaterThan(0);
  });
});

describe("corrections by shared subject", () => {
  test("a correction that shares none of the question's words still comes first, the old statement marked", async () => {
    const m = testMemory();
    const old = await m.add("note", "Logging uses bunyan with a rotating file stream.");
    for (let i = 0; i < 10; i++) await m.add("answer", `Fixed item ${i} in the cart module.`);
    const fix = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "we moved off bunyan, pino replaced it last sprint" },
      "add",
    );
    expect(fix.kind).toBe("correction");
    expect(fix.supersedes).toEqual([old]);
    const hits = await search(m, "which logger do we use?");
    expect(hits[0]!.id).toBe(fix.id);
    expect(hits.find((h) => h.id === old)?.supersededBy).toBe(fix.id);
  });

  test("an ordinary prompt that corrects is recognised by its cues, not by any one project's words", async () => {
    const m = testMemory();
    const old = await m.add("prompt", "The image thumbnails are generated by sharp in the upload worker.");
    const fix = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "actually we switched the thumbnails from sharp to libvips directly" },
      "add",
    );
    expect(fix).toMatchObject({ kind: "correction", supersedes: [old] });
    const question = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "did we switch anything in the upload worker?" },
      "add",
    );
    expect(question.kind).toBe("prompt");
  });

  test("a correction about one part of a statement leaves the rest of it current", async () => {
    const m = testMemory();
    const old = await m.add("note", "Access tokens expire after 8h, renewed with `acme auth renew`.");
    const fix = await m.add("note", "auth: access token lifetime cut to 2h after the audit");
    const lifetime = await search(m, "how long do access tokens last before they expire?");
    expect(lifetime[0]!.id).toBe(fix);
    expect(lifetime.find((h) => h.id === old)?.supersededBy).toBe(fix);
    const renew = await search(m, "how do I renew my token?");
    expect(renew.find((h) => h.id === old)).toMatchObject({ supersededBy: null });
  });

  test("a correction about another subject or another attribute replaces nothing", async () => {
    const m = testMemory();
    const a = await m.add("note", "The ledger service stores its data in postgres.");
    const b = await m.add("note", "The mailer service is deployed with nomad.");
    const c = await m.add("note", "The staging ledger service listens on port 7100.");
    const fix = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "no, the mailer service stores its data in sqlite, not postgres" },
      "add",
    );
    expect(fix.kind).toBe("correction");
    expect(fix.supersedes).not.toContain(a);
    expect(fix.supersedes).not.toContain(b);
    const port = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "no, the production ledger service listens on 7300, not 7200" },
      "add",
    );
    expect(port.supersedes).not.toContain(c);
  });
});

describe("what a search leaves out, and what it keeps", () => {
  test("words the memory never saw do not sink the statement that holds the rest", async () => {
    const m = testMemory();
    const note = await m.add("note", "Container images are scanned with trivy before every push.");
    // In a memory of some size (here 200 events), a word in one event is rare.
    for (let i = 0; i < 200; i++) await m.add("answer", `Pushed branch feature-${i} and the checks went green.`);
    // Two of three words unknown: still a paraphrase (more than two of every three unknown is a
    // question about something never said, search.ts MOSTLY_UNKNOWN: weak-evidence.test.ts).
    const hits = await search(m, "trivy or grype for audits");
    expect(hits[0]!.id).toBe(note);
  });

  test("a query mostly unknown to the memory finds nothing through one common word", async () => {
    const m = testMemory();
    for (let i = 0; i < 150; i++) await m.add("answer", `Built ${i + 2} images for branch feature-${i}.`);
    await m.add("note", "Container images are scanned with trivy before every push.");
    expect(await search(m, "registry mirror region images")).toEqual([]);
    // The same word with a rare one beside it still finds it.
    expect((await search(m, "registry mirror trivy images"))[0]!.text).toContain("trivy");
  });
});

describe("corrections in everyday wording", () => {
  test("a chatty statement whose first words are not its subject is replaced by the correction about it", async () => {
    const m = testMemory();
    const old = await m.add("prompt", "btw merges to main need 2 approvals, one of them must be Dana. update the codeowners file.");
    const fix = await m.ok(
      {
        type: "add",
        project: PROJECT,
        kind: "correction",
        text: "Dana moved to the infra team. Lee is the required approver now, fix codeowners.",
      },
      "add",
    );
    expect(fix.supersedes).toContain(old);
    const hits = await search(m, "who approves merges to main?");
    expect(hits[0]!.id).toBe(fix.id);
    expect(hits.find((h) => h.id === old)?.supersededBy).toBe(fix.id);
  });

  test("a stored correction replaces the assistant's answer it contradicts", async () => {
    const m = testMemory();
    const old = await m.add(
      "answer",
      "Merges deploy to staging by themselves; prod is a manual promote in the console after the smoke tests.",
    );
    const fix = await m.ok(
      {
        type: "add",
        project: PROJECT,
        kind: "correction",
        text: "no more clicking promote in the console for prod — the canary promotes it automatically now.",
      },
      "add",
    );
    expect(fix.supersedes).toContain(old);
  });
});
