import type { Request } from 'express';
import { AppError, MAX_JSON_DEPTH, MAX_JSON_VALUES, UnparsedJsonBody } from '@careers/core';
import { JsonScanner } from './json-scanner.ts';

/** CONTRACT: request bodies up to 40 MB; larger is 413. */
export const BODY_LIMIT_BYTES = 40 * 1024 * 1024;
/** Bytes of request bodies one process holds at once (read, not yet answered); beyond it requests are shed (503). */
export const BODY_BUDGET_BYTES = 128 * 1024 * 1024;
/**
 * After an early answer the rest of a body is read and thrown away, so a client that sends its whole body
 * before reading gets the answer; past this many bytes in all the connection is closed instead.
 */
const DISCARD_LIMIT_BYTES = 2 * BODY_LIMIT_BYTES;

/** The bytes of request bodies held by a process at once. */
export class BodyBudget {
  private inUse = 0;
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  get bytesInUse(): number {
    return this.inUse;
  }

  tryReserve(bytes: number): boolean {
    if (this.inUse + bytes > this.limit) return false;
    this.inUse += bytes;
    return true;
  }

  release(bytes: number): void {
    this.inUse -= bytes;
  }
}

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
 * process budget exhausted 503. A body nested too deep is kept as a marker (422 `errors.body` after the
 * rate-limit check, CONTRACT's place for validation).
 */
export function readJsonBody(req: Request, budget: BodyBudget, params: Record<string, unknown>): Promise<TReadBody> {
  return new Promise((resolve, reject) => {
    const scanner = new JsonScanner({ maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES });
    const chunks: Buffer[] = [];
    let received = 0;
    let reserved = 0;
    let settled = false;

    const release = () => {
      budget.release(reserved);
      reserved = 0;
    };
    const stopListening = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    /** The rest of the body is not needed: read it into nothing (bounded), so the answer reaches the client. */
    const discardRest = () => {
      if (req.complete) return;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > DISCARD_LIMIT_BYTES) req.destroy();
      });
      req.resume();
    };
    const refuse = (error: AppError) => {
      if (settled) return;
      settled = true;
      stopListening();
      chunks.length = 0;
      release();
      discardRest();
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

    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) return refuse(new AppError('PAYLOAD_TOO_LARGE'));
      if (!budget.tryReserve(chunk.length)) return refuse(new AppError('SERVER_BUSY'));
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
      if (!settled && !req.complete) refuse(new AppError('MALFORMED_JSON', { detail: 'the client closed the connection during the body' }));
    }

    // A reset connection also ends in 'close' (handled there); without a listener its 'error' would be thrown.
    req.on('error', () => undefined);
    if (!isIdentityEncoding(req.get('content-encoding'))) return refuse(new AppError('UNSUPPORTED_MEDIA_TYPE'));
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > BODY_LIMIT_BYTES) return refuse(new AppError('PAYLOAD_TOO_LARGE'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}
