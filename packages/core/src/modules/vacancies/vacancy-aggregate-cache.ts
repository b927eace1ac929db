/**
 * A short-lived, per-process memo of the expensive vacancy aggregates (list totals and facet counts).
 *
 * Both scan every matching vacancy (85 000 rows for an unfiltered list of a 100 000-vacancy tenant), while
 * career sites ask the same few questions over and over. Entries are keyed by the tenant's data version
 * (see `tenantDataVersion` in the repository: an import rewrites the tenant row), so a new import is seen
 * at once; the TTL bounds the lag of changes that no write announces, such as a vacancy whose
 * `published_at` or `ends_at` just passed — at most about a second, like batched view counts.
 * Concurrent misses for one key share one computation.
 */
export class VacancyAggregateCache {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { expiresAt: number; value: Promise<unknown> }>();

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
  }

  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > now) return entry.value as Promise<T>;
    if (entry) this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#evictExpiredOrOldest(now);
    const value = compute();
    this.#entries.set(key, { expiresAt: now + this.#ttlMs, value });
    // A failed computation is not remembered: the next request tries again.
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }

  #evictExpiredOrOldest(now: number): void {
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    // Map iteration is insertion order: drop the oldest entries until there is room again.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}

/** The process-wide cache the vacancy reads share. */
export const vacancyAggregates = new VacancyAggregateCache({ ttlMs: 1_000, maxEntries: 2_000 });
