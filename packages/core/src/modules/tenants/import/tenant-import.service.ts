import type { TOperatorContext } from '../../service-context.ts';
import { refreshSearchDocuments, storeSearchSynonyms } from '../../vacancies/vacancy-search.ts';
import { replaceOwnedRows, writeById } from './bulk-sql.ts';
import { countsOf, totalCounts, type TImportSummary } from './import-counts.ts';
import { TenantDocumentError, timed, writeCollection, type TImportOptions } from './import-errors.ts';
import { refreshStatistics, moveSequences } from './import-statistics.ts';
import {
  API_KEY_FIELDS,
  ARTICLE_FIELDS,
  ARTICLE_TAGS,
  ARTICLE_TRANSLATION_FIELDS,
  ARTICLE_TRANSLATION_KEY,
  articleTranslations,
  CANDIDATE_FIELDS,
  CANDIDATE_USERS,
  COMPANY_FIELDS,
  COMPANY_LOCATION_FIELDS,
  htmlSanitizer,
  JOB_TYPE_FIELDS,
  LOCATION_FIELDS,
  rowsOf,
  TAG_FIELDS,
  TAXONOMY_FIELDS,
  TEAM_MEMBER_FIELDS,
  USER_FIELDS,
  VACANCY_FIELDS,
  VACANCY_LINKS,
  type TLinkTable,
  type TRowContext,
} from './import-tables.ts';
import { countWritten, inImportTransaction, type TImportTransaction } from './import-transaction.ts';
import { findStoredIds, passwordHashesFor, upsertRoles, upsertTenant } from './stored-records.ts';
import {
  formatPath,
  parseTenantDocument,
  type TParsedTenant,
  type TParsedTenantDocument,
} from './tenant-document.schema.ts';

export { TenantDocumentError } from './import-errors.ts';
export type { TImportCounts, TImportSummary } from './import-counts.ts';
export { IMPORTED_TABLES } from './import-tables.ts';

/**
 * Loads a tenant document (CONTRACT.md, "Tenant document"): validates all of it first (a bad document throws
 * TenantDocumentError naming the first bad path and writes nothing), then writes every tenant in one
 * transaction, keeping the given ids. Importing the same document again gives the same state: records are
 * upserted by id, and the pivot rows, translations and role links of imported records are replaced.
 * Tenants are matched by slug. Records in the database that the document does not mention are left alone.
 */
export async function importTenantDocument(
  ctx: TOperatorContext,
  input: unknown,
  options: TImportOptions = {},
): Promise<TImportSummary> {
  const started = performance.now();
  const parsed = parseTenantDocument(input);
  options.onPhase?.('validate', performance.now() - started);
  if (!parsed.ok) throw new TenantDocumentError(parsed.problem.path, parsed.problem.message);
  const document: TParsedTenantDocument = parsed.document;

  let commitStarted = performance.now();
  let written = new Map<string, number>();
  const tenants = await inImportTransaction(ctx.em, async (trx) => {
    const results: TImportSummary['tenants'] = [];
    for (const [index, tenant] of document.tenants.entries()) {
      results.push(await importTenant(trx, tenant, index, options));
    }
    await timed(options, 'sequences', () => moveSequences(trx.db));
    written = trx.written;
    commitStarted = performance.now();
    return results;
  });
  options.onPhase?.('commit', performance.now() - commitStarted);
  await timed(options, 'analyze', () => refreshStatistics(ctx.em, written));
  return { tenants, totals: totalCounts(tenants), duration_ms: Math.round(performance.now() - started) };
}

/** Writes one tenant of the document, parents before children; the search documents after what they are made of. */
async function importTenant(
  trx: TImportTransaction,
  tenant: TParsedTenant,
  index: number,
  options: TImportOptions,
): Promise<TImportSummary['tenants'][number]> {
  const { db } = trx;
  const at = (...rest: PropertyKey[]): string => formatPath(['tenants', index, ...rest]);
  const tenantId = await upsertTenant(db, tenant, index);
  const storedIds = await timed(options, 'stored ids', () => findStoredIds(db, tenant, tenantId, index));
  const stored = (table: string): ReadonlySet<number> => storedIds.get(table) ?? new Set();
  const context: TRowContext = { tenantId, storedHtml: htmlSanitizer() };

  await writeCollection(options, at('api_keys'), () =>
    writeById(trx, 'api_keys', API_KEY_FIELDS, rowsOf(API_KEY_FIELDS, tenant.api_keys, context), stored('api_keys')),
  );

  const passwordHashes = await passwordHashesFor(db, tenant, tenantId);
  const users = tenant.users.map((u) => ({ ...u, password_hash: passwordHashes.get(u.id) ?? null }));
  await writeCollection(options, at('users'), () =>
    writeById(trx, 'users', USER_FIELDS, rowsOf(USER_FIELDS, users, context), stored('users')),
  );

  await writeCollection(options, at('locations'), () =>
    writeById(
      trx,
      'locations',
      LOCATION_FIELDS,
      rowsOf(LOCATION_FIELDS, tenant.locations, context),
      stored('locations'),
    ),
  );

  await writeCollection(options, at('companies'), async () => {
    await writeById(
      trx,
      'companies',
      COMPANY_FIELDS,
      rowsOf(COMPANY_FIELDS, tenant.companies, context),
      stored('companies'),
    );
    const companyLocations = tenant.companies.flatMap((c) => c.locations.map((l) => ({ ...l, company_id: c.id })));
    await writeById(
      trx,
      'company_locations',
      COMPANY_LOCATION_FIELDS,
      rowsOf(COMPANY_LOCATION_FIELDS, companyLocations, context),
      stored('company_locations'),
    );
  });

  for (const table of ['departments', 'experience_levels', 'education_levels'] as const) {
    await writeCollection(options, at(table), () =>
      writeById(trx, table, TAXONOMY_FIELDS, rowsOf(TAXONOMY_FIELDS, tenant[table], context), stored(table)),
    );
  }
  await writeCollection(options, at('job_types'), () =>
    writeById(
      trx,
      'job_types',
      JOB_TYPE_FIELDS,
      rowsOf(JOB_TYPE_FIELDS, tenant.job_types, context),
      stored('job_types'),
    ),
  );
  await writeCollection(options, at('tags'), () =>
    writeById(trx, 'tags', TAG_FIELDS, rowsOf(TAG_FIELDS, parentsFirst(tenant.tags), context), stored('tags')),
  );

  const roleIds = await writeCollection(options, at('team_members'), () => upsertRoles(db, tenant, tenantId));
  const members = tenant.team_members.map((m) => ({
    ...m,
    role_id: m.role ? (roleIds.get(m.role.name) ?? null) : null,
  }));
  await writeCollection(options, at('team_members'), () =>
    writeById(
      trx,
      'team_members',
      TEAM_MEMBER_FIELDS,
      rowsOf(TEAM_MEMBER_FIELDS, members, context),
      stored('team_members'),
    ),
  );

  await writeCollection(options, at('articles'), async () => {
    const newArticles = await writeById(
      trx,
      'articles',
      ARTICLE_FIELDS,
      rowsOf(ARTICLE_FIELDS, tenant.articles, context),
      stored('articles'),
    );
    // Translations keep their ids across imports (matched by article and language); languages no longer in the
    // document are removed.
    await timed(options, 'article_translations', () =>
      replaceOwnedRows(
        trx,
        'article_translations',
        ARTICLE_TRANSLATION_FIELDS,
        ARTICLE_TRANSLATION_KEY,
        tenant.articles.map((a) => a.id),
        rowsOf(ARTICLE_TRANSLATION_FIELDS, articleTranslations(tenant.articles), context),
        newArticles,
      ),
    );
    await replaceLinks(trx, ARTICLE_TAGS, tenant.articles, newArticles, options);
  });

  await writeCollection(options, at('vacancies'), async () => {
    const newVacancies = await timed(options, 'vacancy rows', () =>
      writeById(
        trx,
        'vacancies',
        VACANCY_FIELDS,
        rowsOf(VACANCY_FIELDS, tenant.vacancies, context),
        stored('vacancies'),
      ),
    );
    for (const link of VACANCY_LINKS) await replaceLinks(trx, link, tenant.vacancies, newVacancies, options);
  });
  // Left out of the document: the stored groups stay as they are.
  const synonyms = tenant.search_synonyms;
  if (synonyms)
    await writeCollection(options, at('search_synonyms'), () => storeSearchSynonyms(db, tenantId, synonyms));
  // After everything a vacancy's search text is made of (taxonomies, locations, vacancies) is written.
  await timed(options, 'search documents', async () =>
    countWritten(trx, 'vacancy_search_documents', await refreshSearchDocuments(db, tenantId)),
  );

  await writeCollection(options, at('candidates'), async () => {
    const newCandidates = await writeById(
      trx,
      'candidates',
      CANDIDATE_FIELDS,
      rowsOf(CANDIDATE_FIELDS, tenant.candidates, context),
      stored('candidates'),
    );
    await replaceLinks(trx, CANDIDATE_USERS, tenant.candidates, newCandidates, options);
  });

  return { id: tenantId, slug: tenant.slug, counts: countsOf(tenant, roleIds.size) };
}

/** Makes the link rows of the given owners exactly the (owner, target) pairs they list. */
async function replaceLinks<TOwner extends { id: number }>(
  trx: TImportTransaction,
  link: TLinkTable<TOwner>,
  owners: readonly TOwner[],
  newOwners: ReadonlySet<number>,
  options: TImportOptions,
): Promise<void> {
  const pairs = owners.flatMap((owner) => link.targets(owner).map((target) => [owner.id, target]));
  await timed(options, link.table, () =>
    replaceOwnedRows(
      trx,
      link.table,
      [
        { name: link.owner, type: 'int4' },
        { name: link.target, type: 'int4' },
      ],
      [link.owner, link.target],
      owners.map((owner) => owner.id),
      pairs,
      newOwners,
    ),
  );
}

/** Tags in an order where every parent comes before its children (the document may list them any way). */
function parentsFirst<T extends { id: number; parent_id: number | null }>(tags: readonly T[]): T[] {
  const byId = new Map(tags.map((t) => [t.id, t]));
  const placed = new Set<number>();
  const out: T[] = [];
  const place = (tag: T): void => {
    if (placed.has(tag.id)) return;
    placed.add(tag.id);
    const parent = tag.parent_id === null ? undefined : byId.get(tag.parent_id);
    if (parent) place(parent);
    out.push(tag);
  };
  for (const tag of tags) place(tag);
  return out;
}
