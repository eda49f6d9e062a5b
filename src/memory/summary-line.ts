/**
 * A summary line's label: `- e123 correction: ` or `- e7 asked (x3): ` (extractive.ts writes
 * them). What the line says is the text after it.
 */
const LABEL = /^- e\d+ [\w ]+(?: \(x\d+\))?: /;

/** A summary line without its label; any other text as it is. */
export function lineBody(text: string): string {
  return text.replace(LABEL, "");
}
