/**
 * pi-sidecar's items on pi's status line (the context store's saving, memory, code index), under
 * one key with a separator between them: pi joins the statuses of all extensions with a bare
 * space, so items under keys of their own ran together ("…kept out kota: running…").
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { EngineStats } from "../../engine.ts";
import { formatCount } from "../../units.ts";

export const STATUS_KEY = "pi-sidecar";
export const SEPARATOR = " · ";
const ORDER = ["sidecar", "memory", "kota"] as const;
export type StatusItem = (typeof ORDER)[number];

export type StatusLine = { set(ctx: Pick<ExtensionContext, "ui">, item: StatusItem, text: string | undefined): void };

const lines = new WeakMap<object, StatusLine>();

/** The one status line of this pi (each part of the extension sets its own item). */
export function statusLine(pi: ExtensionAPI): StatusLine {
  let line = lines.get(pi);
  if (!line) {
    const items = new Map<StatusItem, string>();
    line = {
      set(ctx, item, text) {
        if (text) items.set(item, text);
        else items.delete(item);
        const all = ORDER.flatMap((k) => (items.has(k) ? [items.get(k)!] : []));
        ctx.ui.setStatus(STATUS_KEY, all.length > 0 ? all.join(SEPARATOR) : undefined);
      },
    };
    lines.set(pi, line);
  }
  return line;
}

/** 950, 12.4k, 1.3M: a status line is short. */
export function compact(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return formatCount(n);
  if (a < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** The session's saving against what pi would have sent (its own cuts), with what is stored beside. */
export function savingStatus(s: EngineStats): string {
  const t = s.totals;
  const outputs = `${formatCount(t.captures)} output${t.captures === 1 ? "" : "s"}`;
  return `sidecar: saved ${compact(t.netSavedTokens)} tokens of what pi would have sent (${outputs}, ${compact(t.storedTokens)} stored)`;
}
