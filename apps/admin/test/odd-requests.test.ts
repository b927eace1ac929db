import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TStack } from './support/stack.ts';
import { dashboardDocument } from './support/seed.ts';

/** Wrong methods and odd paths on the admin server (CONTRACT "Guarding the shared service"), on a stack of its own. */
const seeded = dashboardDocument({ seed: 11, vacancies: 2 });
let stack: TStack;

beforeAll(async () => {
  stack = await startStack(seeded.document);
}, 120_000);
afterAll(async () => stack?.close());

/** `promise`, or an error naming the step that hung (a hang otherwise shows only as the test's own timeout). */
async function within<T>(step: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe('odd requests to the admin server', () => {
  it('answers a GET on a mutation and odd asset paths with 4xx, and logs none of them as an error', async () => {
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const admin = await within('starting the admin server', 30_000, stack.startAdmin({ log }));
    try {
      const paths = [
        '/trpc/admin.keys.create',
        '/trpc/admin.signIn',
        '/trpc/admin.webhooks.test?input=%7B%22id%22%3A1%7D',
        '/trpc/admin.me?input=%7Bnot-json',
        '/assets/..%2f..%2fpackage.json',
        '/assets/..%2f..',
        '/assets/..%2f..%2f..%2fetc%2fpasswd',
        '/assets/..%5c..%5cpackage.json',
        '/assets/%00',
        '/assets/%E0%A4%A',
      ];
      for (const path of paths) {
        const response = await fetch(`${admin.url}${path}`, { signal: AbortSignal.timeout(5000) }).catch(
          (error: unknown) => {
            throw new Error(`${path}: ${String(error)}`);
          },
        );
        const text = await within(`reading the answer to ${path}`, 10_000, response.text());
        expect({ path, status: response.status >= 400 && response.status < 500 }).toEqual({ path, status: true });
        expect(text, path).not.toMatch(/stack|at \/|node_modules/i);
      }
      const again = await fetch(`${admin.url}/trpc/admin.keys.create`, { signal: AbortSignal.timeout(5000) });
      await again.text();
      expect(again.status).toBe(405);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await within('closing the admin server', 20_000, admin.close());
    }
  });
});
