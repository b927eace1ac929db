import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_NODE_FLAGS } from '@careers/core';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Runs the API unit until it exits (it must: nothing to serve), and returns its exit code and output. */
function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...API_NODE_FLAGS, MAIN], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
});
