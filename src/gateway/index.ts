/**
 * The public face of the MCP gateway: everything outside src/gateway/ (the engine, surfaces, maintenance)
 * imports from here, never from its files (test/architecture.test.ts checks it). The `load…`
 * functions load a module on first use, so a start pays only for what it calls.
 */
export { type GatewayDefinitions, gatewayDefinitions } from "./definition-tokens.ts";
export type { Gateway } from "./gateway.ts";
export { openGateway } from "./open-gateway.ts";
export { CLI_MODEL, CLI_USER, PI_MODEL, PI_USER, phrase } from "./phrasing.ts";
export { toPiContent } from "./result.ts";
export { formatList, runServersCommand, serversUsage } from "./servers-command.ts";
