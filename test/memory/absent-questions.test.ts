/**
 * Questions about something never said, whose words the project does use: a search answers
 * them with nothing that states a fact about something else. A "how many" question is about what
 * it counts (answer-type.ts countedWords), narrowed by its rarest word; below an open matter on the whole question (a question
 * or a TODO holding all its words) a statement holding only part of them is left out, unless it
 * was said after the question (open-matter.ts). Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { countedWords, countPattern, holdsCount } from "../../src/memory/answer-type.ts";
import { readsOpen } from "../../src/memory/open-matter.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("what a 'how many' question counts", () => {
  test("the words after 'how many' or 'how much' up to the first stop word or plural; nothing for other questions", () => {
    // A word after the plural is its verb: "exist", "report".
    expect(countedWords("how many build flavors exist")).toEqual(["build", "flavors"]);
    expect(countedWords("how many pilot clinics report to the registry")).toEqual(["pilot", "clinics"]);
    expect(countedWords("how many class analysis jobs")).toEqual(["class", "analysis", "jobs"]);
    // A word in -s before another is no plural subject before its verb: a name or a modifier.
    expect(countedWords("how many kubernetes nodes autoscale")).toEqual(["kubernetes", "nodes"]);
    expect(countedWords("how many jenkins agents are idle")).toEqual(["jenkins", "agents"]);
    expect(countedWords("How many tiles are in the atlas")).toEqual(["tiles"]);
    expect(countedWords("how much disk does the runner get")).toEqual(["disk"]);
    expect(countedWords("how long are logs kept")).toEqual([]);
    expect(countedWords("which font do we use")).toEqual([]);
  });

  test("a count said of the counted word: a number right before it, one word between at most", () => {
    const lanes = countPattern(["lanes", "lane"])!;
    expect(holdsCount(lanes, "the sorter keeps 12 lanes open at night")).toBe(true);
    expect(holdsCount(lanes, "we run three conveyor lanes")).toBe(true);
    expect(holdsCount(lanes, "lanes were repainted in 2024")).toBe(false);
    expect(holdsCount(lanes, "the 12 inch belts feed the loading lanes")).toBe(false);
    expect(countPattern([])).toBeNull();
  });

  test("a statement giving the count of what is counted answers in other words than the question's", async () => {
    const m = testMemory();
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `sorter jam at dock ${i} again, can you check the sorter logs`, "s1");
      await m.add("answer", `Cleared the sorter jam at dock ${i}; the belt sensor was dirty.`, "s1");
      if (i % 4 === 0) await m.add("prompt", `repaint the lanes near dock ${i} before the audit`, "s1");
    }
    await m.add("prompt", "what time does the night crew start", "s1");
    await m.add("prompt", "can we run the audit script on fridays", "s1");
    const cap = await m.add("answer", "perf(sorter): cap parallel work\n\n- the sorter keeps 12 lanes open, busiest docks first", "s2");
    expect(await hitIds(m, "how many lanes can the sorter run at one time")).toContain(cap);
  });

  test("the verb after the counted plural is not what is counted: a count of the thing in other words answers", async () => {
    const m = testMemory();
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `pilot dashboard ${i} is slow again, can you profile the pilot queries`, "s1");
      await m.add("answer", `Pilot dashboard ${i}: added an index, loads in ${i + 200} ms now.`, "s1");
      if (i % 5 === 0) await m.add("prompt", `the weekly report for region ${i} is missing a column`, "s1");
    }
    const count = await m.add("note", "pilot: 3 more sites joined in May (2 north, 1 coast), 17 pilot sites in all now", "s2");
    expect(await hitIds(m, "how many pilot clinics report to the registry")).toContain(count);
  });

  test("a count written with the counted word clipped ('40 req/s') counts it", async () => {
    const m = testMemory();
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `the kiosk client ${i} shows a blank screen, can you look at the kiosk logs`, "s1");
      await m.add("answer", `Kiosk client ${i} had a stale cache; cleared it.`, "s1");
      if (i % 5 === 0) await m.add("prompt", `log every request from kiosk ${i} for a day`, "s1");
    }
    await m.add("prompt", "why are some kiosks throttled at lunch", "s1");
    const cap = await m.add("answer", "added a token bucket in front of the api: 40 req/s per kiosk, 429 past that", "s2");
    expect(await hitIds(m, "how many requests per second may one kiosk make before it is throttled")).toContain(cap);
  });

  test("'how many times' counts occurrences: 'times' is no thing counted, a setting's number answers", async () => {
    expect(countedWords("how many times does the upload retry")).toEqual([]);
    expect(countedWords("How many timers run at once")).toEqual(["timers"]);
    const m = testMemory();
    for (let i = 0; i < 12; i++) {
      await m.add("prompt", `the mirror upload for crate ${i} hung, can you look`, "s1");
      await m.add("answer", `Restarted the mirror upload for crate ${i}.`, "s1");
    }
    const setting = await m.add("command", '$ cat config/mirror.toml\n[upload]\nretry = 4\nbackoff = "exponential"', "s2");
    expect(await hitIds(m, "how many times does the mirror upload retry before giving up?")).toContain(setting);
  });

  test("a statement holding the question's other words and a number, not what it counts, is no answer", async () => {
    const m = testMemory();
    for (let i = 0; i < 12; i++) {
      await m.add("prompt", `can you check the tile renderer on map ${i}`, "s1");
      await m.add("answer", `Map ${i} renders fine with the current tiles.`, "s1");
    }
    await m.add("prompt", "the atlas packer complains about padding again", "s1");
    await m.add("answer", "Padding in the atlas packer set to 2 px.", "s1");
    const other = await m.add("note", "note: the atlas is rebuilt every 3 releases by the packer script", "s2");
    const asked = "how many tiles are in the atlas";
    expect(await hitIds(m, asked)).not.toContain(other);
    // Another quantity question on the atlas itself is answered by the same note.
    expect(await hitIds(m, "how often is the atlas rebuilt")).toContain(other);
    // A statement of the count is found, first.
    const answer = await m.add("decision", "decision: the atlas holds 256 tiles, one page", "s3");
    expect((await hitIds(m, asked))[0]).toBe(answer);
  });
});

describe("a 'how many' question counted in other words", () => {
  async function history(m: TestMemory) {
    for (let i = 0; i < 8; i++) {
      await m.add("prompt", `the import of statement ${i} skipped some rows, check the csv`, "s1");
      await m.add("answer", `Statement ${i}: two rows had a stray quote; fixed the parser and reran.`, "s1");
      await m.add("prompt", `the invoice pdf batch for client ${i} has the wrong address`, "s1");
    }
  }

  test("a count said of the question's most specific word answers, in its own words", async () => {
    const m = testMemory();
    await history(m);
    const answer = await m.add("prompt", "feat(remittance): cap each remittance batch at 500 lines, the bank rejects bigger files", "s2");
    for (let i = 8; i < 12; i++) await m.add("prompt", `the import of statement ${i} skipped some rows, check the csv`, "s3");
    expect(await hitIds(m, "how many rows can one remittance batch hold?")).toContain(answer);
  });

  test("a count in other words without that word is no answer", async () => {
    const m = testMemory();
    await history(m);
    const other = await m.add("prompt", "feat(export): cap each export batch at 500 lines, the viewer chokes on bigger files", "s2");
    for (let i = 8; i < 12; i++) await m.add("prompt", `the import of statement ${i} skipped some rows, check the csv`, "s3");
    await m.add("note", "remittance files go to the bank at noon", "s3");
    expect(await hitIds(m, "how many rows can one remittance batch hold?")).not.toContain(other);
  });
});

describe("a 'how many' question about a narrower kind of what it counts", () => {
  test("a count of the project's other ones is no answer; a count of those it names is", async () => {
    const m = testMemory();
    // "workers" is everywhere in this history; "renderer" is said a few times, never with a count.
    for (let i = 0; i < 8; i++) {
      await m.add("prompt", `the queue workers on host ${i} look stuck again`, "s1");
      await m.add("answer", `Restarted the workers on host ${i}; the queue drains now.`, "s1");
    }
    await m.add("prompt", "the pdf renderer leaks memory after a big batch", "s1");
    await m.add("answer", "The renderer keeps every page in memory; it now frees each page once written.", "s1");
    const other = await m.add("decision", "decision: the mail queue runs 6 workers in production", "s2");
    const asked = "how many renderer workers does production run";
    expect(await hitIds(m, asked)).not.toContain(other);
    // Asked about workers at large, the same statement answers.
    expect(await hitIds(m, "how many workers does production run")).toContain(other);
    const answer = await m.add("decision", "decision: production runs 3 renderer workers, one per core", "s3");
    expect((await hitIds(m, asked))[0]).toBe(answer);
  });
});

describe("an open matter on the whole question", () => {
  test("a question or a TODO reads as open; a statement does not", () => {
    for (const t of ["which cdn should the docs use?", "todo: pick a cdn for the docs", "- e12 note: FIXME cdn for docs"])
      expect(readsOpen(t)).toBe(true);
    for (const t of ["the docs are served from fastly", "- e12 decision: docs build takes 4 minutes"]) expect(readsOpen(t)).toBe(false);
  });

  test("below it, statements holding only part of the question are left out; once it is settled, the answer comes first", async () => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `please fix the broken link on docs page ${i}`, "s1");
      await m.add("answer", `Fixed the link on docs page ${i}.`, "s1");
    }
    await m.add("command", "curl -I https://cdn.example.net/health", "s1");
    const open = await m.add("note", "todo: decide which cdn serves the docs, nobody picked one", "s2");
    const part = await m.add("note", "note: the cdn cache of the status page is purged on every deploy", "s2");
    const asked = "which cdn serves the docs";
    const got = await hitIds(m, asked);
    expect(got[0]).toBe(open);
    expect(got).not.toContain(part);
    // A question on the part alone still finds it.
    expect(await hitIds(m, "when is the cdn cache purged")).toContain(part);
    const answer = await m.add("decision", "decision: the docs are served by the fastly cdn from now on", "s3");
    expect((await hitIds(m, asked))[0]).toBe(answer);
  });
});

describe("a question on the whole matter", () => {
  test("what is said after it may answer it in part of its words; what was said before it is left out", async () => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `please fix the broken link on docs page ${i}`, "s1");
      await m.add("answer", `Fixed the link on docs page ${i}.`, "s1");
    }
    const before = await m.add("note", "note: cloudflare was the cdn for the status site", "s1");
    const asked = await m.add("prompt", "which cdn serves the docs site?", "s2");
    for (let i = 0; i < 3; i++) await m.add("prompt", `bump the changelog for ${i}`, "s3");
    const after = await m.add("note", "note: fastly is the cdn for the site now", "s4");
    const got = await hitIds(m, "which cdn serves the docs site");
    expect(got[0]).toBe(asked);
    expect(got).toContain(after);
    expect(got).not.toContain(before);
    // Asked about what it holds, the statement said before the question is found.
    expect(await hitIds(m, "which cdn does the status site use")).toContain(before);
  });
});

describe("a matter said to be unsettled", () => {
  test("'not decided', 'owner unknown', 'TBD' read as open; a settled statement does not", () => {
    for (const t of [
      "how long the exports are kept is not decided",
      "owner of the export job: unknown",
      "export retention TBD",
      "we haven't decided on a retention for exports",
    ])
      expect(readsOpen(t)).toBe(true);
    for (const t of ["exports are kept for 90 days", "- e40 decision: the export job is owned by Priya"]) expect(readsOpen(t)).toBe(false);
  });

  test("unknown, unclear, unresolved read as open said of the matter, not before a noun they name", () => {
    for (const t of [
      "the cause of the export stall is unknown for now",
      "still unclear whether exports need their own bucket",
      "export owner unknown",
      "why the export lags: unresolved, see the thread",
    ])
      expect(readsOpen(t)).toBe(true);
    for (const t of [
      "fix(export): crashes on an unknown column name",
      "ExportError: unknown format 'xlsb'",
      "tsc reports an unresolved import in the export worker",
      "the unclear error message on a failed export now names the file",
    ])
      expect(readsOpen(t)).toBe(false);
  });

  test("below a statement on the whole question that says it is undecided, statements on part of it are left out", async () => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `the nightly export ${i} looks slow, can you check`, "s1");
      await m.add("answer", `Export ${i} finished, nothing odd.`, "s1");
    }
    const undecided = await m.add("answer", "Old export archives pile up; which storage tier should hold them is still undecided.", "s2");
    const part = await m.add("note", "note: old export archives are copied to the storage bucket every 6 hours", "s2");
    const asked = "which storage tier holds old export archives";
    const got = await hitIds(m, asked);
    expect(got[0]).toBe(undecided);
    expect(got).not.toContain(part);
    // Asked about the part alone, it is found.
    expect(await hitIds(m, "how often are export archives written")).toContain(part);
  });

  test("one saying it is undecided that holds all the question's words but one opens it too", async () => {
    const m = testMemory();
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `the nightly export ${i} looks slow, can you check`, "s1");
      await m.add("answer", `Export ${i} finished, nothing odd.`, "s1");
    }
    await m.add("prompt", "the tier list in the wiki is stale", "s1");
    const undecided = await m.add(
      "note",
      "note: old export archives pile up in the bucket; where they should end up is still undecided",
      "s2",
    );
    const part = await m.add("answer", "The archives are copied to the cold bucket every 6 hours.", "s2");
    const got = await hitIds(m, "which storage tier holds old export archives");
    expect(got[0]).toBe(undecided);
    expect(got).not.toContain(part);
  });
});

describe("a thin summary line far below the best hit", () => {
  test("a digest's line holding one of the question's words is left out below a hit holding them all; asked about, it is found", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 10;
      c.memory.keepDays = 30;
    });
    await m.add("decision", "decision: exports run nightly and write one csv per region", "s1");
    for (let i = 0; i < 9; i++) await m.add("answer", `Checked the login page ${i}, the form validates fine.`, "s1");
    // A month on: the first window's events are dropped; its summary stays.
    m.clock.t += 31 * 86_400_000;
    for (let i = 0; i < 2; i++) await m.add("prompt", `the export button on page ${i} is misaligned`, "s2");
    for (let i = 0; i < 3; i++) await m.add("prompt", `the schema page ${i} needs a better title`, "s2");
    await m.add("answer", "Asked around who owns the export schema: the owner of the export schema is not settled.", "s2");
    await m.ok({ type: "retention" }, "retention");
    const line = (hits: { type: string; text: string }[]) =>
      hits.some((h) => h.type === "summary" && h.text.includes("exports run nightly"));
    const when = await m.ok({ type: "search", project: PROJECT, query: "when do the exports run", limit: 5 }, "search");
    expect(line(when.hits)).toBe(true);
    const who = await m.ok({ type: "search", project: PROJECT, query: "who owns the export schema", limit: 5 }, "search");
    expect(who.hits[0]?.text).toContain("owner of the export schema");
    expect(line(who.hits)).toBe(false);
  });
});
