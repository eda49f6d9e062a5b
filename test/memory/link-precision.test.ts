/**
 * A correction replaces the statements it is about, not every statement sharing a word with it
 * (supersede.ts): parts of a new identifier are not a shared subject, candidates compete by the
 * weight of all the words they share, and an assistant's answer naming the replaced tool is
 * replaced by what the user stores as a correction.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you look at ticket ${i} from the support queue`, "s1");
    await m.add("answer", `Ticket ${i}: a duplicate of an older report, closed it with a link.`, "s1");
  }
}

const fix = (m: TestMemory, text: string, kind: "correction" | "prompt" | "decision" = "correction") =>
  m.ok({ type: "add", project: PROJECT, session: "s9", kind, text }, "add");

describe("correction links that hold", () => {
  test("parts of a new identifier are not a shared subject: statements naming the project's domain stay current", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const target = await m.add("prompt", "CI build artifacts are uploaded to the Nexus box in the tools account, versioned by tag", "s1");
    const a = await m.add("prompt", "the TLS cert for portal.orchard.io is still pending", "s1");
    const b = await m.add("prompt", "the TLS cert for billing.orchard.io is still pending", "s1");
    await chatter(m, 15);
    const added = await fix(m, "Nexus storage got pricey. build artifacts now upload to s3.orchard.io/artifacts-orchard");
    expect(added.supersedes).toContain(target);
    expect(added.supersedes).not.toContain(a);
    expect(added.supersedes).not.toContain(b);
  });

  test("a correction about something never stated replaces nothing, whatever its new identifier's parts match", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const a = await m.add("prompt", "the TLS cert for portal.orchard.io is still pending", "s1");
    const b = await m.add("note", "orchard io quota page moved, ask ops for the new link", "s1");
    await chatter(m, 15);
    const added = await fix(m, "Nexus storage got pricey. build artifacts now upload to s3.orchard.io/artifacts-orchard");
    expect(added.supersedes).not.toContain(a);
    expect(added.supersedes).not.toContain(b);
  });

  test("of the statements sharing a rare word, the one sharing most of the correction's words is replaced", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const target = await m.add("decision", "feature flags are served by Flagsmith from the config service", "s1");
    const other = await m.add("prompt", "the Flagsmith dashboard login is in the team vault", "s1");
    await chatter(m, 15);
    const added = await fix(m, "Flagsmith is gone: feature flags now come from the config service's own table");
    expect(added.supersedes).toContain(target);
    expect(added.supersedes).not.toContain(other);
  });

  test("an answer that names the replaced tool is replaced by a stored correction that names it in another sentence", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const answer = await m.add("answer", "docs: add a hosting section\n\nthe site is hosted on Netlify, previews per branch", "s1");
    await chatter(m, 15);
    const added = await fix(m, "infra: we left Netlify. the site runs on our own nginx boxes now, previews are gone");
    expect(added.supersedes).toContain(answer);
  });

  test("a later clause about the replaced first clause's subject is replaced with it, whichever clause the query finds", async () => {
    const m = testMemory();
    await chatter(m, 15);
    const old = await m.add("note", "edge proxy pinned to caddy 2.6.4 (last free build), see .caddy-version", "s1");
    await chatter(m, 15);
    const added = await fix(m, "dropped the vendor binary. edge proxy pinned to traefik 3.1.2 now");
    expect(added.supersedes).toContain(old);
    const found = await m.ok({ type: "search", project: PROJECT, query: "which caddy version is used", limit: 5 }, "search");
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(added.id);
    const ids = found.hits.map((h) => h.id);
    expect(ids.indexOf(added.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(added.id)).toBeLessThan(ids.indexOf(old));
  });
});
