import type {} from './global-setup.ts';
import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh, migrated database for one test file; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('pgServerUrl');
  const template = inject('pgTemplateDatabase');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one query on a connection of its own and returns the rows (to check what a request stored). */
export async function queryRows(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<Record<string, any>[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}
