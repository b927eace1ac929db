import type { TParsedShape } from './tenant-document.shape.ts';
import { formatPath, type TDocumentProblem, type TPathOf } from './tenant-document.wording.ts';

/*
 * The rules between the records of a tenant document: ids unique per table across the whole document, slugs and emails
 * unique per tenant, every `*_id` pointing at a record of the same tenant, no tag cycles.
 */

type TTable =
  | 'tenants'
  | 'api_keys'
  | 'users'
  | 'locations'
  | 'companies'
  | 'company_locations'
  | 'departments'
  | 'job_types'
  | 'experience_levels'
  | 'education_levels'
  | 'tags'
  | 'vacancies'
  | 'team_members'
  | 'articles'
  | 'candidates';

/**
 * The first broken rule between records, in document order (tenants in order; within a tenant the
 * collections in the order of CONTRACT.md; within a record its fields in order), or undefined.
 */
export function findReferenceProblem(doc: TParsedShape): TDocumentProblem | undefined {
  const seenIds = new Map<TTable, Set<number>>();
  const seenKeys = new Set<string>();
  const seenTenantSlugs = new Set<string>();
  const seenTenantIds = new Set<number>();
  let found: TDocumentProblem | undefined;
  const fail = (pathOf: TPathOf, message: string): true => {
    const path = pathOf();
    found = { path: formatPath(path), segments: [...path], message };
    return true;
  };
  /** Registers an id of a table; true (after recording the problem) when it was used before. */
  const duplicateId = (table: TTable, id: number, path: TPathOf): boolean => {
    let set = seenIds.get(table);
    if (!set) seenIds.set(table, (set = new Set()));
    if (set.has(id)) return fail(path, `duplicate id ${id} (ids of a table are unique across the whole document)`);
    set.add(id);
    return false;
  };
  const unique = (set: Set<string>, value: string, path: TPathOf, what: string): boolean => {
    if (set.has(value)) return fail(path, `duplicate ${what} ${JSON.stringify(value)}`);
    set.add(value);
    return false;
  };
  const idsOf = (records: readonly { id: number }[]) => new Set(records.map((r) => r.id));

  doc.tenants.some((tenant, t) => {
    const at =
      (...rest: PropertyKey[]): TPathOf =>
      () => ['tenants', t, ...rest];
    if (unique(seenTenantSlugs, tenant.slug, at('slug'), 'tenant slug')) return true;
    if (tenant.id !== undefined) {
      if (seenTenantIds.has(tenant.id)) return fail(at('id'), `duplicate tenant id ${tenant.id}`);
      seenTenantIds.add(tenant.id);
    }

    const userIds = idsOf(tenant.users);
    const locationIds = idsOf(tenant.locations);
    const companyLocationIds = new Set(tenant.companies.flatMap((c) => c.locations.map((l) => l.id)));
    const departmentIds = idsOf(tenant.departments);
    const jobTypeIds = idsOf(tenant.job_types);
    const experienceLevelIds = idsOf(tenant.experience_levels);
    const educationLevelIds = idsOf(tenant.education_levels);
    const tagIds = idsOf(tenant.tags);

    const refList = (ids: readonly number[], known: Set<number>, field: TPathOf, what: string): boolean =>
      ids.some((id, i) => !known.has(id) && fail(() => [...field(), i], `no such ${what}`));
    const ref = (id: number | null, known: Set<number>, field: TPathOf, what: string): boolean =>
      id !== null && !known.has(id) && fail(field, `no such ${what}`);

    if (
      tenant.api_keys.some((key, i) => {
        if (duplicateId('api_keys', key.id, at('api_keys', i, 'id'))) return true;
        if (seenKeys.has(key.key))
          return fail(at('api_keys', i, 'key'), 'duplicate key (keys are unique across the whole document)');
        seenKeys.add(key.key);
        return false;
      })
    )
      return true;

    const emails = new Set<string>();
    if (
      tenant.users.some(
        (user, i) =>
          duplicateId('users', user.id, at('users', i, 'id')) ||
          unique(emails, user.email.toLowerCase(), at('users', i, 'email'), 'user email'),
      )
    )
      return true;

    const locationSlugs = new Set<string>();
    if (
      tenant.locations.some((location, i) => {
        if (duplicateId('locations', location.id, at('locations', i, 'id'))) return true;
        if (unique(locationSlugs, location.slug, at('locations', i, 'slug'), 'location slug')) return true;
        if ((location.latitude === null) !== (location.longitude === null)) {
          return fail(
            at('locations', i, location.latitude === null ? 'latitude' : 'longitude'),
            'latitude and longitude are given together or not at all',
          );
        }
        return false;
      })
    )
      return true;

    if (
      tenant.companies.some(
        (company, i) =>
          duplicateId('companies', company.id, at('companies', i, 'id')) ||
          company.locations.some((l, j) =>
            duplicateId('company_locations', l.id, at('companies', i, 'locations', j, 'id')),
          ),
      )
    )
      return true;

    for (const table of ['departments', 'job_types', 'experience_levels', 'education_levels'] as const) {
      if (tenant[table].some((record, i) => duplicateId(table, record.id, at(table, i, 'id')))) return true;
    }

    const parents = new Map(tenant.tags.map((tag) => [tag.id, tag.parent_id]));
    if (
      tenant.tags.some((tag, i) => {
        if (duplicateId('tags', tag.id, at('tags', i, 'id'))) return true;
        if (ref(tag.parent_id, tagIds, at('tags', i, 'parent_id'), 'tag')) return true;
        // Walk up the parents: reaching the tag again is a cycle.
        let current = tag.parent_id;
        for (let steps = 0; current !== null && steps <= parents.size; steps++) {
          if (current === tag.id) return fail(at('tags', i, 'parent_id'), 'tag hierarchy has a cycle');
          current = parents.get(current) ?? null;
        }
        return false;
      })
    )
      return true;

    const vacancySlugs = new Set<string>();
    if (
      tenant.vacancies.some((v, i) => {
        const f =
          (field: string): TPathOf =>
          () => ['tenants', t, 'vacancies', i, field];
        return (
          duplicateId('vacancies', v.id, f('id')) ||
          unique(vacancySlugs, v.slug, f('slug'), 'vacancy slug') ||
          ref(v.location_id, locationIds, f('location_id'), 'location') ||
          ref(v.department_id, departmentIds, f('department_id'), 'department') ||
          ref(v.company_location_id, companyLocationIds, f('company_location_id'), 'company location') ||
          refList(v.job_type_ids, jobTypeIds, f('job_type_ids'), 'job type') ||
          refList(v.experience_level_ids, experienceLevelIds, f('experience_level_ids'), 'experience level') ||
          refList(v.education_level_ids, educationLevelIds, f('education_level_ids'), 'education level') ||
          refList(v.tag_ids, tagIds, f('tag_ids'), 'tag') ||
          (v.compensation !== null &&
            v.compensation.min !== null &&
            v.compensation.max !== null &&
            v.compensation.max < v.compensation.min &&
            fail(at('vacancies', i, 'compensation', 'max'), 'must not be less than min'))
        );
      })
    )
      return true;

    const roles = new Map<string, { label: string; index: number }>();
    if (
      tenant.team_members.some((member, i) => {
        if (duplicateId('team_members', member.id, at('team_members', i, 'id'))) return true;
        if (!member.role) return false;
        const label = JSON.stringify(sortedEntries(member.role.label));
        const earlier = roles.get(member.role.name);
        if (!earlier) {
          roles.set(member.role.name, { label, index: i });
          return false;
        }
        return (
          earlier.label !== label &&
          fail(
            at('team_members', i, 'role', 'label'),
            `differs from the label of role ${JSON.stringify(member.role.name)} in team_members[${earlier.index}]`,
          )
        );
      })
    )
      return true;

    const articleSlugs = new Set<string>();
    if (
      tenant.articles.some(
        (article, i) =>
          duplicateId('articles', article.id, at('articles', i, 'id')) ||
          unique(articleSlugs, article.slug, at('articles', i, 'slug'), 'article slug') ||
          refList(article.tag_ids, tagIds, at('articles', i, 'tag_ids'), 'tag') ||
          hasCaseDuplicate(Object.keys(article.translations), at('articles', i, 'translations'), fail),
      )
    )
      return true;

    const candidateSlugs = new Set<string>();
    const candidateEmails = new Set<string>();
    return tenant.candidates.some(
      (candidate, i) =>
        duplicateId('candidates', candidate.id, at('candidates', i, 'id')) ||
        unique(candidateSlugs, candidate.slug, at('candidates', i, 'slug'), 'candidate slug') ||
        ref(candidate.user_id, userIds, at('candidates', i, 'user_id'), 'user') ||
        (candidate.email !== null &&
          unique(candidateEmails, candidate.email.toLowerCase(), at('candidates', i, 'email'), 'candidate email')),
    );
  });
  return found;
}

function sortedEntries(map: Record<string, string>): [string, string][] {
  return Object.entries(map)
    .map(([k, v]): [string, string] => [k.toLowerCase(), v])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function hasCaseDuplicate(languages: string[], path: TPathOf, fail: (path: TPathOf, message: string) => true): boolean {
  const seen = new Set<string>();
  for (const language of languages) {
    const lower = language.toLowerCase();
    if (seen.has(lower)) return fail(() => [...path(), language], `duplicate language ${JSON.stringify(lower)}`);
    seen.add(lower);
  }
  return false;
}
