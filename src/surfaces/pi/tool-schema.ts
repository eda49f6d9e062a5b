/** A tool's neutral parameter spec (tools/definitions.ts) as the TypeBox schema pi registers. */
import type { TSchema } from "typebox";
import { described, type ToolSpec } from "../tools/definitions.ts";
import type { PiHost } from "./host.ts";

export function typeboxParams({ Type }: PiHost, spec: ToolSpec): TSchema {
  const props: Record<string, TSchema> = {};
  for (const [name, p] of Object.entries(spec.params)) {
    const opts = {
      ...described(p),
      ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
      ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    };
    const schema =
      p.type === "string[]"
        ? Type.Array(Type.String(), described(p))
        : p.type === "string"
          ? Type.String({ ...opts, ...(p.values ? { enum: [...p.values] } : {}) })
          : p.type === "integer"
            ? Type.Integer(opts)
            : Type.Boolean(opts);
    props[name] = p.required ? schema : Type.Optional(schema);
  }
  return Type.Object(props);
}
