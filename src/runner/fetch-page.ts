/**
 * Fetches one http(s) URL for a model (`context_fetch`) and turns it into text: HTML through
 * html-to-text (a real parser: scripts, styles and markup gone, links kept as "text [url]"),
 * JSON pretty-printed, other text as it is. Anything else (images, archives, PDFs) is refused
 * with a message. It only runs when called: nothing here reaches out on its own.
 */
import { convert } from "html-to-text";
import { fail, type Result } from "../errors.ts";
import { decodeUtf8 } from "../text.ts";

export type FetchInput = { url: string; timeoutMs: number; maxBytes: number; signal?: AbortSignal };
export type FetchedPage = {
  url: string;
  finalUrl: string;
  status: number;
  contentType: string;
  /** What the page's bytes became: "html", "json" or "text". */
  kind: "html" | "json" | "text";
  title: string | null;
  text: string;
  bytes: number;
  invalidUtf8: number;
};

export type FetchFn = (url: string, init: RequestInit) => Promise<Response>;

const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-javascript|ecmascript|x-sh|x-yaml|yaml|toml|x-ndjson|ld\+json|graphql|sql)\b)/i;

/** An http(s) URL, or why not. */
export function checkUrl(raw: string): Result<{ url: URL }> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail("BAD_URL", `${JSON.stringify(raw)} is not a URL; give a full http:// or https:// URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return fail("BAD_URL", `Only http:// and https:// URLs are fetched, not ${url.protocol}; read local files with context_index.`);
  return { ok: true, url };
}

function titleOf(html: string): string | null {
  const m = /<title[^>]*>([^<]{1,300})<\/title>/i.exec(html);
  if (!m) return null;
  const t = convert(m[1]!, { wordwrap: false }).trim();
  return t === "" ? null : t;
}

function absoluteLink(path: string, baseUrl: string | undefined): string {
  if (!baseUrl) return path;
  try {
    return new URL(path, baseUrl).href;
  } catch {
    return path;
  }
}

/** HTML as readable text: no wrapping (the store keeps lines), no images, links as "text [url]". */
export function htmlToText(html: string, baseUrl?: string): string {
  return convert(html, {
    wordwrap: false,
    baseElements: { selectors: ["body"], returnDomByDefault: true },
    selectors: [
      { selector: "img", format: "skip" },
      { selector: "svg", format: "skip" },
      {
        selector: "a",
        options: {
          hideLinkHrefIfSameAsText: true,
          linkBrackets: ["[", "]"],
          // Relative links made absolute the way a browser does (html-to-text's baseUrl only prefixes).
          pathRewrite: (path: string) => absoluteLink(path, baseUrl),
        },
      },
    ],
  })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), cut: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > maxBytes) {
      parts.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      await reader.cancel().catch(() => {});
      return { bytes: Buffer.concat(parts), cut: true };
    }
    parts.push(value);
    total += value.length;
  }
  return { bytes: Buffer.concat(parts), cut: false };
}

export async function fetchPage(input: FetchInput, deps: { fetch?: FetchFn } = {}): Promise<Result<{ page: FetchedPage }>> {
  const checked = checkUrl(input.url);
  if (!checked.ok) return checked;
  const doFetch = deps.fetch ?? ((u, init) => fetch(u, init));
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await doFetch(checked.url.href, {
      signal,
      redirect: "follow",
      headers: { accept: "text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5", "user-agent": "pi-sidecar" },
    });
  } catch (error) {
    if (input.signal?.aborted) return fail("CANCELLED", "The fetch was cancelled.");
    if (timeout.aborted) return fail("TIMEOUT", `No answer from ${checked.url.host} within ${Math.round(input.timeoutMs / 1000)} s.`);
    const cause = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
    return fail(
      "FETCH_FAILED",
      `Could not fetch ${checked.url.href}: ${cause ?? (error instanceof Error ? error.message : String(error))}. Check the URL and the network.`,
    );
  }
  const contentType = response.headers.get("content-type") ?? "";
  const finalUrl = response.url || checked.url.href;
  const mime = contentType.split(";")[0]!.trim().toLowerCase();
  if (mime !== "" && !TEXT_TYPES.test(mime)) {
    await response.body?.cancel().catch(() => {});
    return fail("NOT_TEXT", `${finalUrl} is ${mime} (HTTP ${response.status}), not text or HTML; nothing was stored.`);
  }
  let read: { bytes: Uint8Array; cut: boolean };
  try {
    read = await readCapped(response, input.maxBytes);
  } catch (error) {
    if (input.signal?.aborted) return fail("CANCELLED", "The fetch was cancelled.");
    return fail("FETCH_FAILED", `The answer from ${finalUrl} broke off: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const { text: body, invalid } = decodeUtf8(read.bytes);
  const looksHtml = mime === "text/html" || mime === "application/xhtml+xml" || (mime === "" && /^\s*(<!doctype html|<html)/i.test(body));
  let kind: FetchedPage["kind"] = "text";
  let text = body;
  if (looksHtml) {
    kind = "html";
    text = htmlToText(body, finalUrl);
  } else if (mime.includes("json")) {
    kind = "json";
    try {
      text = JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      text = body;
    }
  }
  if (read.cut) text += `\n[cut: the page is over ${input.maxBytes} bytes; only its start was read]`;
  return {
    ok: true,
    page: {
      url: checked.url.href,
      finalUrl,
      status: response.status,
      contentType: mime,
      kind,
      title: looksHtml ? titleOf(body) : null,
      text,
      bytes: read.bytes.length,
      invalidUtf8: invalid,
    },
  };
}
