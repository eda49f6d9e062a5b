/**
 * A question naming a period, a distance, a speed, a temperature, a percentage or a weight asks
 * for a value of that kind, also when the noun is in its "what"/"which" phrase rather than at its
 * end ("what is the retention period for ...", "what interval do we use on ..."): a text about the
 * question's subject holding no such value (a neighbouring property of the subject: its port, its
 * protocol) does not answer it, and a search returns nothing rather than it (answer-type.ts:
 * numericHead, requiredValues; gate.ts). Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksQuantity, numericHead, requiredValues, whPhrase } from "../../src/memory/answer-type.ts";
import { holdsValueFor } from "../../src/memory/value-kinds.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("the numeric noun a question asks about", () => {
  test("the words after what/which, a copula and an article, up to the first stop word", () => {
    expect(whPhrase("what is the retention period for audit logs")).toEqual(["retention", "period"]);
    expect(whPhrase("which interval do we set on the socket")).toEqual(["interval"]);
    expect(whPhrase("how long are audit logs kept")).toEqual([]);
    expect(whPhrase("at what size does the cache get evicted")).toEqual(["size"]);
    expect(requiredValues("for how long are audit logs kept")).toEqual(["long"]);
  });

  test("a numeric noun at the end or in the what/which phrase; 'what counts as', 'which X count as' is a verb", () => {
    expect(numericHead("what is the retention period for audit logs")).toBe("period");
    expect(numericHead("what interval do we use on the mqtt socket")).toBe("interval");
    expect(numericHead("session cookie lifetime")).toBe("lifetime");
    expect(numericHead("what counts as a stale cache entry")).toBeNull();
    expect(numericHead("which cache entries count as stale")).toBeNull();
    expect(asksQuantity("which cache entries count as stale")).toBe(false);
    expect(numericHead("what is the count of cache entries")).toBe("count");
    expect(numericHead("which broker does the mqtt client use")).toBeNull();
    // A numeric noun after the question's verb is its object, not what is asked: a channel is.
    expect(numericHead("which channel streams live temperature updates to the dashboard")).toBeNull();
    expect(requiredValues("which channel streams live temperature updates to the dashboard")).toEqual([]);
    expect(numericHead("what wind speed closes the marina")).toBe("speed");
    expect(asksQuantity("what interval do we use on the mqtt socket")).toBe(true);
    expect(asksQuantity("who picked the interval for the mqtt socket")).toBe(false);
  });

  test("a period is required for a period noun and 'how long'; a size or a version only weighs", () => {
    expect(requiredValues("what interval do we use on the mqtt socket")).toEqual(["interval"]);
    expect(requiredValues("how long are audit logs kept")).toEqual(["long"]);
    expect(requiredValues("what wind speed closes the marina")).toEqual(["speed"]);
    expect(requiredValues("max attachment size")).toEqual([]);
    expect(requiredValues("which postgres version do we run")).toEqual([]);
    expect(holdsValueFor("interval", "the client gives up after 30 s")).toBe(true);
    expect(holdsValueFor("interval", "the broker listens on 1883")).toBe(false);
    expect(holdsValueFor("speed", "closed above 25 knots")).toBe(true);
    expect(holdsValueFor("speed", "gusts of 25 kt")).toBe(true);
    expect(holdsValueFor("speed", "capped at 200 requests per second")).toBe(true);
    // A rate said with a number word: "one request per second".
    expect(holdsValueFor("fast", "the geocoder is throttled to one request per second")).toBe(true);
    expect(holdsValueFor("fast", "one of the requests timed out")).toBe(false);
    expect(holdsValueFor("fast", "a tenant per database")).toBe(false);
  });

  test("a period said in words or hyphenated is a period; 'how far' takes a distance in time too", () => {
    for (const t of [
      "audit logs are kept for a week",
      "kept two weeks, then pruned",
      "a 30-day window",
      "expires after an hour",
      "gone in a few days",
      "kept seventy days",
      "nineteen weeks of history",
    ])
      expect(holdsValueFor("long", t)).toBe(true);
    for (const t of ["rotated at 02:15", "pinned to 1.4.2", "the 3 audit tables"]) expect(holdsValueFor("long", t)).toBe(false);
    expect(holdsValueFor("far", "members can book up to 14 days ahead")).toBe(true);
    expect(holdsValueFor("far", "the depot is 12 km out")).toBe(true);
    expect(holdsValueFor("far", "the depot has 12 bays")).toBe(false);
  });

  test("a port asked for is a number said as a port: after a host and a colon, named, or after bind or listen", () => {
    expect(numericHead("what port does the api bind to on staging")).toBe("port");
    expect(requiredValues("what port does the api bind to on staging")).toEqual(["port"]);
    for (const t of [
      "the api listens on 9090 on the test box",
      "DATABASE_URL=postgres://db:5432/app",
      "PORT defaults to 3100 from now on",
      "bound to 9000",
      "moved the metrics listener to 9102, a port nothing else uses",
    ])
      expect(holdsValueFor("port", t)).toBe(true);
    for (const t of ["the port is configurable", "retry 3 times on port errors", "built in 2019", "v1.2:3"])
      expect(holdsValueFor("port", t)).toBe(false);
  });

  test("a port is also a number a container's port is mapped or forwarded to, or written ':8041' with no host", () => {
    for (const t of [
      "dev db: docker pg mapped to 5433 since the host has its own",
      "ssh port forwarded to 8443 on the box",
      "dev api on :8041 from now on",
    ])
      expect(holdsValueFor("port", t)).toBe(true);
    for (const t of [
      "the old map goes to 2019 only",
      "we move forward to 2025",
      "maps to 404 page",
      "forwarded to 12 recipients",
      "starts at :30 past",
    ])
      expect(holdsValueFor("port", t)).toBe(false);
  });

  test("an interval is also said as 'every' and a number of another unit than time", () => {
    for (const t of ["brake blocks every 1200 miles, not calendar", "a full check every three releases"])
      expect(holdsValueFor("interval", t)).toBe(true);
    // Not a period for "how long", and "every" with no number is no interval's value.
    expect(holdsValueFor("long", "brake blocks every 1200 miles")).toBe(false);
    expect(holdsValueFor("interval", "every car gets new blocks")).toBe(false);
    // A number word is a whole word: "every tenant" is no "every ten ...", and "every one of" counts nothing.
    expect(holdsValueFor("interval", "every tenant gets a check")).toBe(false);
    expect(holdsValueFor("interval", "every one of the hosts")).toBe(false);
  });

  test("a frequency said with its unit (hertz, rpm, a count per unit of time) answers how often", () => {
    for (const t of [
      "the tracking loop ticks at 10 Hz now",
      "the fan spins at 1200 rpm",
      "the poller runs 4/min",
      "sends 3 per min at most",
    ])
      expect(holdsValueFor("often", t)).toBe(true);
    for (const t of ["the pdf is 10 hzx wide", "an ohz module", "4/5 tests pass"]) expect(holdsValueFor("often", t)).toBe(false);
  });

  test("a period is also said by its bounds, a span of years; 'how long' is not answered by one", () => {
    expect(holdsValueFor("period", "the baseline period is 1991-2020 for every chart")).toBe(true);
    expect(holdsValueFor("periods", "averages over 2001 to 2015")).toBe(true);
    expect(holdsValueFor("period", "build 2019.2020 shipped")).toBe(false);
    expect(holdsValueFor("period", "ports 8080-8090 are open")).toBe(false);
    expect(holdsValueFor("long", "the baseline period is 1991-2020")).toBe(false);
  });

  test("a number hyphenated to a short unit of time is a period, and answers how often", () => {
    for (const t of ["the sensor logs on a 15-min interval", "a 30-sec poll of the queue", "kept in a 24-hr buffer", "a 2-wk sprint"]) {
      expect(holdsValueFor("long", t)).toBe(true);
      expect(holdsValueFor("often", t)).toBe(true);
    }
    // A hyphen joining a number to a word that is no unit, or to a longer word, is not.
    for (const t of ["the 15-minion raid", "port 8080-msg bridge"]) expect(holdsValueFor("often", t)).toBe(false);
  });

  test("a number set on a name ending in its unit of time is a period (snake, upper or camel case)", () => {
    for (const t of ["const HOLD_MINUTES = 15;", "lock_timeout_ms: 500", "backoffSeconds = 30", "PURGE_AFTER_DAYS=90"])
      expect(holdsValueFor("long", t)).toBe(true);
    // A number on a name with no unit, or a unit that is not the name's last part, is not.
    for (const t of ["MAX_ITEMS = 15", "minutes_page = 3", "getMinutes() = 3", "pdays=3"]) expect(holdsValueFor("long", t)).toBe(false);
  });

  test("a setting naming the period noun with a bare number holds its value", () => {
    expect(holdsValueFor("interval", "MQTT_SOCKET_INTERVAL=45")).toBe(true);
    expect(holdsValueFor("lifetime", "cache lifetime: 3600")).toBe(true);
    expect(holdsValueFor("interval", "the interval fired on socket 3")).toBe(false);
    expect(holdsValueFor("interval", "poll_interval_ms: 250")).toBe(true);
  });

  test("not a longer word starting with the noun, nor the adjective of 'how long' or 'how far'", () => {
    expect(holdsValueFor("period", "periodic 5 jobs failed")).toBe(false);
    expect(holdsValueFor("percent", "percentile 99 is slow")).toBe(false);
    expect(holdsValueFor("speed", "speedup 2 on the runners")).toBe(false);
    expect(holdsValueFor("long", "depot longitude: 45.2")).toBe(false);
    expect(holdsValueFor("far", "farm 3 was flooded")).toBe(false);
  });
});

async function brokerHistory(): Promise<TestMemory> {
  const m = testMemory();
  for (let i = 0; i < 20; i++) {
    await m.add("prompt", `the dashboard tile ${i} is blank again, can you check`, "s1");
    await m.add("answer", `Tile ${i} had a stale query, fixed.`, "s1");
  }
  await m.add("note", "note: sensors publish over mqtt, the socket goes to broker-2 on port 1883 with tls off inside the lan", "s1");
  return m;
}

describe("a neighbouring property of the subject does not answer", () => {
  test("'what interval ...' is not answered by the socket's port; a stated interval answers it", async () => {
    const m = await brokerHistory();
    const asked = "what interval do we use on the mqtt socket";
    const before = await m.ok({ type: "search", project: PROJECT, query: asked, limit: 5 }, "search");
    expect(before.hits).toEqual([]);
    const answer = await m.add("note", "note: the mqtt socket times out after 45 seconds without a ping", "s2");
    const after = await m.ok({ type: "search", project: PROJECT, query: asked, limit: 5 }, "search");
    expect(after.hits[0]?.id).toBe(answer);
    // Another kind of question about the socket still finds the note without a period.
    const which = await m.ok({ type: "search", project: PROJECT, query: "which port does the mqtt socket use", limit: 5 }, "search");
    expect(which.hits.length).toBeGreaterThan(0);
  });
});
