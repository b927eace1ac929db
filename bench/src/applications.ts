import { randomBytes } from 'node:crypto';
import type { TLoadScenario } from './scenario.ts';
import { measure } from './scenario.ts';

const RESUME_BYTES = 50 * 1024;
/** Enough keys that no key reaches 10 applications per minute at the expected rate. */
const KEYS = 3000;
const keyOf = (index: number) => `ck_bench_${String(index).padStart(8, '0')}_applications`;

/**
 * POST /applications with a 50 KB resume (base64 in the JSON body), a new candidate each time, and the
 * API key rotated per request so the per-key rate limit never answers instead of the write path.
 */
export const applicationsScenario: TLoadScenario = {
  description: 'POST /applications with a 50 KB base64 resume; keys rotated under the rate limit',
  document: () => ({
    tenants: [
      {
        slug: 'bench',
        name: 'Bench',
        career_site: { domain: 'careers.bench.example', url_pattern: 'https://careers.bench.example/jobs/{slug}' },
        api_keys: Array.from({ length: KEYS }, (_, index) => ({
          id: index + 1,
          name: `bench ${index}`,
          key: keyOf(index),
          scopes: ['applications:write'],
        })),
        vacancies: [
          {
            id: 1,
            slug: 'benchmark-engineer',
            title: 'Benchmark Engineer',
            language: 'en',
            status: 'published',
            channels: ['api'],
            published_at: '2024-01-01T00:00:00Z',
          },
        ],
      },
    ],
  }),
  run: async (environment, options) => {
    const resume = randomBytes(RESUME_BYTES).toString('base64');
    // The body around the email, so each request costs one string concatenation, not a JSON.stringify of 68 KB.
    const [head, tail] = JSON.stringify({
      vacancy: 'benchmark-engineer',
      candidate: { given_name: 'Bench', family_name: 'Mark', email: '@@EMAIL@@' },
      documents: { resume: { filename: 'resume.pdf', content: resume, mime_type: 'application/pdf' } },
      privacy_policy_accepted: true,
      tracking: {
        ip_address: '198.51.100.7',
        user_agent: 'autocannon',
        referrer: 'https://careers.bench.example/jobs/benchmark-engineer',
      },
    }).split('@@EMAIL@@') as [string, string];
    let sequence = 0;
    const result = await measure('applications', environment, {
      url: environment.baseUrl.replace(/\/v1$/, ''),
      connections: options.connections,
      duration: options.durationSeconds,
      requests: [
        {
          method: 'POST',
          path: '/v1/applications',
          setupRequest: (request) => {
            const n = sequence++;
            return {
              ...request,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${keyOf(n % KEYS)}` },
              body: `${head}candidate.${n}@bench.example${tail}`,
            };
          },
        },
      ],
    });
    const perKey = Math.ceil(result.requests / KEYS);
    return {
      ...result,
      notes: `resume ${RESUME_BYTES / 1024} KiB decoded (${resume.length} base64 chars); ${KEYS} keys, ≤ ${perKey} requests per key`,
    };
  },
};
