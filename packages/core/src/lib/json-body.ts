import { AppError } from './errors.ts';

/** Bounds of a JSON request body, checked while it arrives (CONTRACT: deeper than 64 levels is 422 `errors.body`). */
export const MAX_JSON_DEPTH = 64;
/** Values (scalars, arrays, objects) in one body; no operation needs more, and each costs memory once parsed. */
export const MAX_JSON_VALUES = 10_000;

/**
 * A request body the transport has read and checked for syntax, size and value count without building it.
 * It is parsed only when a procedure's checks (scope, rate limit) have passed, so a caller without the scope
 * or over its limit never makes the process build its value.
 */
export class UnparsedJsonBody {
  #chunks: Buffer[] | undefined;
  readonly byteLength: number;
  /** The body nests deeper than MAX_JSON_DEPTH (reading stopped there): a validation error, reported in order. */
  readonly tooDeep: boolean;
  /** Path parameters and the operation's query parameters, merged over an object body (the body cannot set them). */
  readonly #params: Record<string, unknown>;

  constructor(chunks: Buffer[], tooDeep: boolean, params: Record<string, unknown>) {
    this.#chunks = chunks;
    this.tooDeep = tooDeep;
    this.#params = params;
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** The body's value (an object body with the path parameters). Parsing twice is a programming error. */
  parse(): unknown {
    if (this.tooDeep)
      throw AppError.validation({ body: [`The body must not be nested more than ${MAX_JSON_DEPTH} levels deep.`] });
    let text = this.#takeText();
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    // An absent body is an empty object (the fields are then reported as required).
    if (text.length === 0) return { ...this.#params };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (cause) {
      // The transport's check accepts only what JSON.parse accepts; this is a safety net.
      throw new AppError('MALFORMED_JSON', { cause });
    }
    const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
    // A body that is not a JSON object goes to validation as it is (422 errors.body).
    return isObject ? { ...(body as Record<string, unknown>), ...this.#params } : body;
  }

  /** The body as text; the bytes are let go first, so a large body is not held three times while it is parsed. */
  #takeText(): string {
    const chunks = this.#chunks;
    if (!chunks) throw new Error('request body parsed twice');
    this.#chunks = undefined;
    return Buffer.concat(chunks.splice(0), this.byteLength).toString('utf8');
  }
}
