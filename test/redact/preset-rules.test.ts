import { describe, expect, test } from "bun:test";
import { rules } from "@secretlint/secretlint-rule-preset-recommend";
import { PRESET_RULES, unlistedPresetRules } from "../../src/redact/preset-rules.ts";
import { redact } from "../../src/redact/redact.ts";
import { ALNUM, createShapes, HEX } from "./secret-shapes.ts";

describe("secretlint preset", () => {
  test("every rule of the installed preset has hints (a new rule needs an entry in PRESET_RULES)", () => {
    expect(unlistedPresetRules()).toEqual([]);
  });

  test("PRESET_RULES lists no rule the preset no longer has", () => {
    const ids = new Set((rules as unknown as { meta: { id: string } }[]).map((r) => r.meta.id));
    expect(Object.keys(PRESET_RULES).filter((id) => !ids.has(id))).toEqual([]);
  });

  // Formats only the preset knows: if these are found, the dependency is doing the work.
  const s = createShapes(99);
  const onlyPreset: [string, string][] = [
    ["shopify-token", `shpat_${s.chars(HEX, 32)}`],
    ["figma-token", `figd_${s.mixed(ALNUM, 40)}`],
    ["groq-key", `gsk_${s.mixed(ALNUM, 52)}`],
    ["cloudflare-token", `cfat_${s.mixed(ALNUM, 40)}${s.chars(HEX, 8)}`],
    ["notion-token", `ntn_${s.chars("0123456789", 11)}${s.mixed(ALNUM, 35)}`],
    ["vercel-token", `vcp_${s.mixed(ALNUM, 40)}`],
    ["databricks-token", `dapi${s.chars(HEX, 32)}`],
    ["grafana-token", `glsa_${s.mixed(ALNUM, 32)}_${s.chars(HEX, 8)}`],
    ["linear-token", `lin_api_${s.mixed(ALNUM, 40)}`],
  ];
  test.each(onlyPreset)("finds %s through the preset", (kind, token) => {
    const r = redact(`deploy step used ${token} today`);
    expect(r.text).toBe(`deploy step used [REDACTED:${kind}] today`);
    expect(r.kinds[kind]).toBe(1);
  });
});
