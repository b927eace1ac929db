import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { AppError } from '../src/lib/errors.ts';
import { SCOPES } from '../src/lib/scopes.ts';
import { API_KEY_PREFIX, hashApiKey } from '../src/modules/api-keys/api-key.crypto.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../src/modules/api-keys/api-key.service.ts';
import { serviceContext } from '../src/modules/service-context.ts';
import { ownerTenant } from '../src/modules/tenants/owner-tenant.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';

let orm: MikroORM;
let acme: number;
let globex: number;

beforeAll(async () => {
  orm = await openOrm(await createTestDatabase());
  const summary = await importTenantDocument(
    { em: orm.em },
    {
      tenants: [
        {
          slug: 'acme',
          name: 'Acme',
          api_keys: [{ id: 1, name: 'Imported', key: 'ck_test_imported_key_0123456789', scopes: ['vacancies:read'] }],
        },
        {
          slug: 'globex',
          name: 'Globex',
          api_keys: [{ id: 2, name: 'Globex key', key: 'ck_test_globex_key_0123456789ab', scopes: ['*'] }],
        },
      ],
    },
  );
  acme = summary.tenants[0]?.id ?? 0;
  globex = summary.tenants[1]?.id ?? 0;
});

afterAll(async () => {
  await orm?.close(true);
});

const em = () => orm.em.fork();

async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('api key service', () => {
  it('creates a key: the plaintext once, only its hash stored', async () => {
    const { apiKey, plaintext } = await createApiKey(serviceContext(em(), acme), {
      name: '  Website  ',
      scopes: ['vacancies:read', 'team:read', 'vacancies:read'],
    });
    expect(plaintext.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(plaintext.length).toBeGreaterThanOrEqual(20);
    expect(apiKey).toEqual({
      id: expect.any(Number),
      name: 'Website',
      start: plaintext.slice(0, 12),
      kind: 'secret',
      scopes: ['vacancies:read', 'team:read'],
      origins: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      last_used_at: null,
      revoked_at: null,
    });
    expect(apiKey.id).toBeGreaterThan(2);
    const rows = (await em().getConnection().execute('select * from api_keys where id = ?', [apiKey.id])) as Record<
      string,
      unknown
    >[];
    expect(rows[0]?.key_hash).toBe(hashApiKey(plaintext));
    expect(JSON.stringify(rows)).not.toContain(plaintext);
  });

  it('creates a key with no scopes (it can call only /health) and a legacy full-access key', async () => {
    expect((await createApiKey(serviceContext(em(), acme), { name: 'Health only', scopes: [] })).apiKey.scopes).toEqual(
      [],
    );
    expect((await createApiKey(serviceContext(em(), acme), { name: 'Legacy', scopes: ['*'] })).apiKey.scopes).toEqual([
      '*',
    ]);
    expect(
      (await createApiKey(serviceContext(em(), acme), { name: 'All', scopes: [...SCOPES] })).apiKey.scopes,
    ).toEqual([...SCOPES]);
  });

  it('refuses unknown scopes and an empty name, and writes nothing', async () => {
    const before = await listApiKeys(serviceContext(em(), acme));
    const unknown = await appErrorOf(
      createApiKey(serviceContext(em(), acme), { name: 'Bad', scopes: ['vacancies:read', 'vacancies:delete'] }),
    );
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.fieldErrors).toEqual({ 'scopes.1': ['The selected scopes.1 is invalid.'] });
    const empty = await appErrorOf(createApiKey(serviceContext(em(), acme), { name: '   ', scopes: [] }));
    expect(empty.code).toBe('VALIDATION_FAILED');
    expect(empty.fieldErrors).toEqual({ name: ['The name field is required.'] });
    expect(await listApiKeys(serviceContext(em(), acme))).toEqual(before);
  });

  it('refuses a tenant that does not exist', async () => {
    expect((await appErrorOf(createApiKey(serviceContext(em(), 999_999), { name: 'X', scopes: [] }))).code).toBe(
      'NOT_FOUND',
    );
  });

  it("lists a tenant's keys, newest first, never the key itself", async () => {
    const { apiKey, plaintext } = await createApiKey(serviceContext(em(), globex), {
      name: 'Second globex key',
      scopes: ['team:read'],
    });
    const list = await listApiKeys(serviceContext(em(), globex));
    expect(list.map((k) => k.id)).toEqual([apiKey.id, 2]);
    expect(list[1]).toMatchObject({
      id: 2,
      name: 'Globex key',
      start: 'ck_test_glob',
      scopes: ['*'],
      revoked_at: null,
    });
    expect(Object.keys(list[0] ?? {}).sort()).toEqual([
      'created_at',
      'id',
      'kind',
      'last_used_at',
      'name',
      'origins',
      'revoked_at',
      'scopes',
      'start',
    ]);
    expect(JSON.stringify(list)).not.toContain(plaintext);
    expect((await listApiKeys(serviceContext(em(), acme))).every((k) => k.id !== apiKey.id)).toBe(true);
  });

  it('revokes a key idempotently', async () => {
    const { apiKey } = await createApiKey(serviceContext(em(), acme), { name: 'To revoke', scopes: ['articles:read'] });
    const revoked = await revokeApiKey(serviceContext(em(), acme), { id: apiKey.id });
    expect(revoked.id).toBe(apiKey.id);
    expect(revoked.revoked_at).toMatch(/Z$/);
    const again = await revokeApiKey(serviceContext(em(), acme), { id: apiKey.id });
    expect(again.revoked_at).toBe(revoked.revoked_at);
    expect((await listApiKeys(serviceContext(em(), acme))).find((k) => k.id === apiKey.id)?.revoked_at).toBe(
      revoked.revoked_at,
    );
  });

  it("treats another tenant's key like a key that does not exist", async () => {
    expect((await appErrorOf(revokeApiKey(serviceContext(em(), acme), { id: 2 }))).code).toBe('NOT_FOUND');
    expect((await listApiKeys(serviceContext(em(), globex))).find((k) => k.id === 2)?.revoked_at).toBeNull();
    expect((await appErrorOf(revokeApiKey(serviceContext(em(), acme), { id: 987_654 }))).code).toBe('NOT_FOUND');
  });

  it("revokes any tenant's key named by id alone (the operator CLI: the key's tenant first)", async () => {
    const owner = await ownerTenant(em(), 'api_keys', 2);
    expect(owner).toBe(globex);
    expect(await ownerTenant(em(), 'api_keys', 987_654)).toBeUndefined();
    const revoked = await revokeApiKey(serviceContext(em(), owner!), { id: 2 });
    expect(revoked).toMatchObject({ id: 2, name: 'Globex key' });
    expect(revoked.revoked_at).not.toBeNull();
  });
});
