/**
 * Schema variants for attributing capture cost, all derived from the real migration so they
 * follow it: the floor (blobs + chunks tables, no full-text index, no triggers) and the real
 * schema with only one of its two full-text indexes maintained by the insert trigger.
 */
import contextStore from "../src/db/migrations/001-context-store.sql" with { type: "text" };

export type SchemaVariant = "floor" | "words-only" | "trigrams-only";

function table(name: string): string {
  const m = new RegExp(`CREATE TABLE ${name} \\([\\s\\S]*?\\n\\);`).exec(contextStore);
  if (!m) throw new Error(`bench: cannot find "CREATE TABLE ${name}" in the migration; update bench/schemas.ts`);
  return m[0];
}

const TRIGGER = /CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN\n([\s\S]*?)END;/;

/** The chunks table exactly as migrated (with the blobs table it references), and nothing else. */
export function floorSchema(): string {
  return `${table("blobs")}\n${table("chunks")}\n`;
}

/** The real schema with the insert trigger keeping only the lines that mention `keep`. */
function oneIndex(keep: string): string | null {
  const m = TRIGGER.exec(contextStore);
  if (!m) return null;
  const body = m[1]!
    .split("\n")
    .filter((l) => l.trim() === "" || l.includes(keep))
    .join("\n");
  if (!body.includes(keep)) return null;
  return contextStore.replace(TRIGGER, `CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN\n${body}END;`);
}

/** Migrations for a variant, or null when the schema no longer has that shape. */
export function variantMigrations(variant: SchemaVariant): string[] | null {
  if (variant === "floor") return [floorSchema()];
  const sql = oneIndex(variant === "words-only" ? "INSERT INTO chunks_words " : "INSERT INTO chunks_trigrams ");
  return sql ? [sql] : null;
}
