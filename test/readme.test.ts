/** The README is the front door: what it says about configuration and testing must stay true. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { README, readmeWithTable } from "../scripts/config-table.ts";
import { ROOT } from "./helpers.ts";

describe("README", () => {
  const readme = readFileSync(README, "utf8");

  test("its configuration table is the one generated from src/config-keys.ts (run `bun scripts/config-table.ts`)", () => {
    expect(readme).toBe(readmeWithTable(readme));
  });

  test("CI runs the test command the README gives", () => {
    const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
    expect(readme).toContain("npm install && npm test");
    expect(ci).toContain("npm install && npm test");
  });
});
