import { gzip } from 'node:zlib';
import { promisify } from 'node:util';

/**
 * The crafted request bodies of `pnpm abuse`. Each is built once and the same Buffer is sent by every request
 * that uses it, so the tool stays small however many are in flight.
 */

/** Just under the API's 40 MB body limit (CONTRACT: 40 × 1024 × 1024 bytes), so the size check alone cannot refuse it. */
export const CRAFTED_BODY_BYTES = 39 * 1024 * 1024;

/** `[{},{},…,{}]` of about CRAFTED_BODY_BYTES: about 13.6 million empty objects, each a separate allocation once parsed. */
export function tinyObjectsBody(bytes = CRAFTED_BODY_BYTES): Buffer {
  const objects = Math.floor((bytes - 1) / 3);
  const body = Buffer.allocUnsafe(objects * 3 + 1);
  body.write('[', 0, 'latin1');
  body.fill('{},', 1, body.length, 'latin1');
  // The last object's comma becomes the closing bracket.
  body.write(']', body.length - 1, 'latin1');
  return body;
}

/** The same body gzip-compressed (about 38 KB), sent with `Content-Encoding: gzip`. */
export async function gzipBombBody(plain: Buffer): Promise<Buffer> {
  return promisify(gzip)(plain, { level: 9 });
}

/** A JSON object whose `candidate` holds `levels` nested arrays (100 000 levels: 200 KB). */
export function deepJsonBody(levels = 100_000): Buffer {
  return Buffer.from(`{"candidate":${'['.repeat(levels)}${']'.repeat(levels)}}`, 'latin1');
}

/** A string with a NUL byte (JSON.stringify writes it as \u0000, the only way JSON can carry it). */
export const withNul = (text: string) => `${text.slice(0, 3)}\u0000${text.slice(3)}`;

export type TApplicationBody = {
  vacancy: string | number;
  candidate: { given_name: string; family_name: string; email: string };
  documents?: { resume?: { filename: string; content: string; mime_type: string } };
  privacy_policy_accepted?: boolean;
  tracking?: { user_agent?: string; ip_address?: string; referrer?: string };
};

/** An ordinary application to `vacancy` (a slug of the attacking tenant); the NUL cases change one field of it. */
export function applicationBody(vacancy: string, email: string, resumeBase64?: string): TApplicationBody {
  return {
    vacancy,
    candidate: { given_name: 'Robin', family_name: 'Jansen', email },
    ...(resumeBase64
      ? { documents: { resume: { filename: 'robin-jansen.pdf', content: resumeBase64, mime_type: 'application/pdf' } } }
      : {}),
    privacy_policy_accepted: true,
    tracking: {
      user_agent: 'Mozilla/5.0 (abuse test)',
      ip_address: '203.0.113.7',
      referrer: 'https://jobs.example/listing',
    },
  };
}

/** The POST bodies with a NUL byte in one string each: name → (path, body). */
export function nulBodies(
  vacancy: string,
  resumeBase64: string,
  userId: number,
): { name: string; label: string; path: string; body: unknown }[] {
  const base = () => applicationBody(vacancy, `nul.${Math.random().toString(36).slice(2)}@abuse.example`, resumeBase64);
  const inVacancy = { ...base(), vacancy: withNul(vacancy) };
  const inGivenName = base();
  inGivenName.candidate.given_name = withNul('Robin');
  const inFilename = base();
  inFilename.documents = {
    resume: { filename: withNul('robin-jansen.pdf'), content: resumeBase64, mime_type: 'application/pdf' },
  };
  const inTracking = base();
  inTracking.tracking = { user_agent: withNul('Mozilla/5.0 (abuse test)') };
  return [
    { name: 'vacancy', label: 'vacancy', path: '/applications', body: inVacancy },
    { name: 'candidate.given_name', label: 'given_name', path: '/applications', body: inGivenName },
    { name: 'documents.resume.filename', label: 'filename', path: '/applications', body: inFilename },
    { name: 'tracking.user_agent', label: 'tracking', path: '/applications', body: inTracking },
    {
      name: 'resume.filename (POST /candidates)',
      label: 'cand. filename',
      path: '/candidates',
      body: {
        user_id: userId,
        resume: { filename: withNul('robin-jansen.pdf'), content: resumeBase64, mime_type: 'application/pdf' },
      },
    },
  ];
}
