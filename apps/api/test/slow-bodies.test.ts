import { request, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@careers/core/testing';
import { BODY_BUDGET_BYTES, BODY_LIMIT_BYTES, BODY_STALL_TIMEOUT_MS } from '../src/rest/request-body.ts';
import { apiEnv } from '../src/env.ts';
import { startApiProcess, type TApiProcess } from './support/processes.ts';
import { seed } from './support/seed.ts';
import { keys, suffix, tenant, vacancy, type TKeySpec } from './support/write-fixtures.ts';

/**
 * Slow and stalled request bodies against a real API process (CONTRACT "Guarding the shared service"): a body that
 * stops arriving is dropped with 408, and one key, or one client address (loopback addresses 127.0.0.2…), holds at
 * most a quarter of the process's body budget while other keys' and addresses' bodies are still read.
 */

const MIB = 1024 * 1024;
/** The stall timeout the process runs with (10 s in production; shorter so the test is quick). */
const STALL_MS = 3000;
const SHARE = BODY_BUDGET_BYTES / 4;
const s = suffix();
const SLUG = `engineer-${s}`;
const writers = keys(10, 5, ['applications:write']);
const [keyA, keyB, keyC, keyD, keyE] = writers as [TKeySpec, TKeySpec, TKeySpec, TKeySpec, TKeySpec];
const otherTenantKey = keys(60, 1, ['applications:write'])[0]!;

let api: TApiProcess;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [
      tenant(`acme-${s}`, {
        api_keys: writers.map((k) => ({ ...k, name: `key ${k.id}` })),
        vacancies: [vacancy(1, SLUG)],
      }),
      tenant(`other-${s}`, {
        api_keys: [{ ...otherTenantKey, name: 'other' }],
        vacancies: [vacancy(2, `other-${SLUG}`)],
      }),
    ],
  });
  // LOG_LEVEL warn: the 503s of this test must log as shed (warn), never as errors.
  api = await startApiProcess(databaseUrl, { BODY_STALL_TIMEOUT_MS: String(STALL_MS), LOG_LEVEL: 'warn' });
});

afterAll(async () => {
  await api?.stop();
});

type TAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string; atMs: number };

/** A POST whose body is written piece by piece from one client address; the answer may come before the body ends. */
type TOpenBody = {
  /** Writes more body bytes; resolves once they are handed to the socket. */
  write: (bytes: Buffer | string) => Promise<void>;
  end: (bytes?: Buffer | string) => void;
  /** Writes one byte every `everyMs` until the answer or `pause()` (a slow but live body). */
  trickle: (everyMs: number) => void;
  /** Stops trickling: the body stalls from now on. */
  pause: () => void;
  answer: Promise<TAnswer>;
  /** Resolves when the connection is closed (by either side). */
  closed: Promise<number>;
  destroy: () => void;
};

const open: ClientRequest[] = [];
afterEach(() => {
  for (const req of open.splice(0)) req.destroy();
});

function openBody(key: string, address: string, contentLength: number, path = '/applications'): TOpenBody {
  const started = performance.now();
  const req = request(`${api.baseUrl}${path}`, {
    method: 'POST',
    localAddress: address,
    agent: false,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'content-length': String(contentLength),
    },
  });
  open.push(req);
  // Sent at once, so a body that never starts reaches the server as its headers.
  req.flushHeaders();
  const answer = new Promise<TAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, atMs: performance.now() - started }),
      );
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  const closed = new Promise<number>((resolve) =>
    req.on('socket', (socket) => socket.once('close', () => resolve(performance.now() - started))),
  );
  let trickling: NodeJS.Timeout | undefined;
  return {
    write: (bytes) =>
      new Promise((resolve, reject) => req.write(bytes, (error) => (error ? reject(error) : resolve()))),
    end: (bytes) => req.end(bytes),
    trickle: (everyMs) => {
      trickling = setInterval(() => req.write('a'), everyMs);
      void answer.finally(() => clearInterval(trickling)).catch(() => undefined);
    },
    pause: () => clearInterval(trickling),
    answer,
    closed,
    destroy: () => {
      clearInterval(trickling);
      req.destroy();
    },
  };
}

/** An application with `padding` bytes of an unknown field (ignored by validation): a body of a chosen size that is stored. */
function paddedApplication(padding: number, vacancySlug = SLUG): Buffer {
  const id = suffix();
  return Buffer.from(
    JSON.stringify({
      vacancy: vacancySlug,
      candidate: { given_name: 'Ada', family_name: `Lovelace ${id}`, email: `ada.${id}@example.org` },
      padding: 'p'.repeat(padding),
    }),
  );
}

/** Posts a whole body at once from `address`. */
async function postWhole(key: string, address: string, body: Buffer): Promise<TAnswer> {
  const sender = openBody(key, address, body.length);
  sender.end(body);
  return sender.answer;
}

/** The bytes of bodies the process holds now (its own metric). */
async function heldBytes(): Promise<number> {
  const text = await (await fetch(api.metricsUrl)).text();
  return Number(/^careers_request_body_bytes\{state="held"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

/** Waits until the process holds at least `bytes` of bodies (the client's writes are read by then). */
async function untilHeld(bytes: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await heldBytes()) < bytes) {
    if (Date.now() > deadline)
      throw new Error(`the process holds ${await heldBytes()} bytes, expected ${bytes}:\n${api.output().slice(-3000)}`);
    await sleep(25);
  }
}

/** The opening of a valid JSON object, `size` bytes long (built once per size: the test process must not pause). */
const openings = new Map<number, Buffer>();
function opening(size: number): Buffer {
  const prefix = Buffer.from('{"padding":"');
  let body = openings.get(size);
  if (!body) openings.set(size, (body = Buffer.concat([prefix, Buffer.alloc(size - prefix.length, 'a')])));
  return body;
}

/** Starts a body of `held` bytes that stays alive (one byte every 200 ms), and waits until the process holds them. */
async function holdBody(key: string, address: string, held: number): Promise<TOpenBody> {
  const before = await heldBytes();
  // Declares the largest body there is: the held bytes and the trickle stay within it.
  const sender = openBody(key, address, BODY_LIMIT_BYTES);
  const written = sender.write(opening(held));
  // Queued after the opening, from now on: the body stays alive while the test goes on.
  sender.trickle(200);
  await written;
  await untilHeld(before + held);
  return sender;
}

describe('a body that stops arriving', () => {
  it('is waited for 10 s unless BODY_STALL_TIMEOUT_MS says otherwise', () => {
    expect(apiEnv({}).BODY_STALL_TIMEOUT_MS).toBe(10_000);
    expect(BODY_STALL_TIMEOUT_MS).toBe(10_000);
    expect(apiEnv({ BODY_STALL_TIMEOUT_MS: '1500' }).BODY_STALL_TIMEOUT_MS).toBe(1500);
  });

  it('is answered 408 about the stall timeout after its last byte, and its connection is closed', async () => {
    const sender = openBody(keyA.key, '127.0.0.2', 40_000_000);
    await sender.write(Buffer.concat([Buffer.from('{"padding":"'), Buffer.alloc(4 * MIB, 'a')]));
    const lastByte = performance.now();
    const answer = await sender.answer;
    const afterLastByte = performance.now() - lastByte;
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Request Timeout.' });
    expect(answer.headers.connection).toBe('close');
    // No rate-limit headers: the body is checked before the limit.
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
    expect(afterLastByte).toBeGreaterThanOrEqual(STALL_MS - 100);
    expect(afterLastByte).toBeLessThan(STALL_MS + 3000);
    await sender.closed;
    // Its bytes went back to the budget.
    expect(await heldBytes()).toBe(0);
  });

  it('is dropped also when it never starts (headers only)', async () => {
    const sender = openBody(keyA.key, '127.0.0.2', 1000);
    const answer = await sender.answer;
    expect(answer.status).toBe(408);
    expect(answer.atMs).toBeGreaterThanOrEqual(STALL_MS - 100);
    await sender.closed;
  });

  it('is read when it is slow but never pauses for the stall timeout (the timeout is per pause, not per body)', async () => {
    const body = paddedApplication(1000);
    const sender = openBody(keyB.key, '127.0.0.2', body.length);
    const pieces = 5;
    const size = Math.ceil(body.length / pieces);
    for (let i = 0; i < pieces - 1; i++) {
      await sender.write(body.subarray(i * size, (i + 1) * size));
      await sleep(STALL_MS / 2);
    }
    sender.end(body.subarray((pieces - 1) * size));
    const answer = await sender.answer;
    expect(answer.atMs).toBeGreaterThan(STALL_MS * 1.5);
    expect(answer.status, answer.body).toBe(201);
  });
});

describe('the body budget shared between keys and client addresses', () => {
  it('lets one key and one address hold at most a quarter; other keys and addresses are still read; the rest is 503 with Retry-After', async () => {
    expect(SHARE).toBeGreaterThanOrEqual(BODY_LIMIT_BYTES);
    // Key A from 127.0.0.2 holds nearly its whole share, alive (a slow upload).
    const held = SHARE - 2 * MIB;
    const holder = await holdBody(keyA.key, '127.0.0.2', held);

    // The same key from another address: over the key's share.
    const sameKey = await postWhole(keyA.key, '127.0.0.3', paddedApplication(3 * MIB));
    expect(sameKey.status).toBe(503);
    expect(sameKey.headers['retry-after']).toBe('2');
    expect(JSON.parse(sameKey.body)).toEqual({
      message: 'The server is busy reading other request bodies; retry shortly.',
    });
    // Another key from the same address: over the address's share.
    const sameAddress = await postWhole(keyB.key, '127.0.0.2', paddedApplication(3 * MIB));
    expect(sameAddress.status).toBe(503);
    expect(sameAddress.headers['retry-after']).toBe('2');
    // Within the share, the same key from another address still sends small bodies.
    expect((await postWhole(keyA.key, '127.0.0.3', paddedApplication(MIB))).status).toBe(201);
    // Another key from another address, and another tenant, are read whole.
    expect((await postWhole(keyB.key, '127.0.0.3', paddedApplication(3 * MIB))).status).toBe(201);
    expect((await postWhole(otherTenantKey.key, '127.0.0.4', paddedApplication(8 * MIB, `other-${SLUG}`))).status).toBe(
      201,
    );
    // What the process holds is still the holder's (its trickle included), nothing of the answered bodies.
    expect(await heldBytes()).toBeGreaterThanOrEqual(held);
    expect(await heldBytes()).toBeLessThan(held + 10_000);

    holder.destroy();
    await holder.closed;
    // The holder's bytes are given back when its connection goes: the same key and address get the whole share again.
    const deadline = Date.now() + 5000;
    while ((await heldBytes()) > 0 && Date.now() < deadline) await sleep(25);
    expect(await heldBytes()).toBe(0);
    expect((await postWhole(keyA.key, '127.0.0.2', paddedApplication(SHARE - MIB))).status).toBe(201);
  });

  it('still bounds the whole process: four keys from four addresses fill it, a fifth is shed until they let go', async () => {
    // Four times 39 MiB of 160 MiB: 4 MiB left, less than the fifth body.
    const held = SHARE - MIB;
    const holders: TOpenBody[] = [];
    const takers: Array<[string, string]> = [
      [keyA.key, '127.0.0.2'],
      [keyB.key, '127.0.0.3'],
      [keyC.key, '127.0.0.4'],
      [keyD.key, '127.0.0.5'],
    ];
    for (const [key, address] of takers) holders.push(await holdBody(key, address, held));
    await untilHeld(4 * held);

    const fifth = await postWhole(keyE.key, '127.0.0.6', paddedApplication(5 * MIB));
    expect(fifth.status).toBe(503);
    expect(fifth.headers['retry-after']).toBe('2');

    // The holders stop sending: each is dropped after the stall timeout, and the fifth is read again.
    for (const holder of holders) holder.pause();
    const stopped = performance.now();
    const answers = await Promise.all(holders.map((holder) => holder.answer));
    expect(answers.map((answer) => answer.status)).toEqual([408, 408, 408, 408]);
    expect(performance.now() - stopped).toBeLessThan(STALL_MS + 3000);
    expect((await postWhole(keyE.key, '127.0.0.6', paddedApplication(5 * MIB))).status).toBe(201);
    expect(await heldBytes()).toBe(0);

    // Every 503 of this file logged as a shed (warn), and nothing at error level.
    const lines = api
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => line.msg === 'request shed').length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
