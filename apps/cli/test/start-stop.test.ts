import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@careers/core';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const START_ALL = join(ROOT, 'apps/cli/src/start-all.ts');
/** A terminal is needed to press Ctrl-C: util-linux `script` gives the starter a pty, `setsid` a session of its own. */
const hasPty = spawnSync('script', ['--version']).status === 0 && spawnSync('setsid', ['--version']).status === 0;

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'careers-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(!hasPty)('pnpm start at a terminal', () => {
  it('stops on Ctrl-C without an error line: the units first, then PostgreSQL, and every process ends', async () => {
    // Six different ports: the kernel may hand a just-closed port out again, and two units on one port is a failed start.
    const picked = new Set<number>();
    while (picked.size < 6) picked.add(await freePort());
    const [PORT, ADMIN_PORT, CAREER_SITE_PORT, METRICS_PORT, WORKER_METRICS_PORT, pgPort] = [...picked] as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ports = { PORT, ADMIN_PORT, CAREER_SITE_PORT, METRICS_PORT, WORKER_METRICS_PORT };
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
    };
    Object.assign(env, {
      EMBEDDED_PG_PORT: String(pgPort),
      EMBEDDED_PG_DATA_DIR: join(dataDir, 'postgres'),
      LOG_LEVEL: 'info',
      NO_COLOR: '1',
    });
    for (const name of ['DATABASE_URL', 'DATABASE_READ_URL', 'NODE_ENV', 'HOST']) delete env[name];

    // The pty's input is our pipe: a \x03 written to it is the terminal's Ctrl-C, sent to the starter's process group.
    const terminal = spawn('setsid', ['script', '-qfc', `'${process.execPath}' '${START_ALL}'`, '/dev/null'], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => terminal.once('exit', (code) => done(code)));
    await new Promise<void>((ready, fail) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ctrl-C stops everything')) ready();
      };
      terminal.stdout.on('data', onData);
      terminal.stderr.on('data', onData);
      void exited.then(() => fail(new Error(`pnpm start ended before it was ready:\n${output}`)));
    });
    await new Promise((wait) => setTimeout(wait, 2_000));
    terminal.stdin.write('\x03');
    expect(await exited).toBe(0);

    const lines = output.split(/\r?\n/);
    expect(output).toContain('Stopping…');
    expect(lines.at(-1) === 'Stopped.' || lines.includes('Stopped.')).toBe(true);
    expect(
      lines.filter((line) => /\b(WARN|ERROR|FATAL)\b|error|exited unexpectedly|terminating connection/i.test(line)),
    ).toEqual([]);
    for (const port of [...Object.values(ports), pgPort]) expect(await accepts(port), `port ${port}`).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 300_000);
});
