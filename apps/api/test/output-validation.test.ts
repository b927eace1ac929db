import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { toAppError } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { startTestApi, type TTestApi } from './support/api.ts';
import { seed } from './support/seed.ts';
import { applicationBody, keys, suffix, tenant, vacancy } from './support/write-fixtures.ts';

/**
 * A response that does not match its procedure's output schema is a bug of ours (issue 11): the client gets
 * 500 `{"message":"Server Error."}` without any internal path, and the log gets what failed.
 */

// The application DTO answers with a number where the schema wants a name (only while `broken` is set).
const broken = vi.hoisted(() => ({ on: false }));
// An internal module is mocked by its file: the package's exports map does not (and should not) name it.
vi.mock('../../../packages/core/src/modules/applications/application.dto.ts', async (importOriginal) => {
  const original =
    await importOriginal<typeof import('../../../packages/core/src/modules/applications/application.dto.ts')>();
  return {
    ...original,
    toApplicationResponse: (...args: Parameters<typeof original.toApplicationResponse>) => {
      const response = original.toApplicationResponse(...args);
      if (broken.on) (response.data.candidate as { given_name: unknown }).given_name = 42;
      return response;
    },
  };
});

const s = suffix();
const SLUG = `engineer-${s}`;
const writer = keys(10, 1, ['applications:write'])[0]!;
let api: TTestApi;

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  await seed(databaseUrl, {
    tenants: [tenant(`acme-${s}`, { api_keys: [{ ...writer, name: 'writer' }], vacancies: [vacancy(1, SLUG)] })],
  });
  api = await startTestApi(databaseUrl);
});

afterAll(async () => {
  broken.on = false;
  await api?.close();
});

describe('output validation', () => {
  it('a response that fails its output schema is 500 Server Error, without paths', async () => {
    broken.on = true;
    const response = await api.post('/applications', applicationBody(SLUG), writer.key);
    broken.on = false;
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ message: 'Server Error.' });
    expect(response.text).not.toMatch(/given_name|candidate|errors/);
    const ok = await api.post('/applications', applicationBody(SLUG), writer.key);
    expect(ok.status).toBe(201);
  });

  it('keeps what failed for the log (detail and cause), apart from the public body', () => {
    const issues = z.object({ data: z.object({ name: z.string() }) }).safeParse({ data: { name: 42 } }).error!;
    const error = toAppError(
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: issues }),
    );
    expect(error.status).toBe(500);
    expect(error.toBody()).toEqual({ message: 'Server Error.' });
    expect(error.detail).toMatch(/^Output validation failed: data\.name: /);
    expect(error.cause).toBeInstanceOf(TRPCError);
    // The input parser's failure stays the client's 422.
    expect(toAppError(new TRPCError({ code: 'BAD_REQUEST', cause: issues })).status).toBe(422);
  });
});
