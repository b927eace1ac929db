import { PLACE_REGION, STATE_CODES } from './resume-vocabulary.ts';

/* The country a line of a resume names (a city, a country, "City, ST", a postcode). */

const PLACE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}.'’-])(${[...PLACE_REGION.keys()]
    .sort((a, b) => b.length - a.length)
    .map((name) => name.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('|')})(?![\\p{L}\\p{N}'’-])`,
  'giu',
);
const STATE_RE = /,\s*([A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?(?![\p{L}\p{N}])/gu;
const POSTCODE_RES: [RegExp, string][] = [
  [/(?<![\p{L}\p{N}])[1-9]\d{3} ?(?!SA|SD|SS)[A-Z]{2}(?![\p{L}\p{N}])/u, 'NL'],
  [/(?<![\p{L}\p{N}])[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}(?![\p{L}\p{N}])/u, 'GB'],
  [/(?<![\p{L}\p{N}-])\d{2}-\d{3} \p{Lu}/u, 'PL'],
];

/** The country a line names (a city, a country, "City, ST", a postcode), as an ISO region. */
export function regionOfLine(line: string): string | null {
  for (const match of line.matchAll(PLACE_RE)) {
    const written = match[1] ?? '';
    // "US", "UK", "NYC" only in capitals ("contact us" is not a country).
    if (written.replace(/\./gu, '').length <= 3 && written !== written.toLocaleUpperCase()) continue;
    const region = PLACE_REGION.get(written.toLocaleLowerCase());
    if (region !== undefined) return region;
  }
  for (const match of line.matchAll(STATE_RE)) {
    const region = STATE_CODES.get(match[1] ?? '');
    if (region !== undefined) return region;
  }
  for (const [pattern, region] of POSTCODE_RES) if (pattern.test(line)) return region;
  return null;
}
