/**
 * The memory service of one checkout's code (its src/, imported from CHECKOUT) on a database kept
 * by scale.ts, as scale.ts makes it (retention off, the real tokenizer) with its clock fixed: for
 * comparing two checkouts on the same data (recall-cpu.ts, recall-ab.ts).
 */
export type CheckoutService = {
  handle: (request: unknown) => Promise<unknown>;
  close: () => void;
};

export async function checkoutService(root: string, path: string): Promise<CheckoutService> {
  const { defaultConfig } = await import(`${root}/src/config.ts`);
  const { MIGRATIONS } = await import(`${root}/src/db/migrations.ts`);
  const { openDatabase } = await import(`${root}/src/db/open.ts`);
  const { createMemoryService } = await import(`${root}/src/memory/service.ts`);
  const { countTokens } = await import(`${root}/src/tokens/count.ts`);
  const db = openDatabase(path, { migrations: MIGRATIONS });
  const config = defaultConfig({ HOME: "/nonexistent" });
  config.db = path;
  config.memory.keepDays = 0;
  const service = createMemoryService({
    db,
    config,
    now: () => Date.UTC(2026, 5, 1),
    count: async (texts: string[]) => texts.reduce((n: number, t: string) => n + countTokens(t), 0),
  });
  return { handle: (request) => service.handle(request), close: () => db.close() };
}
