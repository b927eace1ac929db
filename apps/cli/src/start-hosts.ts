import { isIPv6 } from 'node:net';

/** The loopback address `pnpm start` binds to when HOST is unset. */
export const STARTER_DEFAULT_HOST = '127.0.0.1';

export type TStartHosts = {
  /** What each server `pnpm start` runs is given: API and admin (HOST), career site (CAREER_SITE_HOST), API and worker metrics (METRICS_HOST). */
  childEnv: { HOST: string; CAREER_SITE_HOST: string; METRICS_HOST: string };
  /** The host part of the URLs it prints and hands to the career site (a wildcard address is reached on loopback). */
  urlHost: string;
};

/**
 * Where `pnpm start` binds its servers: this machine only unless HOST says otherwise, since it prints the demo admin
 * password and a key with every scope. The metrics ports stay on METRICS_HOST (this machine unless set) whatever HOST
 * says: they are the operator's, never the visitors'.
 */
export function startHosts(env: { HOST?: string; METRICS_HOST?: string }): TStartHosts {
  const host = env.HOST || STARTER_DEFAULT_HOST;
  const wildcard = host === '0.0.0.0' || host === '::';
  const urlHost = wildcard ? STARTER_DEFAULT_HOST : isIPv6(host) ? `[${host}]` : host;
  return {
    childEnv: { HOST: host, CAREER_SITE_HOST: host, METRICS_HOST: env.METRICS_HOST || STARTER_DEFAULT_HOST },
    urlHost,
  };
}
