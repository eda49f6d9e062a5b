/**
 * The gateway's expected failures are values with a code; how they read depends on who reads
 * them and where: the model in pi is told what the user can do (`/sidecar mcp enable x`), a user at the
 * command line is told what to run (`pi-sidecar servers enable x`). Each surface passes its
 * audience; the gateway never hard-codes one surface's wording.
 */
import type { Failure } from "../errors.ts";

export type Audience = {
  /** The model reads it (tool results) or a person does (commands). */
  who: "model" | "user";
  /** How the user runs a server command on this surface: "enable x" -> "/sidecar mcp enable x". */
  command(args: string): string;
  /** How a change to the server list takes effect before the next session, if there is a way. */
  reload?: string;
};

export const PI_MODEL: Audience = { who: "model", command: (args) => `/sidecar mcp ${args}` };
export const PI_USER: Audience = { who: "user", command: (args) => `/sidecar mcp ${args}`, reload: "/reload" };
export const CLI_USER: Audience = { who: "user", command: (args) => `pi-sidecar servers ${args}` };
/** Another agent's model, behind `pi-sidecar mcp`: its user has the CLI, not /mcp. */
export const CLI_MODEL: Audience = { who: "model", command: (args) => `pi-sidecar servers ${args}` };

export type GatewayFailureCode =
  | "NO_SUCH_SERVER"
  | "SERVER_DISABLED"
  | "NOT_APPROVED"
  | "START_FAILED"
  | "COOLING_DOWN"
  | "NO_SUCH_TOOL"
  | "AMBIGUOUS_TOOL"
  | "BAD_ARGUMENTS";

/** `message` states the fact (NOT_APPROVED: where the server is); phrase() adds what to do, for the audience. */
export type GatewayFailure = Failure & { code: GatewayFailureCode; server?: string; file?: string };

export function gatewayFail(code: GatewayFailureCode, message: string, extra: { server?: string; file?: string } = {}): GatewayFailure {
  return { ok: false, code, message, ...extra };
}

export function phrase(f: GatewayFailure, a: Audience): string {
  const server = f.server ?? "";
  const ask = (what: string, args: string) =>
    a.who === "model"
      ? ` The user can ${what} with ${a.command(args)}.`
      : ` ${what[0]!.toUpperCase()}${what.slice(1)} with ${a.command(args)}.`;
  switch (f.code) {
    case "SERVER_DISABLED":
      return f.message + ask("turn it on", `enable ${server}`);
    case "NOT_APPROVED":
      return a.who === "model"
        ? `${f.message}, which the user has not approved. The user can review and approve it with ${a.command("approve")}.`
        : `${f.message}, which you have not approved. Review it, then approve it with ${a.command("approve")}.`;
    case "START_FAILED":
    case "COOLING_DOWN":
      return f.message + ask("retry after fixing it", `connect ${server}`);
    default:
      return f.message;
  }
}
