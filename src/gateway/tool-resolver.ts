/**
 * From a name the model wrote to one server's tool: "server/tool", "server__tool" (the exposed
 * name), or a tool name only one server has. Unknown names get the closest tools.
 */
import type { Result } from "../errors.ts";
import { exposedName } from "./exposed-tools.ts";
import { type GatewayFailure, gatewayFail } from "./phrasing.ts";
import type { ServerPool } from "./server-pool.ts";
import type { ServerSpec } from "./server-spec.ts";
import { describeRef, searchTools, type ToolRef } from "./tool-search.ts";

export type ToolTarget = { spec: ServerSpec; tool: string };

/** Every tool of the enabled servers (starting servers never listed); problems say which could not start. */
export async function listRefs(pool: ServerPool, only?: string): Promise<{ refs: ToolRef[]; problems: string[] }> {
  const refs: ToolRef[] = [];
  const problems: string[] = [];
  for (const s of pool.active()) {
    if (only && s.name !== only) continue;
    let tools = pool.knownTools(s);
    if (!tools) {
      try {
        tools = await pool.liveTools(s);
      } catch (error) {
        problems.push(pool.startFailure(s, error).message);
        continue;
      }
    }
    for (const tool of tools) refs.push({ server: s.name, tool });
  }
  return { refs, problems };
}

export async function resolveTool(pool: ServerPool, name: string): Promise<Result<ToolTarget, GatewayFailure>> {
  const slash = name.indexOf("/");
  if (slash > 0) {
    const found = pool.lookup(name.slice(0, slash));
    return found.ok ? { ok: true, spec: found.spec, tool: name.slice(slash + 1) } : found;
  }
  for (const s of pool.specs.values()) {
    for (const t of pool.knownTools(s) ?? []) {
      if (exposedName(s.name, t.name) !== name) continue;
      return pool.isEnabled(s.name) ? { ok: true, spec: s, tool: t.name } : pool.missing(s.name);
    }
  }
  const { refs } = await listRefs(pool);
  const owners = refs.filter((r) => r.tool.name === name);
  if (owners.length === 1) return { ok: true, spec: pool.specs.get(owners[0]!.server)!, tool: name };
  if (owners.length > 1) {
    return gatewayFail(
      "AMBIGUOUS_TOOL",
      `Several servers have "${name}": ${owners.map((r) => `${r.server}/${name}`).join(", ")}. Name one.`,
    );
  }
  const close = searchTools(refs, name.replace(/__/g, " "), 3).map(describeRef);
  return gatewayFail("NO_SUCH_TOOL", `No MCP tool "${name}".${close.length ? ` Closest:\n${close.join("\n")}` : ""}`);
}
