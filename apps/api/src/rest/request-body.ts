import type { Request } from 'express';
import { AppError, MAX_JSON_DEPTH, MAX_JSON_VALUES, UnparsedJsonBody } from '@careers/core';
import { JsonScanner } from './json-scanner.ts';

/** CONTRACT: request bodies up to 40 MB; larger is 413. */
export const BODY_LIMIT_BYTES = 40 * 1024 * 1024;
/**
 * Bytes of request bodies one process holds at once (read, not yet answered); beyond it requests are shed (503).
 * Four largest bodies: one key, or one client address, may hold a quarter (CONTRACT "Guarding the shared service"),
 * which is then exactly one body of the largest size.
 */
export const BODY_BUDGET_BYTES = 4 * BODY_LIMIT_BYTES;
/** The part of the budget one key, and one client address, may hold at once. */
export const BODY_SHARE_DIVISOR = 4;
/** A body that stops arriving for this long is dropped (CONTRACT: 10 s; BODY_STALL_TIMEOUT_MS changes it for tests). */
export const BODY_STALL_TIMEOUT_MS = 10_000;
/**
 * After an early answer the rest of a body is read and thrown away, so a client that sends its whole body
 * before reading gets the answer; past this many bytes in all the connection is closed instead.
 */
const DISCARD_LIMIT_BYTES = 2 * BODY_LIMIT_BYTES;

/**
 * The bytes of request bodies held by a process at once, and by whom: every reservation names its holders (the key,
 * the client address), and none of them may hold more than a share of the budget, so one caller that stops sending
 * (or sends slowly) cannot take the budget of every other.
 */
export class BodyBudget {
  private inUse = 0;
  private readonly held = new Map<string, number>();
  readonly limit: number;
  readonly share: number;

  constructor(limit: number, shareDivisor = BODY_SHARE_DIVISOR) {
    this.limit = limit;
    this.share = Math.floor(limit / shareDivisor);
  }

  get bytesInUse(): number {
    return this.inUse;
  }

  /** Bytes `holder` holds now. */
  heldBy(holder: string): number {
    return this.held.get(holder) ?? 0;
  }

  /** Reserves `bytes` for all of `holders` at once, or nothing when the budget or any holder's share would be crossed. */
  tryReserve(bytes: number, holders: readonly string[] = []): boolean {
    if (this.inUse + bytes > this.limit) return false;
    if (holders.some((holder) => this.heldBy(holder) + bytes > this.share)) return false;
    this.inUse += bytes;
    for (const holder of holders) this.held.set(holder, this.heldBy(holder) + bytes);
    return true;
  }

  release(bytes: number, holders: readonly string[] = []): void {
    this.inUse -= bytes;
    for (const holder of holders) {
      const left = this.heldBy(holder) - bytes;
      if (left > 0) this.held.set(holder, left);
      else this.held.delete(holder);
    }
  }
}

export type TReadBodyOptions = {
  /** Who the body's bytes are charged to (the key, the client address): each may hold a share of the budget. */
  holders: readonly string[];
  /** Milliseconds without a byte after which the body is dropped (408). */
  stallTimeoutMs: number;
};

export type TReadBody = {
  body: UnparsedJsonBody;
  /** Gives the body's bytes back to the budget; call once the request is answered (idempotent). */
  release: () => void;
};

/** `Content-Encoding` absent or `identity`: the bytes on the wire are the body. */
function isIdentityEncoding(header: string | undefined): boolean {
  if (header === undefined) return true;
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .every((coding) => coding === '' || coding === 'identity');
}

/**
 * Reads a JSON request body as raw bytes, checking syntax, size, depth and value count chunk by chunk
 * without building its value (that happens after the scope and rate-limit checks, in the procedure).
 * It stops reading and refuses as soon as a bound is crossed:
 * compressed body 415, more than 40 MiB or more than MAX_JSON_VALUES values 413, broken syntax 400,
 * process budget or the share of a holder exhausted 503, no byte for `stallTimeoutMs` 408 (the connection is closed
 * after the answer: the rest of that body is not waited for). A body nested too deep is kept as a marker (422 `errors.body` after the
 * rate-limit check, CONTRACT's place for validation).
 */
export function readJsonBody(
  req: Request,
  budget: BodyBudget,
  params: Record<string, unknown>,
  options: TReadBodyOptions,
): Promise<TReadBody> {
  const { holders, stallTimeoutMs } = options;
  return new Promise((resolve, reject) => {
    const scanner = new JsonScanner({ maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES });
    const chunks: Buffer[] = [];
    let received = 0;
    let reserved = 0;
    let settled = false;

    let stallTimer: NodeJS.Timeout | undefined;

    const release = () => {
      budget.release(reserved, holders);
      reserved = 0;
    };
    const stopListening = () => {
      clearTimeout(stallTimer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    /** (Re)starts the wait for the next byte: a body that stops arriving is dropped, whatever it holds. */
    const awaitNextBytes = (onStall: () => void) => {
      clearTimeout(stallTimer);
      stallTimer = setTimeout(onStall, stallTimeoutMs);
      stallTimer.unref();
    };
    /**
     * The rest of the body is not needed: read it into nothing (bounded), so the answer reaches the client. A rest
     * that stops arriving closes the connection (it holds no budget, but a socket).
     */
    const discardRest = () => {
      if (req.complete) return;
      const stalled = () => req.destroy();
      awaitNextBytes(stalled);
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > DISCARD_LIMIT_BYTES) req.destroy();
        else awaitNextBytes(stalled);
      });
      req.once('end', () => clearTimeout(stallTimer));
      req.once('close', () => clearTimeout(stallTimer));
      req.resume();
    };
    const refuse = (error: AppError, readRest = true) => {
      if (settled) return;
      settled = true;
      stopListening();
      chunks.length = 0;
      release();
      if (readRest) discardRest();
      reject(error);
    };
    const accept = (tooDeep: boolean) => {
      settled = true;
      stopListening();
      if (tooDeep) {
        // Only the verdict matters now: the bytes go back at once.
        chunks.length = 0;
        release();
        discardRest();
      }
      resolve({ body: new UnparsedJsonBody(chunks, tooDeep, params), release });
    };

    /** No byte for the stall timeout: answered 408 (if the client still reads) and the connection closed. */
    function onStall() {
      refuse(
        new AppError('REQUEST_TIMEOUT', { detail: `no body bytes for ${stallTimeoutMs} ms after ${received} bytes` }),
        false,
      );
    }
    function onData(chunk: Buffer) {
      awaitNextBytes(onStall);
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) return refuse(new AppError('PAYLOAD_TOO_LARGE'));
      if (!budget.tryReserve(chunk.length, holders)) return refuse(new AppError('SERVER_BUSY'));
      reserved += chunk.length;
      switch (scanner.write(chunk)) {
        case 'malformed':
          return refuse(new AppError('MALFORMED_JSON'));
        case 'too-many-values':
          return refuse(new AppError('PAYLOAD_TOO_LARGE', { detail: `more than ${MAX_JSON_VALUES} JSON values` }));
        case 'too-deep':
          return accept(true);
        default:
          chunks.push(chunk);
      }
    }
    function onEnd() {
      if (settled) return;
      if (scanner.end() !== undefined) return refuse(new AppError('MALFORMED_JSON'));
      accept(false);
    }
    function onClose() {
      // The client went away before the end of its body: nobody will read the answer.
      if (!settled && !req.complete)
        refuse(new AppError('MALFORMED_JSON', { detail: 'the client closed the connection during the body' }));
    }

    // A reset connection also ends in 'close' (handled there); without a listener its 'error' would be thrown.
    req.on('error', () => undefined);
    if (!isIdentityEncoding(req.get('content-encoding'))) return refuse(new AppError('UNSUPPORTED_MEDIA_TYPE'));
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > BODY_LIMIT_BYTES) return refuse(new AppError('PAYLOAD_TOO_LARGE'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    // A body that never starts stalls too.
    if (!req.complete) awaitNextBytes(onStall);
  });
}
