import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isOriginAllowed, normalizeOrigin } from '../src/modules/api-keys/api-key.origins.ts';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => `${labels.join('.')}.example`);
const scheme = fc.constantFrom('http', 'https');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
/** Upper-cases some characters (schemes and hosts are case-insensitive; browsers send them lower-case). */
const shout = (text: string, mask: boolean[]) =>
  [...text].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c)).join('');

describe('allowed origins', () => {
  it('normalise to the form a browser sends, idempotently, whatever the case and a trailing slash', () => {
    fc.assert(
      fc.property(
        scheme,
        host,
        port,
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.boolean(),
        (s, h, p, mask, slash) => {
          const defaultPort = (s === 'http' && p === 80) || (s === 'https' && p === 443);
          const expected = `${s}://${h}${p === undefined || defaultPort ? '' : `:${p}`}`;
          const written = shout(`${s}://${h}${p === undefined ? '' : `:${p}`}`, mask) + (slash ? '/' : '');
          const origin = normalizeOrigin(written);
          expect(origin).toBe(expected);
          expect(normalizeOrigin(origin ?? '')).toBe(origin);
          // The browser's Origin header (any case) matches the stored form; another port or scheme never does.
          expect(isOriginAllowed([expected], shout(expected, mask))).toBe(true);
          expect(isOriginAllowed([expected], `${s === 'http' ? 'https' : 'http'}://${h}`)).toBe(false);
        },
      ),
    );
  });

  it('refuse anything with a path, query, fragment, credentials, a wildcard or another scheme', () => {
    fc.assert(
      fc.property(scheme, host, fc.constantFrom('/jobs', '/a/', '?x=1', '#top', '/?'), (s, h, tail) => {
        expect(normalizeOrigin(`${s}://${h}${tail}`)).toBeNull();
      }),
    );
    for (const value of [
      '*',
      'https://*.example.com',
      'ftp://a.example',
      'a.example',
      'https://user:pw@a.example',
      'https://',
      'javascript:alert(1)',
      'null',
      ' ',
    ]) {
      expect(normalizeOrigin(value), value).toBeNull();
    }
    expect(isOriginAllowed(['https://a.example'], undefined)).toBe(false);
    expect(isOriginAllowed(null, 'https://a.example')).toBe(false);
  });
});
