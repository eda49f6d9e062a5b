/**
 * Who may talk to a local HTTP server: requests addressed to this server's own loopback name
 * (a Host or Origin of any other name is a page elsewhere reaching in through DNS rebinding),
 * carrying the run's token. Plain functions of the request, so any local server can use them.
 */
import { sameSecret } from "../../hash.ts";

/** A fresh random token (24 bytes, base64url). */
export function newToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}

/** Compares in constant time. */
export function sameToken(given: string | null | undefined, token: string): boolean {
  return sameSecret(given, token);
}

/** The Host values this server answers to. */
export function ownHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Why a request must be refused for where it claims to come from or go to, or null when it may pass. */
export function foreignRequest(request: Request, port: number): string | null {
  const own = ownHosts(port);
  if (!own.includes(request.headers.get("host") ?? "")) return "this server answers only to 127.0.0.1 and localhost";
  const origin = request.headers.get("origin");
  if (origin && !own.some((h) => origin === `http://${h}`)) return "requests from other origins are refused";
  return null;
}

/** The bearer token of a request (Authorization header), else `?token=`. */
export function presentedToken(request: Request): string | null {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return bearer ?? new URL(request.url).searchParams.get("token");
}
