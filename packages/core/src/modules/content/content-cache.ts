import type { TDb } from '../../db/kysely.ts';
import { ContentStateReader, msUntilNextVisibilityChange, type TLiveFields, type TViewCountedTable } from './content.repository.ts';

/**
 * A per-process cache of answers computed from a tenant's public content (vacancy pages, facets, details,
 * locations), exact across any number of API processes:
 *
 * - every read first asks the database for the tenant's content version (one trivial query, which also
 *   returns the current view counts of the cached rows, and which concurrent requests share — see
 *   `ContentStateReader`); an entry is used only if it was computed at that version, so a committed change — an
 *   import, a reported canonical URL, a hand-written UPDATE in psql — is seen by the very next request of every
 *   process;
 * - an entry never outlives the next moment a vacancy becomes visible or hidden by time alone
 *   (`published_at` / `ends_at` passing), nor `MAX_AGE_MS`;
 * - view counts (and vacancies' reported canonical URLs) are not part of the entry: they come fresh with the
 *   version, so they are as current as the batched counter has written them (at most a second late), never as
 *   old as the entry — and reporting a URL does not throw the tenant's cache away.
 *
 * Misses for one key at one version share one computation. Entries are evicted least recently used once their
 * estimated size passes the byte budget.
 */

const MAX_AGE_MS = 60_000;
const DEFAULT_MAX_BYTES = 24 * 1024 * 1024;

type TEntry = { version: string; expiresAt: number; value: unknown; ids: readonly number[]; bytes: number };

/** What a computation returns: the answer and the ids of the view-counted rows it shows. */
export type TComputed<T> = { value: T; viewIds?: readonly number[] };

export type TContentRead<T> = {
  /** Cache key within the tenant: everything the answer depends on besides the tenant's content. */
  key: string;
  /** The table whose live fields (view counts, canonical URLs) the answer shows, if any. */
  viewCounts?: TViewCountedTable;
  /** Computes the answer; `version` is the content version it will be cached under (unset: not cached). */
  compute: (version: string | undefined) => Promise<TComputed<T>>;
};

/** The answer, and the live fields to show for its rows (absent when it was just computed, fields included). */
export type TContentAnswer<T> = { value: T; live?: Map<number, TLiveFields> };

export class ContentCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, TEntry>();
  readonly #pending = new Map<string, Promise<TComputed<unknown>>>();
  readonly #states = new ContentStateReader();
  /** Per tenant and version: when the next time-driven visibility change happens (local clock). */
  readonly #boundaries = new Map<string, { version: string; at: Promise<number> }>();
  #bytes = 0;
  /** Reads answered from an entry, and reads that computed (or waited for) an answer. */
  hits = 0;
  misses = 0;

  constructor(options: { maxBytes?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  async read<T>(db: TDb, tenantId: number, request: TContentRead<T>): Promise<TContentAnswer<T>> {
    if (this.#maxBytes === 0) {
      this.misses++;
      return { value: (await request.compute(undefined)).value };
    }
    const key = `${tenantId}\u0000${request.key}`;
    const ids = this.#entries.get(key)?.ids;
    const state = await this.#states.read(db, tenantId, request.viewCounts && ids ? { table: request.viewCounts, ids } : undefined);
    const entry = this.#current(key, state.version);
    if (entry) {
      this.hits++;
      return { value: entry.value as T, live: request.viewCounts ? state.live[request.viewCounts] : undefined };
    }
    this.misses++;
    const computed = await this.#computeOnce(db, tenantId, key, state.version, () => request.compute(state.version));
    return { value: computed.value };
  }

  /** Drops every entry (tests; a process that wants to free memory). */
  clear(): void {
    this.#entries.clear();
    this.#boundaries.clear();
    this.#bytes = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /**
   * A value shared by the computations of one tenant at one content version (the names every vacancy answer
   * refers to, the total of a filter that every page of it shows), computed once per version and, like every
   * entry, never kept past the next time-driven visibility change. `version` comes from the `compute` of a `read`.
   */
  async shared<T>(db: TDb, tenantId: number, key: string, version: string | undefined, compute: () => Promise<T>): Promise<T> {
    if (version === undefined || this.#maxBytes === 0) return compute();
    const fullKey = `${tenantId}\u0000shared\u0000${key}`;
    const entry = this.#current(fullKey, version);
    if (entry) return entry.value as T;
    return (await this.#computeOnce(db, tenantId, fullKey, version, async () => ({ value: await compute() }))).value;
  }

  /** The entry under `key` if it was computed at `version` and has not expired (it becomes the most recently used). */
  #current(key: string, version: string): TEntry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || Date.now() >= entry.expiresAt) {
      this.#remove(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Computes the answer of `key` at `version` once however many ask meanwhile, and keeps it while it is valid. */
  #computeOnce<T>(db: TDb, tenantId: number, key: string, version: string, compute: () => Promise<TComputed<T>>): Promise<TComputed<T>> {
    const pendingKey = `${key}\u0000${version}`;
    const pending = this.#pending.get(pendingKey) as Promise<TComputed<T>> | undefined;
    if (pending) return pending;
    const computation = (async () => {
      // The boundary is read before the answer: a visibility change between the two then expires the entry at once.
      const expiresAt = Math.min(await this.#nextBoundary(db, tenantId, version), Date.now() + MAX_AGE_MS);
      const computed = await compute();
      this.#store(key, { version, expiresAt, value: computed.value, ids: computed.viewIds ?? [] });
      return computed;
    })();
    this.#pending.set(pendingKey, computation);
    const forget = () => this.#pending.delete(pendingKey);
    void computation.then(forget, forget);
    return computation;
  }

  #store(key: string, entry: Omit<TEntry, 'bytes'>): void {
    const bytes = estimateBytes(entry.value);
    if (Date.now() >= entry.expiresAt || bytes > this.#maxBytes / 8) return;
    const existing = this.#entries.get(key);
    if (existing) this.#remove(key, existing);
    this.#entries.set(key, { ...entry, bytes });
    this.#bytes += bytes;
    this.#evict();
  }

  #nextBoundary(db: TDb, tenantId: number, version: string): Promise<number> {
    const key = String(tenantId);
    const known = this.#boundaries.get(key);
    if (known && known.version === version) {
      return known.at.then((at) => (Date.now() < at ? at : this.#refreshBoundary(db, key, version)));
    }
    return this.#refreshBoundary(db, key, version);
  }

  #refreshBoundary(db: TDb, key: string, version: string): Promise<number> {
    const asked = Date.now();
    // Measured on the database's clock, applied on ours from before the question: never later than the change.
    const at = msUntilNextVisibilityChange(db).then((ms) => (ms === null ? Number.POSITIVE_INFINITY : asked + ms));
    this.#boundaries.set(key, { version, at });
    at.catch(() => {
      if (this.#boundaries.get(key)?.at === at) this.#boundaries.delete(key);
    });
    return at;
  }

  #remove(key: string, entry: TEntry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  #evict(): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#remove(key, entry);
    }
  }
}

/**
 * The key of an answer within its tenant: everything it depends on besides the tenant's content — the kind of
 * answer, the parsed request, and the tenant settings it is rendered with (labels' default language, URL pattern).
 */
export function contentKey(kind: string, tenant: { defaultLanguage: string; urlPattern: string | null }, input: unknown): string {
  return JSON.stringify([kind, tenant.defaultLanguage, tenant.urlPattern, input]);
}

/** Rough size in memory of a JSON-like value (UTF-16 text of its JSON, plus object overhead); Maps count their values. */
export function estimateBytes(value: unknown): number {
  const json = JSON.stringify(value, (_key, entry: unknown) => (entry instanceof Map ? [...entry.values()] : entry));
  return (json?.length ?? 0) * 3;
}

