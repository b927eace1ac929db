import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createTestDatabase, queryRows } from './support/database.ts';
import { openOrm } from '../src/db/orm.ts';
import { sanitizeTenantHtml } from '../src/lib/tenant-html.ts';
import { importTenantDocument } from '../src/modules/tenants/import/tenant-import.service.ts';
import { Migration20261127230000 } from '../src/db/migrations/Migration20261127230000.ts';

/** What must never reach a career site's page from tenant HTML. */
const UNSAFE = /<\s*(script|iframe|style|object|embed)|\son[a-z]+\s*=|javascript:|\sstyle\s*=/i;

const HOSTILE = [
  '<p onclick="alert(1)">Hi<script>alert(1)</script></p>',
  '<img src="https://img.example/a.png" onerror="alert(1)">',
  '<a href="javascript:alert(1)">x</a><a href=" JAVASCRIPT:alert(1)">y</a>',
  '<iframe src="https://evil.example"></iframe><object data="x"></object>',
  '<p style="color:red">styled</p><style>body{display:none}</style>',
  '<svg><script>alert(1)</script></svg><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<scr<script>ipt>alert(1)</script>',
];

const TAG = /<\/?([A-Za-z][\w-]*)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/g;
const ATTRIBUTE = /([\w-]+)(?:="([^"]*)")?/g;

/** The tags and attributes of sanitized HTML (text holds no `<`: it is escaped) that a browser would run or style. */
function unsafeMarkup(html: string): string[] {
  const problems: string[] = [];
  for (const [, tag = '', attributes = ''] of html.matchAll(TAG)) {
    if (/^(script|iframe|style|object|embed|svg|math|frame|base|link|meta|form)$/i.test(tag))
      problems.push(`tag ${tag}`);
    for (const [, name = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
      if (/^on|^style$/i.test(name)) problems.push(`attribute ${name}`);
      // A scheme other than http(s) and mailto (relative URLs have none); browsers ignore tabs and newlines in it.
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(/[\t\n\r]/g, '').trim())?.[1];
      if (/^(href|src)$/i.test(name) && scheme !== undefined && !/^(https?|mailto)$/i.test(scheme))
        problems.push(`${name}=${value}`);
    }
  }
  if (html.replace(TAG, '').includes('<')) problems.push('a < outside a tag');
  return problems;
}

let orm: MikroORM;
let databaseUrl: string;

const DAY = 86_400_000;
const vacancy = (id: number, html: string) => ({
  id,
  slug: `job-${id}`,
  title: `Job ${id}`,
  language: 'en',
  status: 'published',
  channels: ['api'],
  published_at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
  ends_at: new Date(Date.UTC(2030, 0, 1) + DAY).toISOString(),
  summary: html,
  description: `<h2>About</h2>${html}`,
  requirements: `<ul><li>${html}</li></ul>`,
  offer: html,
});
const document = () => ({
  tenants: [
    {
      id: 1,
      slug: 'acme',
      name: 'Acme',
      default_language: 'en',
      vacancies: HOSTILE.map((html, i) => vacancy(i + 1, html)),
    },
  ],
});

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  orm = await openOrm(databaseUrl);
});
afterAll(async () => orm?.close(true));

describe('vacancy HTML is stored sanitized', () => {
  it('the import stores no script, handler, javascript: URL, iframe or style, and a second import of the same document changes nothing', async () => {
    await importTenantDocument({ em: orm.em }, document());
    const rows = await queryRows(
      databaseUrl,
      'select id, summary, description, requirements, offer from vacancies order by id',
    );
    expect(rows).toHaveLength(HOSTILE.length);
    for (const row of rows)
      for (const field of ['summary', 'description', 'requirements', 'offer'])
        expect(row[field], `${row.id} ${field}`).not.toMatch(UNSAFE);
    expect(rows[0]!.summary).toBe('<p>Hi</p>');
    expect(rows[1]!.description).toBe('<h2>About</h2><img src="https://img.example/a.png" />');
    const events = async () =>
      Number((await queryRows(databaseUrl, `select count(*) from events where type = 'vacancy.updated'`))[0]!.count);
    const before = await events();
    await importTenantDocument({ em: orm.em }, document());
    expect(await events()).toBe(before);
    expect(
      await queryRows(databaseUrl, 'select id, summary, description, requirements, offer from vacancies order by id'),
    ).toEqual(rows);
  });

  it('one sanitizer: applying it again changes nothing, and its output is never unsafe (property)', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '&',
      '"',
      "'",
      '=',
      '/',
      ' ',
      'script',
      'on',
      'error',
      'javascript:',
      'style',
      'iframe',
      'img',
      'src',
      'href',
      'a',
      'p',
      '<!--',
      '-->',
      'x',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.constantFrom(...HOSTILE)), { maxLength: 30 }), (parts) => {
        const once = sanitizeTenantHtml(parts.join(''));
        expect(sanitizeTenantHtml(once)).toBe(once);
        expect(unsafeMarkup(once)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('the migration sanitizes HTML stored before, and normalizes reported canonical URLs, recording vacancy.updated', async () => {
    await queryRows(databaseUrl, `update vacancies set summary = $1, canonical_url = $2 where id = 1`, [
      HOSTILE[1],
      'https://careers.acme.example\\@evil.example/x"><script>',
    ]);
    await queryRows(databaseUrl, `update vacancies set description = $1 where id = 2`, [
      '<p>plain & simple</p><script>alert(1)</script>',
    ]);
    const events = async () =>
      Number((await queryRows(databaseUrl, `select count(*) from events where type = 'vacancy.updated'`))[0]!.count);
    const before = await events();
    const migration = new Migration20261127230000(orm.em.getDriver(), orm.config);
    await migration.up();
    const [first, second] = await queryRows(
      databaseUrl,
      'select summary, description, canonical_url from vacancies where id in (1, 2) order by id',
    );
    expect(first!.summary).toBe('<img src="https://img.example/a.png" />');
    expect(first!.canonical_url).toBe('https://careers.acme.example/@evil.example/x%22%3E%3Cscript%3E');
    expect(second!.description).toBe('<p>plain &amp; simple</p>');
    expect(await events()).toBe(before + 2);
    // Run again: nothing left to change.
    await new Migration20261127230000(orm.em.getDriver(), orm.config).up();
    expect(await events()).toBe(before + 2);
  });
});
