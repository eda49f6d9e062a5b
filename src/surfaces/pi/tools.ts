/** The context tools in pi: the shared tool specs (surfaces/tools) as pi tools with TypeBox parameters. */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { PI_TOOLS } from "../tools/definitions.ts";
import { runTool, type ToolScope } from "../tools/handlers.ts";
import type { EngineHandle } from "./engine-handle.ts";
import type { PiHost } from "./host.ts";
import { typeboxParams } from "./tool-schema.ts";

export function registerContextTools(
  pi: ExtensionAPI,
  host: PiHost,
  engine: EngineHandle,
  scope: (ctx: ExtensionContext) => ToolScope,
): void {
  for (const spec of PI_TOOLS) {
    pi.registerTool({
      name: spec.name,
      label: spec.label,
      description: spec.description,
      parameters: typeboxParams(host, spec),
      async execute(_id, params, _signal, _onUpdate, ctx) {
        const e = await engine.get();
        if (!e) throw new Error(`pi-sidecar is unavailable (${engine.problem()}).`);
        const outcome = await runTool(e, spec.name, params as Record<string, unknown>, scope(ctx));
        if (outcome.isError) throw new Error(outcome.text);
        return { content: [{ type: "text", text: outcome.text }], details: outcome.details };
      },
    });
  }
}
