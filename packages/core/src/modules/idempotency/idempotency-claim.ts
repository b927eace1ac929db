import { randomBytes } from 'node:crypto';

/**
 * An Idempotency-Key that an operation stores in its OWN statement (meta `idempotent: 'one-statement'`), instead of
 * a transaction around it (claim, operation, stored response, commit). The statement writes nothing when a record
 * of the key exists (`recordAbsent`), and inserts the record with the operation's response (`insertClaimedRecord`).
 * Its insert has no ON CONFLICT: when a concurrent request with the same key commits its record first, the insert
 * fails and the whole statement with it, so nothing is stored twice; the operation then declines and runs again in
 * the key's transaction, which replays the record.
 *
 * The response is rendered before the statement runs, with markers where a value only the statement knows goes
 * (ids, the creation time); the statement splices each value in (`splicedBody`, idempotency.repository.ts). The response sent is the stored body
 * itself, so it is byte-for-byte what every replay will send.
 */

/** Unguessable per process: no text of a request can be taken for a marker. */
const MARKER_PREFIX = `splice-${randomBytes(12).toString('hex')}-`;

/** The text that stands for `name` in a rendered response. */
export function markerOf(name: string): string {
  return `${MARKER_PREFIX}${name}`;
}

/** What an operation throws when it cannot store its record in its own statement this time. */
export class ClaimDeclined extends Error {
  constructor() {
    super('the operation runs in the idempotency key transaction instead');
  }
}

/** The record's parts a statement binds (see StatementTemplate: each is read from a run's arguments). */
export type TClaimValues = {
  apiKeyId: number;
  operation: string;
  key: string;
  hash: string;
  status: number;
  headers: string;
};

export class IdempotencyClaim {
  readonly values: TClaimValues;
  #storedBody: string | undefined;

  constructor(values: TClaimValues) {
    this.values = values;
  }

  /** Whether the operation's statement stored the record (and so its response). */
  get stored(): boolean {
    return this.#storedBody !== undefined;
  }

  /** Stands, in a rendered response, for the value the statement splices in under `name`. */
  marker<T>(name: string): T {
    return markerOf(name) as T;
  }

  /** A Date that stands for `name`: responses format times with toISOString, and this one gives the marker. */
  dateMarker(name: string): Date {
    const marker = this.marker<string>(name);
    return Object.assign(new Date(0), { toISOString: () => marker });
  }

  /** The response as the template the statement stores (JSON text with markers). */
  render(body: unknown): string {
    return JSON.stringify(body);
  }

  decline(): never {
    throw new ClaimDeclined();
  }

  /** Takes the body the statement stored: the response, as its replays will parse it. */
  accept(storedBody: string): unknown {
    if (storedBody.includes(MARKER_PREFIX))
      throw new Error('a stored response kept a marker the statement did not splice');
    this.#storedBody = storedBody;
    return JSON.parse(storedBody);
  }
}

/** Whether a statement failed on the key's record (another request's committed first) or a lock cycle around it. */
export function isClaimConflict(error: unknown): boolean {
  const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
  return (code === '23505' && constraint === 'idempotency_records_api_key_id_operation_key_unique') || code === '40P01';
}
