import type { TOperatorContext } from '../service-context.ts';
import { readOrMakeSecret } from './server-secrets.repository.ts';

/** Per database (an ORM's driver), per name: every fork of one ORM shares the secrets it has read. */
const loaded = new WeakMap<object, Map<string, Promise<Buffer>>>();

/**
 * A secret the service keeps for itself (32 random bytes), by name: made by the first process that needs it, stored
 * in `server_secrets`, and read from there by every other process, so they all agree without any configuration. Read
 * once per process (and database); a failed read is tried again next time.
 */
export function serverSecret(ctx: TOperatorContext, input: { name: string }): Promise<Buffer> {
  const driver = ctx.em.getDriver();
  let secrets = loaded.get(driver);
  if (!secrets) loaded.set(driver, (secrets = new Map()));
  let secret = secrets.get(input.name);
  if (!secret) {
    secret = readOrMakeSecret(ctx.em, input.name);
    secrets.set(input.name, secret);
    secret.catch(() => secrets.delete(input.name));
  }
  return secret;
}
