/** A small tenant document for the dashboard tests; ids and names vary per call so tests do not lean on one fixture. */
export function dashboardDocument(options: { seed: number; vacancies: number }) {
  const base = options.seed * 100;
  const slug = `tenant-${options.seed}`;
  const admin = { email: `admin${options.seed}@${slug}.example`, password: `pw-${options.seed}-correct-horse` };
  const recruiter = { email: `recruiter${options.seed}@${slug}.example`, password: `pw-${options.seed}-recruiter` };
  const draftSlug = `draft-${options.seed}`;
  const existingKey = `ck_test_${slug}_existing_0000000000`;
  const vacancies = Array.from({ length: options.vacancies }, (_, i) => ({
    id: base + 50 + i,
    slug: `vacancy-${options.seed}-${i}`,
    title: `Vacancy ${i} of ${slug}`,
    language: 'en',
    status: 'published',
    channels: ['api', 'website'],
    published_at: new Date(Date.now() - (i + 1) * 86_400_000).toISOString(),
  }));
  // One unpublished vacancy that must never be counted or listed.
  vacancies.push({ ...vacancies[0]!, id: base + 49, slug: draftSlug, title: 'Draft', status: 'draft' });
  const document = {
    tenants: [
      {
        slug,
        name: `Tenant ${options.seed}`,
        default_language: 'en',
        api_keys: [
          { id: base + 1, name: 'Existing website', key: existingKey, scopes: ['vacancies:read', 'locations:read'] },
          {
            id: base + 2,
            name: 'Old plugin',
            key: `ck_test_${slug}_revoked_00000000000`,
            scopes: ['candidates:read'],
            revoked: true,
          },
        ],
        users: [
          { id: base + 1, name: 'Dana Admin', email: admin.email, role: 'admin', password: admin.password },
          {
            id: base + 2,
            name: 'Rick Recruiter',
            email: recruiter.email,
            role: 'recruiter',
            password: recruiter.password,
          },
        ],
        vacancies,
      },
    ],
  };
  return { document, slug, admin, recruiter, existingKey, draftSlug, visibleVacancies: options.vacancies };
}
