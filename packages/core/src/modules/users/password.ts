import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * `Algorithm.Argon2id` of @node-rs/argon2. The package declares its algorithms as an ambient const enum,
 * which erasable TypeScript cannot read, so the value is spelled out here.
 */
const ARGON2ID = 2 as unknown as NonNullable<Options['algorithm']>;

/** OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): ~0.1 s per hash on this machine. */
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** An argon2id hash in PHC form (`$argon2id$v=19$m=…`), with a random salt. */
export async function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when the password matches the hash; false for a wrong password or a hash that is not argon2. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (!passwordHash.startsWith('$argon2')) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
