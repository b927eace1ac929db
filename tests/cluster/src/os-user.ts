import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PostgreSQL's initdb and PgBouncer refuse to run as root: as root, they run as the `postgres` OS user. */
const SERVICE_USER = 'postgres';

type TIds = { uid: number; gid: number };

let serviceIds: TIds | undefined | null = null;

/** The ids to run servers as: the `postgres` user when this process is root, else this process's own user. */
function ids(): TIds | undefined {
  if (serviceIds === null) {
    serviceIds =
      process.getuid?.() === 0
        ? {
            uid: Number(execFileSync('id', ['-u', SERVICE_USER], { encoding: 'utf8' }).trim()),
            gid: Number(execFileSync('id', ['-g', SERVICE_USER], { encoding: 'utf8' }).trim()),
          }
        : undefined;
  }
  return serviceIds;
}

/**
 * Starts a server binary as the service user. As another user it starts in the temp folder: the checkout may be in a
 * folder only root may enter (`mktemp -d` makes it 0700), and Patroni's worker processes change into their parent's
 * folder on start — there they failed, and the bootstrap never finished.
 */
export function spawnAsServiceUser(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const owner = ids();
  return spawn(command, args, { ...(owner ? { cwd: tmpdir() } : {}), ...options, ...owner });
}

/** Runs a binary to its end as the service user; its output goes into the error when it fails. */
export async function runAsServiceUser(command: string, args: string[]): Promise<void> {
  const child = spawnAsServiceUser(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`);
}

/** A fresh folder under the system's temp folder (reachable by everyone, like /tmp), owned by the service user. */
export function serviceFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const owner = ids();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** A folder inside a service folder, owned by the service user. */
export function serviceSubfolder(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir, { mode: 0o700 });
  const owner = ids();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}
