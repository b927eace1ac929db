import { describe, expect, it, vi } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { lazyChild } from '../src/lib/logger.ts';

/** A pino logger at `level` whose lines are collected (parsed). */
function collecting(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level, base: undefined, timestamp: false }, sink), lines };
}

describe('lazyChild', () => {
  it('makes no child until a line at an enabled level is written, then logs as the child would', async () => {
    const { logger, lines } = collecting('info');
    const child = vi.spyOn(logger, 'child');
    const request = lazyChild(logger, { request_id: 'r1' });
    const tenant = lazyChild(request, { tenant: 't' });
    tenant.debug('below the level');
    expect(child).not.toHaveBeenCalled();
    tenant.info({ n: 1 }, 'hello');
    request.warn('plain');
    expect(tenant.isLevelEnabled('debug')).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([
      { level: 30, request_id: 'r1', tenant: 't', n: 1, msg: 'hello' },
      { level: 40, request_id: 'r1', msg: 'plain' },
    ]);
    // The request's child, then the tenant's (pino's children inherit the spied method).
    expect(child).toHaveBeenCalledTimes(2);
  });
});
