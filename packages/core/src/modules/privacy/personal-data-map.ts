/**
 * The personal-data map: every table of the database, declared once, with what it holds about a candidate and how
 * the rows of one person are found. Erasure (erasure.repository.ts) deletes in this order, and the export reads the
 * tables marked `exported`. `personal-data-map.test.ts` fails when a table of the database is not declared here, so a
 * new table cannot be forgotten.
 *
 * A person is the set of ids erasure collects first (TPersonIds): their candidates, those candidates' applications,
 * their resume uploads (processings) and the events about any of them.
 */

/** How a person's rows of a table are found. */
export type TPersonReach =
  /** `column` holds one of the person's candidate ids. */
  | { by: 'candidate'; column: string }
  /** `column` holds one of the person's application ids. */
  | { by: 'application'; column: string }
  /** `column` holds the id of one of the person's resume uploads. */
  | { by: 'processing'; column: string }
  /** `column` holds the id (`evt_…`) of an event about the person (events.object/object_id name them). */
  | { by: 'event'; column: string }
  /** The events about the person: `object` is candidate, application or resume with one of their ids. */
  | { by: 'event-object' }
  /** Stored API responses that name one of the person's candidates, applications or resume uploads. */
  | { by: 'stored-response' }
  /** Rate-limit windows keyed by a hash of an address the person's applications were sent from. */
  | { by: 'address-bucket' };

export type TPersonalDataTable = {
  table: string;
  /** The columns that can hold the person's data (names, contact details, answers, tracking, file bytes, copies). */
  columns: readonly string[];
  reach: TPersonReach;
  /** Part of the export (GET /candidates/{id}/export); copies (responses, payloads, events) are not. */
  exported: boolean;
};

export type TOtherTable = { table: string; holds: 'no candidate data'; why: string };

/** Tables that hold a candidate's data, in the order erasure deletes from them (dependents first). */
export const PERSONAL_DATA_TABLES: readonly TPersonalDataTable[] = [
  {
    table: 'webhook_deliveries',
    columns: ['payload', 'last_response'],
    reach: { by: 'event', column: 'event_id' },
    exported: false,
  },
  { table: 'events', columns: ['data', 'slug'], reach: { by: 'event-object' }, exported: false },
  { table: 'idempotency_records', columns: ['response_body'], reach: { by: 'stored-response' }, exported: false },
  { table: 'rate_limit_windows', columns: ['bucket'], reach: { by: 'address-bucket' }, exported: false },
  {
    table: 'documents',
    columns: ['filename', 'content', 'mime_type'],
    reach: { by: 'application', column: 'application_id' },
    exported: true,
  },
  {
    table: 'applications',
    columns: [
      'answers',
      'tracking_ip_address',
      'tracking_user_agent',
      'tracking_referrer',
      'privacy_policy_accepted',
      'consent_processing',
      'consent_talent_pool',
    ],
    // By its own id: a person's applications are collected with the candidate, and an expired one is erased on its own.
    reach: { by: 'application', column: 'id' },
    exported: true,
  },
  {
    table: 'resume_processings',
    columns: ['filename', 'content', 'error'],
    reach: { by: 'candidate', column: 'candidate_id' },
    exported: true,
  },
  { table: 'intakes', columns: ['status'], reach: { by: 'candidate', column: 'candidate_id' }, exported: false },
  {
    table: 'candidate_users',
    columns: ['user_id'],
    reach: { by: 'candidate', column: 'candidate_id' },
    exported: true,
  },
  {
    table: 'candidates',
    columns: ['first_name', 'last_name', 'email', 'phone', 'linkedin_url', 'slug', 'status', 'profile'],
    reach: { by: 'candidate', column: 'id' },
    exported: true,
  },
];

/** Every other table, with the reason it holds nothing about a candidate. */
export const OTHER_TABLES: readonly TOtherTable[] = [
  { table: 'tenants', holds: 'no candidate data', why: 'the tenant and its settings' },
  { table: 'api_keys', holds: 'no candidate data', why: 'keys: digests, names, scopes' },
  { table: 'users', holds: 'no candidate data', why: "the tenant's staff accounts" },
  { table: 'admin_sessions', holds: 'no candidate data', why: 'staff sign-in sessions' },
  { table: 'locations', holds: 'no candidate data', why: 'public content' },
  { table: 'companies', holds: 'no candidate data', why: 'public content' },
  { table: 'company_locations', holds: 'no candidate data', why: 'public content' },
  { table: 'departments', holds: 'no candidate data', why: 'public content' },
  { table: 'job_types', holds: 'no candidate data', why: 'public content' },
  { table: 'experience_levels', holds: 'no candidate data', why: 'public content' },
  { table: 'education_levels', holds: 'no candidate data', why: 'public content' },
  { table: 'tags', holds: 'no candidate data', why: 'public content' },
  { table: 'vacancies', holds: 'no candidate data', why: 'public content (view counts are aggregates)' },
  { table: 'vacancy_job_types', holds: 'no candidate data', why: 'public content' },
  { table: 'vacancy_experience_levels', holds: 'no candidate data', why: 'public content' },
  { table: 'vacancy_education_levels', holds: 'no candidate data', why: 'public content' },
  { table: 'vacancy_tags', holds: 'no candidate data', why: 'public content' },
  { table: 'team_roles', holds: 'no candidate data', why: 'public content' },
  { table: 'team_members', holds: 'no candidate data', why: "public profiles of the tenant's staff" },
  { table: 'articles', holds: 'no candidate data', why: 'public content' },
  { table: 'article_translations', holds: 'no candidate data', why: 'public content' },
  { table: 'article_tags', holds: 'no candidate data', why: 'public content' },
  { table: 'announced_visibilities', holds: 'no candidate data', why: 'visibility of vacancies and articles' },
  { table: 'event_retention', holds: 'no candidate data', why: 'positions pruned per tenant' },
  { table: 'webhook_endpoints', holds: 'no candidate data', why: "the tenant's receivers" },
  { table: 'webhook_dispatch_cursors', holds: 'no candidate data', why: 'a position in the event stream' },
  {
    table: 'audit_log_entries',
    holds: 'no candidate data',
    why: 'actors are staff or keys; subjects name candidates by id only',
  },
  { table: 'mikro_orm_migrations', holds: 'no candidate data', why: 'applied migrations' },
  { table: 'vacancy_search_documents', holds: 'no candidate data', why: 'search documents of public vacancies' },
  {
    table: 'search_words',
    holds: 'no candidate data',
    why: "words of the tenant's public vacancies (the typo lexicon)",
  },
  { table: 'search_synonyms', holds: 'no candidate data', why: 'synonym groups from the tenant document' },
  {
    table: 'server_secrets',
    holds: 'no candidate data',
    why: 'keys the service made for itself (change-feed cursors)',
  },
  { table: 'known_sign_in_addresses', holds: 'no candidate data', why: 'hashed addresses staff signed in from' },
];
