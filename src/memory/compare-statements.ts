/**
 * How an older statement relates to a newer one (supersede.ts decides which it replaces): the
 * weight of the subject they share, whether the newer one rejects a value the older one holds,
 * whether a value was swapped for one of its kind, and whether each is about something the other
 * does not name.
 */
import { keysWithAsides, partKeys, rejectedIn, type Statement, saysInAsides, statementOf, tokenKeys, valueLike } from "./classify.ts";

export type Weigh = (key: string) => number;

/** An identifier holds another as one of its parts: between separators (/ : @ = ...) or at its ends. */
function within(whole: string, part: string): boolean {
  if (whole === part || part.length < 4 || !valueLike(whole)) return false;
  const at = whole.indexOf(part);
  if (at < 0) return false;
  const edge = (c: string | undefined) => c === undefined || /[/:@=#~$+]/.test(c);
  return edge(whole[at - 1]) && edge(whole[at + part.length]);
}

/**
 * Each is about something the other does not name: the first word of each subject is missing
 * from the other and the newer one's names something older statements speak of ("the mailer
 * service ..." and "the ledger service ...": both known things); or, unless the newer one says
 * it corrects (stored as a correction) and shares enough of the older one, each subject has two
 * words the other lacks ("the billing service database ..." and "the rate limiter stores ...").
 * A word no older statement holds cannot name another thing the memory knows ("raise the sess
 * cache TTL" after "session cache: TTL 30m"), and the first three words of a chatty sentence are
 * often not its subject ("btw merges to main need ... Dana" and "Dana moved teams ...").
 */
export function otherSubjects(
  newer: Statement,
  oldSubject: readonly string[],
  old: Set<string>,
  known: (k: string) => boolean,
  corrects: boolean,
): boolean {
  if (newer.subject.length === 0 || oldSubject.length === 0) return false;
  if (!old.has(newer.subject[0]!) && !newer.keys.has(oldSubject[0]!)) return known(newer.subject[0]!);
  if (corrects) return false;
  const mine = newer.subject.filter((k) => !old.has(k)).length;
  const theirs = oldSubject.filter((k) => !newer.keys.has(k)).length;
  return mine >= Math.min(2, newer.subject.length) && theirs >= Math.min(2, oldSubject.length) && newer.subject.length >= 2;
}

/**
 * How an older statement relates to a newer one: the weight of the subject they share (rare
 * words and identifiers weigh most) against the shorter of the two, whether the newer one
 * rejects a value the older one holds, and whether a value was swapped for one of its kind.
 */
export function compare(newer: Statement, newerText: string, oldText: string, weigh: Weigh) {
  const ownRejected = statementOf(oldText, "").rejected;
  // A newer statement that says its subject in its asides (saysInAsides) is compared with the older one's asides too.
  const oldKeys = saysInAsides(newerText) ? keysWithAsides(oldText) : tokenKeys(oldText);
  const old = new Set([...oldKeys].filter((k) => !ownRejected.has(k)));
  // A rejected identifier the older statement writes inside a longer one ("tp-raw-prod" in
  // "s3://tp-raw-prod/<source>/"): it holds that value.
  for (const r of newer.rejected) if (valueLike(r) && !old.has(r) && [...old].some((k) => within(k, r))) old.add(r);
  let shared = 0;
  let sharedKeys = 0;
  let sharedIds = 0;
  // A word both hold only inside identifiers (a project's name in its domains) is no shared word.
  const newerParts = partKeys(newerText);
  const oldParts = partKeys(oldText);
  for (const k of newer.keys) {
    if (!old.has(k) || newer.rejected.has(k) || (newerParts.has(k) && oldParts.has(k))) continue;
    shared += weigh(k);
    sharedKeys++;
    if (valueLike(k)) sharedIds++;
  }
  // How much of each is subject (values are expected to differ: they are not counted).
  let oldWeight = 0;
  for (const k of old) if (!valueLike(k)) oldWeight += weigh(k);
  let newWeight = 0;
  let sharedWords = 0;
  for (const k of newer.keys) {
    if (valueLike(k) || newer.rejected.has(k)) continue;
    newWeight += weigh(k);
    if (old.has(k)) sharedWords += weigh(k);
  }
  const held = new Set([...newer.rejected].filter((r) => rejectedIn(newer, r, old, oldText)));
  const rejects = held.size > 0;
  const sameRejection = [...newer.rejected].some((r) => ownRejected.has(r));
  // It already says everything the newer one asserts.
  const asserted = [...newer.asserted].filter((a) => !newer.rejected.has(a));
  const holdsNew = asserted.length > 0 && asserted.every((a) => old.has(a));
  const fresh = [...newer.keys].filter((k) => !old.has(k) && !newer.rejected.has(k)).length;
  const gone = [...old].filter((k) => !newer.keys.has(k));
  // A new value in place of an old one of the same shape (20GB and 50GB, 1.74 and 1.79, 24h and
  // 12h) or naming the same thing (TIDE_PROD and TIDE_MAIN, registry.internal:8081 and schemas.internal:8085).
  const shape = (k: string) => k.replace(/\d+/g, "#");
  const parts = (k: string): string[] => k.match(/\p{L}{3,}/gu) ?? [];
  const oldValues = gone.filter(valueLike);
  const valueSwap = [...newer.keys].some(
    (k) =>
      valueLike(k) &&
      !old.has(k) &&
      oldValues.some((g) => (/\d/.test(k) && shape(g) === shape(k)) || parts(g).some((w) => parts(k).includes(w))),
  );
  const share = sharedWords / Math.max(1e-9, Math.min(oldWeight, newWeight));
  return { old, held, shared, share, sharedKeys, sharedIds, rejects, sameRejection, holdsNew, fresh, gone, valueSwap };
}
