import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS } from '@careers/core';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Runs the API unit until it exits (it must: nothing to serve), and returns its exit code and output. An empty value unsets a variable. */
function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const merged = Object.fromEntries(
    Object.entries({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }).filter(
      ([, value]) => value !== '',
    ),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...API_NODE_FLAGS, MAIN], {
      env: merged,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('starting the API unit', () => {
  it('refuses an unreachable database with a message that says so (not "schema behind"), without the password', async () => {
    const { code, output } = await runUntilExit({ DATABASE_URL: 'postgres://careers:s3cret-pw@127.0.0.1:1/careers' });
    expect(code).toBe(1);
    expect(output).toContain('Cannot reach the database at DATABASE_URL (ECONNREFUSED)');
    expect(output).not.toContain('pending migration');
    expect(output).not.toContain('s3cret-pw');
  }, 30_000);

  it('warns at start in production when PUBLIC_URL is unset (links would follow the Host header), and not otherwise', async () => {
    const unreachable = { DATABASE_URL: 'postgres://careers@127.0.0.1:1/careers' };
    const warningOf = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((line) => line.msg.includes('PUBLIC_URL'));
    const [production, configured, development] = await Promise.all([
      runUntilExit({ ...unreachable, NODE_ENV: 'production', PUBLIC_URL: '' }),
      runUntilExit({ ...unreachable, NODE_ENV: 'production', PUBLIC_URL: 'https://api.example.org' }),
      runUntilExit({ ...unreachable, NODE_ENV: 'development', PUBLIC_URL: '' }),
    ]);
    expect(warningOf(production.output)).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('PUBLIC_URL is not set') }),
    ]);
    expect(warningOf(configured.output)).toEqual([]);
    expect(warningOf(development.output)).toEqual([]);
  }, 60_000);
});
