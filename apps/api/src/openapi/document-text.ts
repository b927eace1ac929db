import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '@careers/core';

export const EXTENSION_NOTE = 'This operation is an extension: it is not part of the original interface.';

export const TAGS = [
  { name: 'Health', description: 'Checking an API key' },
  { name: 'Vacancies', description: 'Published vacancies, their facets and canonical URLs' },
  { name: 'Locations', description: 'Office locations' },
  { name: 'Team', description: 'Employed team members' },
  { name: 'Articles', description: 'Published articles' },
  { name: 'Candidates', description: "A user's candidates and candidates from resumes" },
  { name: 'Applications', description: 'Job applications' },
  { name: 'Changes', description: 'The change feed of vacancies and articles' },
  { name: 'Operations', description: 'Documentation, liveness, readiness and metrics (extensions; no API key)' },
];

export const DOCUMENT_DESCRIPTION = [
  'Per-tenant API for career websites: published vacancies with facets, locations, team members, articles, applications and candidates. ' +
    'Every request carries `Authorization: Bearer <API key>`; each operation names the scope its key needs.',
  'Checks run in this order: route (an unknown path is 404 `NotFoundError` even without a key; a known path with another method is 405 ' +
    '`MethodNotAllowedError` with an `Allow` header) → authentication (401) → tenant API access (403) → allowed origin of a publishable key (403 `ORIGIN_NOT_ALLOWED`) → body syntax and size (400/413) → scope (403) → ' +
    'rate limit (429) → validation (422) → existence and business rules (404/400/409).',
  'Request bodies (extension, `x-body-limits`): JSON up to 40 MiB, checked while it arrives and parsed only after the scope and rate-limit checks. ' +
    `A compressed body (\`Content-Encoding\` other than \`identity\`) is 415, more than ${MAX_JSON_VALUES} JSON values 413, nesting deeper than ${MAX_JSON_DEPTH} levels 422 \`errors.body\` ` +
    '(reported in the place of validation, after the rate-limit check); a process that holds too many bodies at once, or a key or client address that ' +
    'already holds a quarter of them, answers 503 `ServerBusyError` with `Retry-After`; a body that stops arriving for 10 s is 408 `RequestTimeoutError`. ' +
    'NUL characters and unpaired surrogates are refused in every string of a body (422 on that field; in `vacancy` of POST /applications: 404 `VACANCY_NOT_FOUND`).',
  'Unknown query parameters are ignored. Booleans in the query accept `true`, `false`, `1` and `0`; integers accept digits only. ' +
    'Array parameters are sent as `name[]=1&name[]=2`. A request line plus headers over 16 KiB is refused with 431 (no body) before any of this.',
  'Browsers (`x-cors`): a career site calls the API straight from the page with a publishable key (`pk_live_…`/`pk_test_…`, scheme ' +
    '`publishableKey`), created with its allowed origins and only the scopes vacancies:read, locations:read, team:read, articles:read and ' +
    'applications:write. A request with a publishable key from an origin it does not allow (or without `Origin`) is 403 `ORIGIN_NOT_ALLOWED`, ' +
    'checked right after tenant API access. A preflight `OPTIONS` on any path answers 204 for any origin (it carries no key); the answers to a ' +
    'publishable key from an allowed origin, errors included, carry `Access-Control-Allow-Origin` (that origin), `Vary: Origin` and ' +
    '`Access-Control-Expose-Headers`. Secret keys (`ck_…`, scheme `bearerAuth`) never get CORS headers: keep them on a server. ' +
    'With a publishable key, POST /applications is limited per client address (5 per minute per address and key, every request; IPv6 by /64) ' +
    'and per key (120 stored applications per minute: rejected and `validate_only` requests do not count); the rate-limit headers describe the ' +
    'window nearer to exhaustion.',
  'Extensions (marked `x-extension`): the `Idempotency-Key` header, conditional GET (`ETag`/`304`), GET /candidates/{id}, ' +
    'GET /candidates/processing/{processing_id}, GET /vacancies/{slug}/application-form with `answers` on POST /applications, `validate_only` on ' +
    'POST /applications and POST /candidates, 409 `DUPLICATE_APPLICATION` (tenant setting `duplicate_applications`) and the operations endpoints ' +
    '(/openapi.json, /docs, /livez, /readyz; Prometheus metrics are served on a separate port, METRICS_PORT).',
  "Every 422 lists every invalid field at once: unknown filter ids (GET) and answers checked against the named vacancy's questions (POST /applications) " +
    'are reported together with the other invalid values.',
].join('\n\n');
