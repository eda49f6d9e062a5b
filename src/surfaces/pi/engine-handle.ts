/** How the extension's parts reach the engine: started on first use, or why it cannot run. */
import type { Engine } from "../../engine.ts";

export type EngineHandle = {
  /** The engine, started on first use; null when it cannot run (`problem()` says why). */
  get(): Promise<Engine | null>;
  problem(): string;
};
