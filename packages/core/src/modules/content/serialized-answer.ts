import { hash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { TLiveFields } from './content.repository.ts';

/**
 * An answer in its final bytes, for a transport that writes JSON as is (the REST facade asks for these with
 * `TContext.serializedAnswers`). It was validated against `schema` when it was made, so a hit is neither serialized
 * nor validated again. `etag` is CONTRACT's weak ETag: over the bytes without their view counters.
 */
export class SerializedAnswer {
  readonly body: Buffer;
  readonly etag: string;
  readonly schema: z.ZodType;

  constructor(body: Buffer, etag: string, schema: z.ZodType) {
    this.body = body;
    this.etag = etag;
    this.schema = schema;
  }
}

/** Rough size of a Buffer object beside its bytes, and of a counter's record (for the cache's byte budget). */
const BUFFER_OVERHEAD = 96;
const COUNTER_OVERHEAD = 48;

/** Output schemas compiled ahead of time: zod's fast path, with the runtime parser (same output, same issues) behind it. */
const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

function compiled(schema: z.ZodType): z.ZodType {
  let fast = compiledSchemas.get(schema);
  if (!fast) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast;
}

/** Unguessable (and never sent: it is cut out), so no text of an answer can be mistaken for it. */
const COUNTER_PLACEHOLDER = `views:${randomBytes(12).toString('hex')}`;

/** A property named `views_count` (inside a string its quotes would be escaped, so it cannot occur there). */
const VIEW_COUNTER = 'views_count';

/**
 * The JSON text of an answer, validated once, cut where its view counters go: they change with every view and are
 * spliced in per request from the live fields of the content version check; everything else is bytes made once.
 */
export class CountedJson {
  /** One more than the counters: the text around them. */
  readonly #parts: Buffer[];
  /** Per counter, in order: the row it counts and the count it had when the answer was made. */
  readonly #counters: Array<{ id: number; views: number }>;
  readonly #schema: z.ZodType;
  /** The answer of a text without counters: the same every time. */
  #uncounted: SerializedAnswer | undefined;
  /** The last answer rendered, with its counts: while no count changes, it is served again (no bytes copied). */
  #last: { views: number[]; answer: SerializedAnswer } | undefined;
  readonly etag: string;

  private constructor(parts: Buffer[], counters: Array<{ id: number; views: number }>, schema: z.ZodType) {
    this.#parts = parts;
    this.#counters = counters;
    this.#schema = schema;
    this.etag = `W/"${hash('sha1', Buffer.concat(parts), 'base64url')}"`;
  }

  /** The answer as `schema` outputs it (field order, unknown keys dropped: exactly what tRPC would have serialized). */
  static of(answer: unknown, schema: z.ZodType): CountedJson {
    const counters: Array<{ id: number; views: number }> = [];
    const json = JSON.stringify(compiled(schema).parse(answer), function (this: { id?: unknown }, key, value: unknown) {
      if (key !== VIEW_COUNTER || typeof value !== 'number' || typeof this.id !== 'number') return value;
      counters.push({ id: this.id, views: value });
      return COUNTER_PLACEHOLDER;
    });
    const parts = json.split(`"${VIEW_COUNTER}":"${COUNTER_PLACEHOLDER}"`);
    if (parts.length !== counters.length + 1)
      throw new Error('An answer held a view-counter placeholder it did not get from its counters');
    return new CountedJson(
      parts.map((part) => Buffer.from(part)),
      counters,
      schema,
    );
  }

  /**
   * Bytes held: the text around the counters (and each buffer's own object), the counters, the ETag, and for an
   * answer with counters the last rendered one (about the same text again).
   */
  get bytes(): number {
    const text = this.#parts.reduce((sum, part) => sum + part.byteLength + BUFFER_OVERHEAD, 0);
    const rendered = this.#counters.length === 0 ? 0 : text + this.#counters.length * COUNTER_OVERHEAD;
    return text + rendered + this.#counters.length * COUNTER_OVERHEAD + this.etag.length;
  }

  /** The answer's bytes with the live view counts (`live` absent or without a row: the counts it was made with). */
  render(live: Map<number, TLiveFields> | undefined): SerializedAnswer {
    if (this.#counters.length === 0)
      return (this.#uncounted ??= new SerializedAnswer(this.#parts[0]!, this.etag, this.#schema));
    const views = this.#counters.map((counter) => live?.get(counter.id)?.views_count ?? counter.views);
    const last = this.#last;
    if (last && last.views.every((count, index) => count === views[index])) return last.answer;
    const chunks: Buffer[] = [this.#parts[0]!];
    views.forEach((count, index) => {
      chunks.push(Buffer.from(`"${VIEW_COUNTER}":${count}`), this.#parts[index + 1]!);
    });
    const answer = new SerializedAnswer(Buffer.concat(chunks), this.etag, this.#schema);
    this.#last = { views, answer };
    return answer;
  }
}

/**
 * The serialized form of one cached answer for what it depends on besides its content and view counts (live
 * canonical URLs, the request's URL in pagination links): kept for the last such key, made again when it changes.
 */
export class SerializedForm {
  #key: string | undefined;
  #json: CountedJson | undefined;
  /** Told by how many bytes the form grew or shrank: the cache that holds it counts them in its budget. */
  #resized: ((bytes: number) => void) | undefined;

  /** Bytes held: the serialized text and the key it was made for. */
  get bytes(): number {
    return (this.#json?.bytes ?? 0) + (this.#key?.length ?? 0);
  }

  /** Reports every later change of `bytes` to `resized`. */
  reportSizeTo(resized: (bytes: number) => void): void {
    this.#resized = resized;
  }

  get(key: string, make: () => CountedJson): CountedJson {
    if (this.#json === undefined || this.#key !== key) {
      const before = this.bytes;
      this.#json = make();
      this.#key = key;
      this.#resized?.(this.bytes - before);
    }
    return this.#json;
  }
}

/** What a read needs to know about its transport: whether it writes serialized answers as is. */
export type TAnswerTransport = { serializedAnswers?: boolean | undefined };

/**
 * The answer as the transport takes it: the bytes for one that writes them as is (REST), else the object (tRPC
 * callers; their output is validated as usual). `key` is what the bytes depend on besides content and view counts.
 * The bytes stand in for the object in the procedure's output (see `servedOutput`), hence the cast.
 */
export function servedAnswer<T>(
  transport: TAnswerTransport,
  answer: { form: SerializedForm; live: Map<number, TLiveFields> | undefined },
  schema: z.ZodType<T>,
  key: string,
  object: () => T,
): T {
  if (!transport.serializedAnswers) return object();
  return answer.form.get(key, () => CountedJson.of(object(), schema)).render(answer.live) as unknown as T;
}

/**
 * A procedure's output schema that lets a `SerializedAnswer` validated against the same schema pass as is
 * (it was validated when it was made); any other output is validated as usual.
 */
export function servedOutput<T extends z.ZodType>(schema: T): T {
  const served = schema.clone() as T;
  const parse = (value: unknown, params?: Parameters<T['parse']>[1]) => {
    if (!(value instanceof SerializedAnswer)) return schema.parse(value, params);
    if (value.schema !== schema) throw new Error('A serialized answer was validated against another schema');
    return value;
  };
  Object.assign(served, {
    parse,
    parseAsync: async (value: unknown, params?: Parameters<T['parse']>[1]) => parse(value, params),
  });
  return served;
}
