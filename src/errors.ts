/**
 * Expected failures are values; bugs and I/O faults throw one small AppError.
 * Surfaces translate both at their edge (CLI exit code, MCP isError, JSON-RPC error).
 */
export type Failure = { ok: false; code: string; message: string };
export type Result<T, F extends Failure = Failure> = ({ ok: true } & T) | F;

export function fail(code: string, message: string): Failure {
  return { ok: false, code, message };
}

export class AppError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
