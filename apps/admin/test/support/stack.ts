import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createCoreServices, openOrm, type TCoreServices } from '@careers/core';
import { createTestDatabase } from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
// Brings the globalSetup's `provide` types (pgServerUrl…) into this program for the type checker.
import { createApiApp } from '@careers/api';
import { createAdminApp } from '../../src/server/app.ts';
import { buildDashboard } from '../../src/server/build.ts';

type TRunning = { url: string; services: TCoreServices; close: () => Promise<void> };

async function listen(app: {
  listen: (port: number, host: string, cb: () => void) => Server;
}): Promise<{ server: Server; url: string }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function running(
  databaseUrl: string,
  make: (services: TCoreServices) => Parameters<typeof listen>[0],
  log = pino({ level: 'silent' }),
): Promise<TRunning> {
  const orm = await openOrm(databaseUrl);
  // Each server is its own process in production: its own ORM, key cache and batched writes.
  const services = createCoreServices(orm, log, { flushIntervalMs: 100 });
  const { server, url } = await listen(make(services));
  return {
    url,
    services,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      await orm.close();
    },
  };
}

export type TStack = {
  databaseUrl: string;
  /** Base URL of the API, including /v1. */
  apiUrl: string;
  /** Origin of the admin server. */
  adminUrl: string;
  /** Another admin server on the same database and build (e.g. behind a proxy). */
  /** `log`: the server's logger (silent by default). */
  startAdmin: (options: {
    trustProxy?: string;
    log?: pino.Logger;
  }) => Promise<{ url: string; close: () => Promise<void> }>;
  close: () => Promise<void>;
};

/**
 * A fresh database seeded with `document`, the real API app and the real admin server (over a fresh
 * production build of the dashboard) on free ports.
 */
export async function startStack(document: unknown): Promise<TStack> {
  const databaseUrl = await createTestDatabase();
  const seedOrm = await openOrm(databaseUrl);
  try {
    await importTenantDocument({ em: seedOrm.em }, document);
  } finally {
    await seedOrm.close();
  }
  const distDir = mkdtempSync(join(tmpdir(), 'careers-admin-dist-'));
  await buildDashboard(distDir);
  const api = await running(databaseUrl, (services) => createApiApp(services));
  const admin = await running(databaseUrl, (services) => createAdminApp(services, { distDir }));
  return {
    databaseUrl,
    apiUrl: `${api.url}/v1`,
    adminUrl: admin.url,
    startAdmin: ({ log, ...options }) =>
      running(databaseUrl, (services) => createAdminApp(services, { distDir, ...options }), log),
    close: async () => {
      await Promise.all([api.close(), admin.close()]);
      rmSync(distDir, { recursive: true, force: true });
    },
  };
}
