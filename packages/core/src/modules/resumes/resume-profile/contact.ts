/**
 * The candidate's headline (the job title beside the name), location (city and country) and links (LinkedIn, GitHub,
 * a website), read from the resume's own details: its top, contact column and personal-details table — never from a
 * position, a school or a referee.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { findLinkedinUrl } from '../resume-fields.ts';
import { PLACE_REGION, fold, isFieldLabel } from '../resume-vocabulary.ts';
import { sectionOf } from './sections.ts';

export type TProfileLocation = { city: string | null; country_code: string | null };
export type TProfileLink = { type: 'linkedin' | 'github' | 'website'; url: string };

const RESUME_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pl'];

/** Every country's name in the resume languages (and in its own forms PLACE_REGION knows) → ISO 3166-1 alpha-2. */
const COUNTRY_CODE = (() => {
  const names = new Map<string, string>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const displays = RESUME_LANGUAGES.map(
    (language) => new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }),
  );
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      for (const display of displays) {
        let name: string | undefined;
        try {
          name = display.of(code);
        } catch {
          name = undefined;
        }
        // The first code of a name wins: "France" is FR, not the reserved FX ("United Kingdom" is GB, not UK).
        if (name !== undefined && name !== code && !names.has(fold(name))) names.set(fold(name), code);
      }
    }
  }
  for (const [extra, code] of [
    ['usa', 'US'],
    ['u.s.a', 'US'],
    ['uk', 'GB'],
    ['england', 'GB'],
    ['scotland', 'GB'],
    ['wales', 'GB'],
    ['holland', 'NL'],
    ['the netherlands', 'NL'],
    ['polska', 'PL'],
    ['españa', 'ES'],
    ['deutschland', 'DE'],
    ['nederland', 'NL'],
    ['italia', 'IT'],
    ['norge', 'NO'],
    ['sverige', 'SE'],
    ['danmark', 'DK'],
    ['suomi', 'FI'],
    ['éire', 'IE'],
  ] as const) {
    names.set(extra, code);
  }
  return names;
})();

export function countryCode(name: string): string | null {
  return COUNTRY_CODE.get(fold(name)) ?? null;
}

/** A city PLACE_REGION knows (not a country), with its country. */
function knownCity(name: string): string | null {
  const folded = fold(name);
  if (COUNTRY_CODE.has(folded)) return null;
  return PLACE_REGION.get(folded) ?? null;
}

const CITY_LABELS = new Set([
  'city',
  'town',
  'residence',
  'location',
  'based in',
  'woonplaats',
  'plaats',
  'wohnort',
  'ort',
  'stadt',
  'ville',
  'lieu',
  'ciudad',
  'localidad',
  'residencia',
  'città',
  'citta',
  'residenza',
  'domicilio',
  'miasto',
  'miejscowość',
]);
const HEADLINE_LABELS = new Set([
  'desired employment',
  'desired position',
  'position',
  'job title',
  'title',
  'gewenste functie',
  'functie',
  'gewünschte beschäftigung',
  'gewünschte position',
  'position',
  'emploi recherché',
  'poste recherché',
  'poste',
  'puesto deseado',
  'puesto',
  'posizione desiderata',
  'occupazione desiderata',
  'posizione',
  'stanowisko',
  'oczekiwane stanowisko',
]);

/** A city written after a postcode: "1015 DT Amsterdam", "80331 München", "31-147 Kraków", "75002 Paris". */
const POSTCODE_CITY_RE =
  /(?<![\p{L}\d])(?:\d{4}\s?[A-Z]{2}|\d{2}-\d{3}|[A-Z]{1,2}-?\d{4,5}|\d{4,5})\s+(\p{Lu}[\p{L}'’.-]*(?:[\s-](?:(?:am|an|de|den|del|la|le|sur|im|nad|di|the|upon)\s)?\p{Lu}[\p{L}'’.-]*){0,2})/u;
/** "San Francisco, CA 94110": a US city before its state. */
const US_CITY_RE = /(\p{Lu}[\p{L}'’.-]*(?:\s\p{Lu}[\p{L}'’.-]*){0,2}),\s*[A-Z]{2}\s+\d{5}/u;
const UK_POSTCODE_RE = /^[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}$/u;

type TContactLine = { text: string; index: number };

function cells(text: string): string[] {
  return text
    .split(/\t|\s+[·•|]\s+/u)
    .map((cell) => cell.trim())
    .filter(Boolean);
}

/** The city and country the candidate's own lines name. */
export function readLocation(lines: readonly TContactLine[], phone: string | null): TProfileLocation | null {
  let labelled: string | null = null;
  let written: string | null = null;
  let country: string | null = null;
  const setCity = (value: string, byLabel = false): void => {
    const name = value.trim();
    // A city has lower-case letters ("3011 AD" ends an address line: "AD" is no city).
    if (!/\p{Ll}/u.test(name) || name.length < 2) return;
    if (byLabel) labelled ??= name;
    else written ??= name;
  };
  for (const [at, line] of lines.entries()) {
    const parts = cells(line.text);
    // A label row over a value row (a header table): "E-Mail⇥Telefon⇥Wohnort" / "jane@…⇥089 …⇥München".
    const labelColumn = parts.findIndex((part) => CITY_LABELS.has(fold(part)));
    if (labelColumn !== -1) {
      const value =
        parts.length > 1 && parts.every((part) => isFieldLabel(part) || CITY_LABELS.has(fold(part)))
          ? cells(lines[at + 1]?.text ?? '')[labelColumn]
          : parts[labelColumn + 1];
      if (value !== undefined) setCity(value.replace(/^\d{2}-\d{3}\s+|^\d{4,5}\s+/u, ''), true);
    }
    for (const part of line.text.split(/\t|,\s*|\s+[·•|]\s+/u).map((piece) => piece.trim())) {
      const named = countryCode(part);
      if (named !== null && country === null && part.length > 2) country = named;
    }
    const us = US_CITY_RE.exec(line.text);
    if (us) setCity(us[1]!);
    const postcode = POSTCODE_CITY_RE.exec(line.text);
    if (postcode && !/^\+|tel|phone|\d{3}\s\d{3}/iu.test(line.text)) setCity(postcode[1]!);
    // A UK or Irish postcode on its own line: the city is the line above.
    if (UK_POSTCODE_RE.test(line.text.trim()) && at > 0) {
      const above = lines[at - 1]!.text;
      if (knownCity(above) !== null || /^\p{Lu}[\p{L}\s-]{1,30}$/u.test(above)) setCity(above);
    }
  }
  let city: string | null = labelled ?? written;
  if (city === null) {
    // A known city on its own, or as a part of a line: "Amsterdam", "Bordeaux, France · +33 …".
    for (const line of lines) {
      for (const part of line.text.split(/\t|,\s*|\s+[·•|]\s+/u)) {
        if (knownCity(part.trim()) !== null) {
          city = part.trim();
          break;
        }
      }
      if (city !== null) break;
    }
  }
  const cityName: string | null = city;
  if (country === null && cityName !== null) country = knownCity(cityName);
  if (country === null && phone !== null) country = parsePhoneNumberFromString(phone)?.country ?? null;
  if (cityName === null && country === null) return null;
  return { city: cityName, country_code: country };
}

function isHeadlineText(text: string): boolean {
  if (text.length > 80 || text.split(/\s+/u).length > 8) return false;
  if (/[@\d]|https?:|www\./u.test(text) || /[.!?]$/u.test(text)) return false;
  if (sectionOf(text) !== null || isFieldLabel(text) || isFieldLabel(text.split('\t')[0] ?? '')) return false;
  if (text.includes('\t') || countryCode(text) !== null || knownCity(text) !== null) return false;
  return /\p{L}/u.test(text);
}

/**
 * The job title the resume gives its candidate: a "desired position" field, else the line below the name (or above it,
 * where the title leads), when it reads as a title.
 */
export function readHeadline(lines: readonly TContactLine[], firstName: string, lastName: string): string | null {
  for (const line of lines) {
    const [label, value] = line.text.split('\t');
    if (label !== undefined && value !== undefined && HEADLINE_LABELS.has(fold(label)) && value.trim() !== '')
      return value.trim();
  }
  const name = fold(`${firstName} ${lastName}`);
  if (name === '' || lastName === '') return null;
  let at = lines.findIndex((line) => fold(line.text) === name);
  // A name over two lines ("SIOBHÁN" / "Ó DUBHGHAILL"): the title is beside the pair.
  let last = at;
  if (at === -1) {
    at = lines.findIndex(
      (line, index) => lines[index + 1] !== undefined && fold(`${line.text} ${lines[index + 1]!.text}`) === name,
    );
    last = at + 1;
  }
  if (at === -1) return null;
  for (const [neighbour, from] of [
    [lines[last + 1], lines[last]!],
    [lines[at - 1], lines[at]!],
  ] as const) {
    if (neighbour === undefined || Math.abs(neighbour.index - from.index) !== 1) continue;
    // "Backend Developer | Rotterdam": the title is the part that is not a place.
    const parts = neighbour.text.split(/\s+[|·•]\s+|\s+[–—]\s+/u).map((part) => part.trim());
    const places = parts.filter(
      (part) => knownCity(part) !== null || countryCode(part) !== null || /^[\d+(]/u.test(part),
    );
    const title = parts.filter((part) => !places.includes(part));
    if (title.length === 1 && isHeadlineText(title[0]!)) return title[0]!;
  }
  return null;
}

const GITHUB_RE =
  /(?<![\p{L}\p{N}.-])(?:https?:\/\/)?(?:www\.)?github\.com\/([A-Za-z\d](?:[A-Za-z\d-]{0,38}))(?![\w-])/iu;
const URL_RE = /(?<![\p{L}\p{N}@.-])(?:https?:\/\/|www\.)[^\s<>"'()]+/giu;

/** LinkedIn, GitHub and other web addresses on the candidate's own lines, each once, in that order. */
export function readLinks(lines: readonly TContactLine[]): TProfileLink[] {
  const links: TProfileLink[] = [];
  const add = (link: TProfileLink): void => {
    if (links.length < 10 && !links.some((known) => known.url === link.url)) links.push(link);
  };
  for (const line of lines) {
    const linkedin = findLinkedinUrl(line.text);
    if (linkedin !== null) add({ type: 'linkedin', url: linkedin });
    const github = GITHUB_RE.exec(line.text);
    if (github) add({ type: 'github', url: `https://github.com/${github[1]}` });
    for (const match of line.text.matchAll(URL_RE)) {
      const written = match[0].replace(/[.,;:]+$/u, '');
      if (/linkedin\.com|github\.com/iu.test(written)) continue;
      let url: URL;
      try {
        url = new URL(/^https?:\/\//iu.test(written) ? written : `https://${written}`);
      } catch {
        continue;
      }
      if (url.hostname.includes('.')) add({ type: 'website', url: url.href });
    }
  }
  return links;
}
