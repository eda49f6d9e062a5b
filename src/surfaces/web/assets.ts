/**
 * Everything the page loads, embedded in the binary (text imports): nothing is fetched from the
 * internet. Each asset is served under a name with its content hash (cached for good) and sent
 * gzipped to browsers that accept it.
 */

import uplotJs from "uplot/dist/uPlot.iife.min.js" with { type: "text" };
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "text" };
import { sha256 } from "../../hash.ts";
import appCss from "./assets/app.css" with { type: "text" };
import appJs from "./assets/app.js" with { type: "text" };

export type Asset = { path: string; type: string; body: Uint8Array; gzip: Uint8Array; etag: string };

function asset(name: string, ext: "js" | "css", text: string): Asset {
  const body = new TextEncoder().encode(text);
  const hash = sha256(body).slice(0, 12);
  return {
    path: `/assets/${name}.${hash}.${ext}`,
    type: ext === "js" ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
    body,
    gzip: Bun.gzipSync(body, { level: 9 }),
    etag: `"${hash}"`,
  };
}

export type Assets = { appJs: Asset; appCss: Asset; uplotJs: Asset; uplotCss: Asset; byPath: Map<string, Asset> };

let built: Assets | null = null;

/** Built once per process, on the first page. */
export function assets(): Assets {
  if (built) return built;
  const list = {
    appJs: asset("app", "js", appJs),
    appCss: asset("app", "css", appCss),
    uplotJs: asset("uplot", "js", uplotJs),
    uplotCss: asset("uplot", "css", uplotCss),
  };
  built = { ...list, byPath: new Map(Object.values(list).map((a) => [a.path, a])) };
  return built;
}
