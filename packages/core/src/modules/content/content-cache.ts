import type { TDb } from '../../db/kysely.ts';
import {
  ContentStateReader,
  msUntilNextVisibilityChange,
  type TLiveFields,
  type TViewCountedTable,
} from './content.repository.ts';
import { ReadLimiter, type TReader } from './read-limiter.ts';
import { computeAtVersion } from './replica-reads.ts';
import type { ReadReplica } from '../../db/read-replica.ts';
import { SerializedForm } from './serialized-answer.ts';

/**
 * A per-process cache of answers computed from a tenant's public content (vacancy pages, facets, details,
 * locations, articles), exact across any number of API processes:
 *
 * - every read first asks the database for the tenant's content version (one trivial query, which also
 *   returns the current view counts of the cached rows, and which concurrent requests share — see
 *   `ContentStateReader`); an entry is used only if it was computed at that version, so a committed change — an
 *   import, a reported canonical URL, a hand-written UPDATE in psql — is seen by the very next request of every
 *   process;
 * - an entry never outlives the next moment a vacancy or an article becomes visible or hidden by time alone
 *   (`published_at` / `ends_at` / `expires_at` passing), nor `MAX_AGE_MS`;
 * - view counts (and vacancies' reported canonical URLs) are not part of the entry: they come fresh with the
 *   version, so they are as current as the batched counter has written them (at most a second late), never as
 *   old as the entry — and reporting a URL does not throw the tenant's cache away.
 *
 * Misses for one key at one version share one computation. A miss that starts a computation needs a turn of the
 * reader's key from the `ReadLimiter` (beyond its share it waits briefly, then is refused with 429); a request
 * that joins a computation already running needs none, so a key's queue never delays another key's answers.
 *
 * Entries are evicted least recently used once their estimated size passes the byte budget, and each tenant
 * holds at most a share of it — max(1/4, 1/active tenants) — with its own entries going first when it churns,
 * so one tenant's flood of distinct questions cannot evict every other tenant's answers.
 */

const MAX_AGE_MS = 60_000;
const DEFAULT_MAX_BYTES = 24 * 1024 * 1024;

type TEntry = { version: string; expiresAt: number; value: unknown; ids: readonly number[]; bytes: number };

/** One tenant's entries, least recently used first, and their size. */
type TTenantEntries = { entries: Map<string, TEntry>; bytes: number };

/** What a cached read needs of its request: the tenant-scoped database, the tenant, and the reader (key, response). */
export type TContentReader = TReader & { db: TDb; tenant: { id: number } };

/** What a computation returns: the answer and the ids of the view-counted rows it shows. */
export type TComputed<T> = {
  value: T;
  viewIds?: readonly number[];
  /** Computed on the read replica: its live fields (view counts, canonical URLs) may be older than the primary's. */
  onReplica?: boolean;
};

export type TContentRead<T> = {
  /** Cache key within the tenant: everything the answer depends on besides the tenant's content. */
  key: string;
  /** The table whose live fields (view counts, canonical URLs) the answer shows, if any. */
  viewCounts?: TViewCountedTable;
  /** The answer depends on more than the content (an order by view count): computed for every read, never kept. */
  uncached?: boolean;
  /** Computes the answer with what the cache hands it (the version, the tenant's values shared at it). */
  compute: (computation: TComputation) => Promise<TComputed<T>>;
};

/**
 * What the cache hands a computation: the content version its answer is cached under (unset: not cached), and the
 * values shared by the computations of that version — the names every vacancy answer refers to, the total that
 * every page of a filter shows — each computed once per version and, like every entry, never kept past the next
 * time-driven visibility change.
 */
export type TComputation = {
  version: string | undefined;
  shared: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
};

/** The answer, and the live fields to show for its rows (absent when it was just computed, fields included). */
export type TContentAnswer<T> = { value: T; live?: Map<number, TLiveFields> };

export class ContentCache {
  readonly #maxBytes: number;
  readonly #reads: ReadLimiter;
  readonly #tenants = new Map<number, TTenantEntries>();
  readonly #pending = new Map<string, Promise<TComputed<unknown>>>();
  readonly #states = new ContentStateReader();
  /** Per tenant and version: when the next time-driven visibility change happens (local clock). */
  readonly #boundaries = new Map<number, { version: string; at: Promise<number> }>();
  #bytes = 0;
  #entryCount = 0;
  /** Reads answered from an entry, and reads that computed (or waited for) an answer. */
  hits = 0;
  misses = 0;

  readonly #replica: ReadReplica | undefined;

  constructor(options: { maxBytes?: number; reads?: ReadLimiter; replica?: ReadReplica } = {}) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.#reads = options.reads ?? new ReadLimiter();
    this.#replica = options.replica;
  }

  async read<T>(ctx: TContentReader, request: TContentRead<T>): Promise<TContentAnswer<T>> {
    const tenantId = ctx.tenant.id;
    if (this.#maxBytes === 0 || request.uncached) {
      this.misses++;
      return { value: (await this.#reads.run(ctx, () => request.compute(this.#computation(ctx, undefined)))).value };
    }
    const ids = this.#tenants.get(tenantId)?.entries.get(request.key)?.ids;
    const state = await this.#states.read(
      ctx.db,
      tenantId,
      request.viewCounts && ids ? { table: request.viewCounts, ids } : undefined,
    );
    const entry = this.#current(tenantId, request.key, state.version);
    if (entry) {
      this.hits++;
      return { value: entry.value as T, live: request.viewCounts ? state.live[request.viewCounts] : undefined };
    }
    this.misses++;
    const computed = await this.#computeOnce(
      ctx,
      request.key,
      state.version,
      async () => {
        const { value, onReplica } = await computeAtVersion(this.#replica, tenantId, state.version, () =>
          request.compute(this.#computation(ctx, state.version)),
        );
        return onReplica ? { ...value, onReplica } : value;
      },
      true,
    );
    // Reporting a canonical URL changes no content version, so a replica may pass the version check still showing
    // the old URL (and older view counts): an answer computed there gets the primary's live fields, as a hit does.
    if (computed.onReplica && request.viewCounts && computed.viewIds && computed.viewIds.length > 0) {
      const live = await this.#states.read(ctx.db, tenantId, { table: request.viewCounts, ids: computed.viewIds });
      return { value: computed.value, live: live.live[request.viewCounts] };
    }
    return { value: computed.value };
  }

  /** Drops every entry (tests; a process that wants to free memory). */
  clear(): void {
    this.#tenants.clear();
    this.#boundaries.clear();
    this.#bytes = 0;
    this.#entryCount = 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entryCount, bytes: this.#bytes };
  }

  /** Bytes held for one tenant (tests, diagnostics). */
  tenantBytes(tenantId: number): number {
    return this.#tenants.get(tenantId)?.bytes ?? 0;
  }

  /** The computation of a read at `version`: its shared values run in the turn the read already holds. */
  #computation(ctx: Pick<TContentReader, 'db' | 'tenant'>, version: string | undefined): TComputation {
    return {
      version,
      shared: async <T>(key: string, compute: () => Promise<T>): Promise<T> => {
        if (version === undefined || this.#maxBytes === 0) return compute();
        const fullKey = `shared\u0000${key}`;
        const entry = this.#current(ctx.tenant.id, fullKey, version);
        if (entry) return entry.value as T;
        return (await this.#computeOnce(ctx, fullKey, version, async () => ({ value: await compute() }), false)).value;
      },
    };
  }

  /** The entry under `key` if it was computed at `version` and has not expired (it becomes the most recently used). */
  #current(tenantId: number, key: string, version: string): TEntry | undefined {
    const tenant = this.#tenants.get(tenantId);
    const entry = tenant?.entries.get(key);
    if (!tenant || !entry) return undefined;
    if (entry.version !== version || Date.now() >= entry.expiresAt) {
      this.#remove(tenantId, tenant, key, entry);
      return undefined;
    }
    tenant.entries.delete(key);
    tenant.entries.set(key, entry);
    return entry;
  }

  /**
   * Computes the answer of `key` at `version` once however many ask meanwhile, and keeps it while it is valid.
   * With `admit`, the computation runs in a turn of the reader's key; joining one that runs needs no turn.
   */
  async #computeOnce<T>(
    ctx: Pick<TContentReader, 'db' | 'tenant'> & Partial<TReader>,
    key: string,
    version: string,
    compute: () => Promise<TComputed<T>>,
    admit: boolean,
  ): Promise<TComputed<T>> {
    const tenantId = ctx.tenant.id;
    const pendingKey = `${tenantId}\u0000${key}\u0000${version}`;
    const pending = this.#pending.get(pendingKey) as Promise<TComputed<T>> | undefined;
    if (pending) return pending;
    const release = admit && ctx.apiKey && ctx.response ? await this.#reads.acquire(ctx as TReader) : undefined;
    // While this read waited for its turn, another may have started the same computation.
    const started = this.#pending.get(pendingKey) as Promise<TComputed<T>> | undefined;
    if (started) {
      release?.();
      return started;
    }
    const computation = (async () => {
      // The boundary is read before the answer: a visibility change between the two then expires the entry at once.
      const expiresAt = Math.min(await this.#nextBoundary(ctx.db, tenantId, version), Date.now() + MAX_AGE_MS);
      const computed = await compute();
      this.#store(tenantId, key, { version, expiresAt, value: computed.value, ids: computed.viewIds ?? [] });
      return computed;
    })();
    this.#pending.set(pendingKey, computation);
    const forget = () => {
      this.#pending.delete(pendingKey);
      release?.();
    };
    void computation.then(forget, forget);
    return computation;
  }

  #store(tenantId: number, key: string, entry: Omit<TEntry, 'bytes'>): void {
    const forms: SerializedForm[] = [];
    const bytes = estimateBytes(entry.value, forms);
    if (Date.now() >= entry.expiresAt || bytes > this.#maxBytes / 8) return;
    let tenant = this.#tenants.get(tenantId);
    if (!tenant) {
      tenant = { entries: new Map(), bytes: 0 };
      this.#tenants.set(tenantId, tenant);
    }
    const existing = tenant.entries.get(key);
    if (existing) this.#remove(tenantId, tenant, key, existing);
    const stored = { ...entry, bytes };
    tenant.entries.set(key, stored);
    tenant.bytes += bytes;
    this.#bytes += bytes;
    this.#entryCount++;
    // The answer's serialized bytes are made after it is stored (by the first read that wants them).
    for (const form of forms) form.reportSizeTo((grown) => this.#grow(tenantId, key, stored, grown));
    this.#evict(tenantId, tenant);
  }

  /** Counts bytes an entry gained after it was stored, if it is still held. */
  #grow(tenantId: number, key: string, entry: TEntry, bytes: number): void {
    const tenant = this.#tenants.get(tenantId);
    if (!tenant || tenant.entries.get(key) !== entry) return;
    entry.bytes += bytes;
    tenant.bytes += bytes;
    this.#bytes += bytes;
    this.#evict(tenantId, tenant);
  }

  /**
   * Keeps the tenant that just stored within its share, then the whole cache within the budget: first from the
   * storing tenant while it holds more than an equal part, then from whichever tenant holds the most.
   */
  #evict(tenantId: number, tenant: TTenantEntries): void {
    // The tenant itself counts as active even when the loop below empties it.
    const active = Math.max(1, this.#tenants.size);
    const share = Math.max(this.#maxBytes / 4, this.#maxBytes / active);
    const equalPart = this.#maxBytes / active;
    while (tenant.bytes > share) this.#removeOldest(tenantId, tenant);
    while (this.#bytes > this.#maxBytes) {
      const own = this.#tenants.get(tenantId);
      let victim: [number, TTenantEntries] | undefined = own && own.bytes > equalPart ? [tenantId, own] : undefined;
      if (!victim)
        for (const candidate of this.#tenants) if (!victim || candidate[1].bytes > victim[1].bytes) victim = candidate;
      if (!victim || victim[1].entries.size === 0) break;
      this.#removeOldest(...victim);
    }
  }

  #removeOldest(tenantId: number, tenant: TTenantEntries): void {
    const oldest = tenant.entries.entries().next().value;
    if (oldest) this.#remove(tenantId, tenant, oldest[0], oldest[1]);
  }

  #nextBoundary(db: TDb, tenantId: number, version: string): Promise<number> {
    const known = this.#boundaries.get(tenantId);
    if (known && known.version === version) {
      return known.at.then((at) => (Date.now() < at ? at : this.#refreshBoundary(db, tenantId, version)));
    }
    return this.#refreshBoundary(db, tenantId, version);
  }

  #refreshBoundary(db: TDb, tenantId: number, version: string): Promise<number> {
    const asked = Date.now();
    // Measured on the database's clock, applied on ours from before the question: never later than the change.
    const at = msUntilNextVisibilityChange(db).then((ms) => (ms === null ? Number.POSITIVE_INFINITY : asked + ms));
    this.#boundaries.set(tenantId, { version, at });
    at.catch(() => {
      if (this.#boundaries.get(tenantId)?.at === at) this.#boundaries.delete(tenantId);
    });
    return at;
  }

  #remove(tenantId: number, tenant: TTenantEntries, key: string, entry: TEntry): void {
    if (tenant.entries.get(key) !== entry) return;
    tenant.entries.delete(key);
    tenant.bytes -= entry.bytes;
    this.#bytes -= entry.bytes;
    this.#entryCount--;
    if (tenant.entries.size === 0) this.#tenants.delete(tenantId);
  }
}

/**
 * The key of an answer within its tenant: everything it depends on besides the tenant's content — the kind of
 * answer, the parsed request, and the tenant settings it is rendered with (labels' default language, URL pattern).
 */
export function contentKey(
  kind: string,
  tenant: { defaultLanguage: string; urlPattern: string | null },
  input: unknown,
): string {
  return JSON.stringify([kind, tenant.defaultLanguage, tenant.urlPattern, input]);
}

/**
 * Rough size in memory of a JSON-like value (UTF-16 text of its JSON, plus object overhead); Maps count their values,
 * serialized forms the bytes they hold (each is added to `forms`, if given, to count what it makes later). Walked, not
 * serialized: every miss stores an entry, and a replacer takes JSON.stringify off its fast path.
 */
export function estimateBytes(value: unknown, forms: SerializedForm[] = []): number {
  const known = forms.length;
  const length = jsonLength(value, forms);
  return length * 3 + forms.slice(known).reduce((sum, form) => sum + form.bytes, 0);
}

/** About the length of `value`'s JSON (escapes not counted), its serialized forms left out and added to `forms`. */
function jsonLength(value: unknown, forms: SerializedForm[]): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null)
    return typeof value === 'number' || typeof value === 'boolean' || value === null ? 8 : 0;
  if (value instanceof SerializedForm) {
    forms.push(value);
    return 0;
  }
  let length = 2;
  if (Array.isArray(value) || value instanceof Map) {
    for (const item of value instanceof Map ? value.values() : value) length += jsonLength(item, forms) + 1;
    return length;
  }
  if (value instanceof Date) return 26;
  // Typed arrays (shared id sets) hold their bytes, not JSON; divided by the factor `estimateBytes` multiplies by.
  if (ArrayBuffer.isView(value)) return Math.ceil(value.byteLength / 3);
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) length += key.length + 4 + jsonLength(item, forms);
  }
  return length;
}
