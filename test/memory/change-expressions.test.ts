/**
 * Corrections said in ordinary English change expressions, linked to the statement they replace
 * (supersede.ts, classify.ts): a duty handed on, a group that left a tool, "no more X", an
 * identifier named inside a longer one, an answer naming both the old and the new tool, a value
 * swapped under the same opening word, and the same slot ("S: X" and "moved S to Y"). And what
 * must stay unlinked: a state said to return, a verb both use in passing.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection, rejectedIn, statementOf, tokenKeys } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Everyday chatter so that not every word of the statements is rare. */
async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `could you rerun the checkout ${i} suite once more`, "s1");
    await m.add("answer", `Reran the checkout ${i} suite: green, the basket page renders in ${i + 30} ms.`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");
const addOk = (m: TestMemory, kind: "prompt" | "answer" | "decision" | "note" | "correction", text: string) =>
  m.ok({ type: "add", project: PROJECT, session: "s2", kind, text }, "add");

describe("corrections said in ordinary change expressions", () => {
  test("a duty handed on names who held it: the statement naming them is replaced", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("prompt", "chore(release): mobile builds ship only after a smoke run and sign-off from @marta", "s1");
    await chatter(m, 25);
    const fix = await addOk(
      m,
      "prompt",
      "chore(release): @marta handed mobile sign-off to @jonas from this sprint; smoke run still required",
    );
    expect(fix.supersedes).toEqual([old]);
    const found = await search(m, "who signs off mobile builds");
    expect(found.hits.findIndex((h) => h.id === fix.id)).toBeLessThan(found.hits.findIndex((h) => h.id === old));
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix.id);
  });

  test('"we left X" replaces an answer that chose X, though it shares no other word with it', async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("answer", "docs(readme): hosting section\n\nthe site is hosted on Netlify, a preview per branch", "s1");
    const other = await m.add("prompt", "chore(e2e): cypress runs against the local server on port 4100", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "prompt", "chore(infra): we left Netlify; the site runs on Cloudflare now");
    expect(fix.supersedes).toEqual([old]);
    // Naming what it left is the link: a word shared in passing with another statement is not.
    expect(fix.supersedes).not.toContain(other);
  });

  test("an identifier the correction rejects, written inside a longer one in the old statement", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("answer", "Backups land in gs://acme-snap-eu/daily/<date>/ and the restore job reads from there.", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "prompt", "fyi backups moved to gs://acme-vault-eu, the old acme-snap-eu bucket is read only until march");
    expect(fix.supersedes).toContain(old);
  });

  test("an answer naming both the rejected tool and its replacement is replaced", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("answer", "Formatting is prettier with width 100, and biome does the linting; both run on pre-push.", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "prompt", "btw biome replaced prettier last month, just use biome format and dont call prettier anymore");
    expect(fix.supersedes).toContain(old);
  });

  test("a value swapped under the same opening word, with no other word shared", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("decision", "chore(jdk): JDK = 17 (lowest we build with), enforced by the toolchain job", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "decision", "chore(jdk): JDK bumped to 21 so virtual threads are available");
    expect(fix.supersedes).toEqual([old]);
  });

  test("an arrow from the old value to the new one says a change; an arrow between words or in code does not", () => {
    for (const t of ["fix(map): idle threshold 3→7 min", "bump the parser 2.4.1 -> 2.5.0", "encoding is cp850 -> cp1252 for the exports"])
      expect(statementOf(t, "note").changes).toBe(true);
    for (const t of ["the toggle is under Settings → Privacy", "the node is read as ptr->next in the loop", "route a -> b in the diagram"])
      expect(statementOf(t, "note").changes).toBe(false);
  });

  test('"no more X" says X is gone', async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("decision", "chore(release): publish to PyPI with flit from a maintainer machine", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "decision", "ci(release): no more flit from laptops, the release workflow publishes with OIDC");
    expect(fix.supersedes).toEqual([old]);
  });

  test("the same slot: a labelled statement and a change that moves what it labels", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("decision", "monitoring: nagios, checks on every host, alerts to the ops channel", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "prompt", "nagios kept paging for nothing. moved monitoring to prometheus, alertmanager routes per team");
    expect(fix.supersedes).toEqual([old]);
    // The query's words are only in the old statement: the correction still comes first.
    const found = await search(m, "alerts ops channel checks");
    expect(found.hits[0]!.id).toBe(fix.id);
    for (const h of found.hits.filter((x) => x.id === old)) expect(h.supersededBy).toBe(fix.id);
  });

  test("the same slot: the thing a sentence of change opens with, beside a name both say", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("prompt", "artifacts go to the nexus instance in the build account, kept for 90 days", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "decision", "nexus storage got expensive. artifacts now upload to s3://acme-artifacts");
    expect(fix.supersedes).toEqual([old]);
  });

  test("a state said to return replaces nothing else said of the same thing", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const fact = await m.add("decision", "redis cluster runs 3 shards, keys expire after one hour", "s1");
    await chatter(m, 5);
    const fix = await addOk(m, "note", "redis latency back to normal");
    expect(fix.supersedes).not.toContain(fact);
  });

  test("a passive replacement links to the statement naming the replaced library", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const old = await m.add("decision", "dates are formatted with luxon everywhere in the web app", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "note", "luxon was replaced by date-fns to cut the bundle size");
    expect(fix.supersedes).toEqual([old]);
  });

  test("pointing the agent at another file replaces nothing said of what the file is about", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const fact = await m.add("prompt", "fyi @ines reviews anything touching the tariff engine, tag her on those PRs", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "correction", "no, the other one. src/tariff/engine.rs");
    expect(fix.supersedes).not.toContain(fact);
  });

  test("a name both hold only inside identifiers (a project's domain) links nothing", async () => {
    const m = testMemory();
    await chatter(m, 25);
    const certs: string[] = [];
    for (const host of ["billing", "search", "ledger"])
      certs.push(await m.add("note", `tls cert for ${host}.quarry.io is not renewed yet`, "s1"));
    const review = await m.add("note", "terraform apply needs 2 approvals from @quarry/platform-ops", "s1");
    await chatter(m, 25);
    const fix = await addOk(m, "decision", "registry egress got expensive. images now push to ghcr.io/quarry-platform");
    for (const id of [...certs, review]) expect(fix.supersedes).not.toContain(id);
  });

  test("a verb both use in passing does not link a change to chatter", async () => {
    const m = testMemory();
    const asks: string[] = [];
    for (let i = 0; i < 4; i++) asks.push(await m.add("prompt", `hmm hey can you run the smoke tests real quick ${"!".repeat(i)}`, "s1"));
    await chatter(m, 25);
    const fix = await addOk(m, "prompt", "hosted ci minutes got too pricey so builds run on our own runners now, same triggers");
    for (const id of asks) expect(fix.supersedes).not.toContain(id);
  });
});

describe("a correction above older evidence of what it says is gone", () => {
  test("commands run with the dropped tool rank below the correction, though they hold a rarer word of the query", async () => {
    const m = testMemory();
    await chatter(m, 20);
    for (let i = 0; i < 4; i++)
      await m.add(
        "command",
        `$ hatchctl install --with dev\nInstalling dependencies from lock file\nPackage operations: ${i + 3} installs`,
        "s1",
      );
    await chatter(m, 20);
    const fix = await addOk(
      m,
      "correction",
      "oh btw we ditched hatchctl last week, new packages go in with `quill add` and you commit quill.lock",
    );
    const found = await search(m, "install a new package");
    expect(found.hits[0]!.id).toBe(fix.id);
  });

  test("a command naming a tool the statement does not drop keeps its place", async () => {
    const m = testMemory();
    await chatter(m, 20);
    const cmd = await m.add(
      "command",
      "$ hatchctl install --with dev\nInstalling dependencies from lock file\nPackage operations: 9 installs",
      "s1",
    );
    await chatter(m, 20);
    await addOk(m, "correction", "oh btw we ditched the old lint config last week, new packages still go in with hatchctl");
    const found = await search(m, "install a new package");
    expect(found.hits[0]!.id).toBe(cmd);
  });
});

describe("general English change expressions read as changes", () => {
  test.each([
    ["we stopped using sentry, errors go to bugsnag", ["sentri"], []],
    ["dropped webpack in favor of vite", ["webpack"], ["vite"]],
    ["we're deprecating the v1 API in favour of v2", ["v1"], ["v2"]],
    ["the new owner of billing is Sam", [], ["sam"]],
    ["Sam is the new owner of billing", [], ["sam"]],
    ["we use pnpm instead", [], ["pnpm"]],
    ["renamed the orders-v1 topic to orders-v2", ["orders-v1"], ["orders-v2"]],
    ["moment was replaced by dayjs", ["moment"], ["dayj"]],
    ["swapped jest for vitest", ["jest"], ["vitest"]],
    ["Ana is taking over the billing service from Raj", ["raj"], []],
  ])("%s", (text, rejected, asserted) => {
    const s = statementOf(text, "note");
    expect(isCorrection(text, "note")).toBe(true);
    expect(s.changes).toBe(true);
    for (const r of rejected) expect(s.rejected.has(r)).toBe(true);
    for (const a of asserted) expect(s.asserted.has(a)).toBe(true);
  });

  test.each(["deploys happen through ArgoCD these days", "nowadays we deploy with helm"])("%s says what holds now", (text) => {
    expect(isCorrection(text, "note")).toBe(true);
  });

  test("a plain statement is no change", () => {
    expect(isCorrection("the billing service is owned by Sam", "note")).toBe(false);
  });
});

describe("a rejected word named with others", () => {
  test("is held by a text with two words of the name, or the word as written, not by its family alone", () => {
    const s = statementOf("we stopped using the play internal track for betas, it's Firebase now", "note");
    const holds = (text: string) => rejectedIn(s, [...s.rejected][0]!, tokenKeys(text), text);
    expect(holds("beta builds go to the internal track on Play Console")).toBe(true);
    expect(holds("you can play the beta on the tablet")).toBe(true);
    expect(holds("players are quitting at level 40")).toBe(false);
  });
});
