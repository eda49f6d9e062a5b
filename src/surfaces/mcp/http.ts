/**
 * `pi-sidecar mcp --http`: the same server over Streamable HTTP, on 127.0.0.1 only, for clients
 * that only speak HTTP (and the conformance suite). Every request needs the run's token (a bearer
 * header, or `?token=` in the URL for clients that cannot send headers): another local user
 * cannot call it. Host and Origin must be this server's own (DNS rebinding). Stateless: each
 * request gets its own server and transport; the engine behind them is shared.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { errorMessage, fail, type Result } from "../../errors.ts";
import { sameSecret } from "../../hash.ts";
import { createMcpServer, type ServeOptions } from "./server.ts";

export type HttpServer = { url: string; token: string; port: number; stop(): Promise<void> };

/** A fresh random token for this run. */
export function newToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64url");
}

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(`${message}\n`, { status, headers: { "content-type": "text/plain", ...headers } });
}

export function serveMcpHttp(o: ServeOptions, options: { port: number; token: string }): Result<HttpServer> {
  let port = options.port;
  const own = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (!own().includes(request.headers.get("host") ?? ""))
      return refuse(403, "Forbidden: this server answers only to 127.0.0.1 and localhost.");
    const origin = request.headers.get("origin");
    if (origin && !own().some((h) => origin === `http://${h}`)) return refuse(403, "Forbidden: requests from other origins are refused.");
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? url.searchParams.get("token");
    if (!sameSecret(bearer, options.token)) {
      return refuse(401, "Unauthorized: send the token pi-sidecar mcp printed (Authorization: Bearer TOKEN, or ?token=TOKEN).", {
        "www-authenticate": "Bearer",
      });
    }
    if (url.pathname !== "/mcp") return refuse(404, "The MCP endpoint is /mcp.");
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: own(),
    });
    const server = createMcpServer(o);
    await server.connect(transport);
    return transport.handleRequest(request);
  };
  let http: ReturnType<typeof Bun.serve>;
  try {
    http = Bun.serve({ hostname: "127.0.0.1", port, fetch: handle });
  } catch (error) {
    const inUse = /in use|EADDRINUSE/i.test(errorMessage(error));
    return fail(
      inUse ? "PORT_IN_USE" : "CANNOT_LISTEN",
      inUse
        ? `Port ${port} on 127.0.0.1 is in use: choose another with --port N, or leave --port out for a free one.`
        : `Cannot listen on 127.0.0.1:${port}: ${errorMessage(error)}. Choose another port with --port N, or leave it out.`,
    );
  }
  port = http.port ?? port;
  return { ok: true, url: `http://127.0.0.1:${port}/mcp`, token: options.token, port, stop: () => http.stop(true) };
}
