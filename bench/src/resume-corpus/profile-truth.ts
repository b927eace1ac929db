/**
 * What a person reading a corpus resume writes down as the candidate's profile, from the person record and the
 * layout (what the page shows). Written independently of the extraction code: its own small readers for the period
 * styles and language entries the corpus uses, which refuse anything else (so a new style needs its truth here too).
 */
import type { TCorpusProfile } from '@careers/core/testing';
import type { TPerson } from './people.ts';
import { SHOWS_TITLE, shownLinks } from './templates.ts';

const MONTHS: Record<string, number> = {
  jan: 1,
  'jan.': 1,
  gen: 1,
  feb: 2,
  mar: 3,
  mrt: 3,
  apr: 4,
  'apr.': 4,
  aug: 8,
  'aug.': 8,
  août: 8,
  sep: 9,
  'sept.': 9,
  dic: 12,
  'dez.': 12,
  dec: 12,
  // The generated people's months (synth.ts), per language.
  'feb.': 2,
  märz: 3,
  mai: 5,
  juni: 6,
  juli: 7,
  'okt.': 10,
  'nov.': 11,
  may: 5,
  jun: 6,
  jul: 7,
  oct: 10,
  nov: 11,
  mei: 5,
  okt: 10,
  'janv.': 1,
  'févr.': 2,
  mars: 3,
  'avr.': 4,
  juin: 6,
  'juil.': 7,
  'oct.': 10,
  'déc.': 12,
  ene: 1,
  abr: 4,
  ago: 8,
  mag: 5,
  giu: 6,
  lug: 7,
  set: 9,
  ott: 10,
  sty: 1,
  lut: 2,
  kwi: 4,
  maj: 5,
  cze: 6,
  lip: 7,
  sie: 8,
  wrz: 9,
  paź: 10,
  lis: 11,
  gru: 12,
};
const PRESENT = new Set([
  'present',
  'now',
  'heden',
  'heute',
  'obecnie',
  'actualidad',
  'aujourd’hui',
  "aujourd'hui",
  'oggi',
  'in corso',
]);
const SINCE = new Set(['seit', 'depuis', 'dal', 'desde', 'od', 'since', 'sinds']);

function date(written: string, where: string): string {
  let match = /^(\d{4})$/u.exec(written);
  if (match) return match[1]!;
  match = /^(\d{2})[./](\d{4})$/u.exec(written);
  if (match) return `${match[2]}-${match[1]}`;
  match = /^(\S+)\s(\d{4})$/u.exec(written);
  const month = match ? MONTHS[match[1]!.toLowerCase()] : undefined;
  if (match && month !== undefined) return `${match[2]}-${String(month).padStart(2, '0')}`;
  throw new Error(`${where}: no truth for the date "${written}"; add its style to profile-truth.ts`);
}

export function periodTruth(period: string, where: string): { start: string; end: string | null; current: boolean } {
  const [first, second] = period.split(/ [–-] /u);
  if (second === undefined) {
    const [word, rest] = period.split(/\s(.+)/u);
    if (word === undefined || rest === undefined || !SINCE.has(word.toLowerCase()))
      throw new Error(`${where}: no truth for "${period}"`);
    return { start: date(rest, where), end: null, current: true };
  }
  if (PRESENT.has(second.toLowerCase())) return { start: date(first!, where), end: null, current: true };
  return { start: date(first!, where), end: date(second, where), current: false };
}

const LANGUAGE_CODES: Record<string, string> = {
  english: 'en',
  engels: 'en',
  englisch: 'en',
  anglais: 'en',
  inglés: 'en',
  inglese: 'en',
  angielski: 'en',
  dutch: 'nl',
  nederlands: 'nl',
  néerlandais: 'nl',
  german: 'de',
  duits: 'de',
  deutsch: 'de',
  allemand: 'de',
  niemiecki: 'de',
  français: 'fr',
  frans: 'fr',
  französisch: 'fr',
  francese: 'fr',
  french: 'fr',
  español: 'es',
  espagnol: 'es',
  spanish: 'es',
  spanisch: 'es',
  spagnolo: 'es',
  italiano: 'it',
  italien: 'it',
  polski: 'pl',
  polish: 'pl',
  tamil: 'ta',
  norwegian: 'no',
  irish: 'ga',
  mandarin: 'zh',
  catalán: 'ca',
  euskera: 'eu',
  hindi: 'hi',
  arabisch: 'ar',
  welsh: 'cy',
  italian: 'it',
  spaans: 'es',
  polnisch: 'pl',
  francés: 'fr',
  alemán: 'de',
  tedesco: 'de',
  francuski: 'fr',
  hiszpański: 'es',
};
/** The corpus's level words on the four-step scale (CEFR: A1–B1 basic, B2–C1 professional, C2 fluent). */
const LEVELS: Record<string, 'native' | 'fluent' | 'professional' | 'basic'> = {
  native: 'native',
  moedertaal: 'native',
  muttersprache: 'native',
  'langue maternelle': 'native',
  nativo: 'native',
  ojczysty: 'native',
  madrelingua: 'native',
  fluent: 'fluent',
  vloeiend: 'fluent',
  fließend: 'fluent',
  courant: 'fluent',
  fluente: 'fluent',
  goed: 'professional',
  gut: 'professional',
  verhandlungssicher: 'professional',
  b2: 'professional',
  c1: 'professional',
  basic: 'basic',
  basis: 'basic',
  redelijk: 'basic',
  grundkenntnisse: 'basic',
  notions: 'basic',
  intermédiaire: 'basic',
  intermediate: 'basic',
  conversational: 'basic',
  a2: 'basic',
  b1: 'basic',
  professional: 'professional',
  bilingue: 'fluent',
  fluido: 'fluent',
  avanzado: 'professional',
  intermedio: 'basic',
  básico: 'basic',
  buono: 'professional',
  base: 'basic',
  biegły: 'fluent',
  dobry: 'professional',
  podstawowy: 'basic',
};

function spokenTruth(
  entry: string,
  where: string,
): { language: string; level: 'native' | 'fluent' | 'professional' | 'basic' | null } {
  const match = /^(\S+) \((.+)\)$/u.exec(entry);
  const language = match ? LANGUAGE_CODES[match[1]!.toLowerCase()] : undefined;
  const level = match ? LEVELS[match[2]!.toLowerCase()] : undefined;
  if (language === undefined || level === undefined) throw new Error(`${where}: no truth for the language "${entry}"`);
  return { language, level };
}

function linkTruth(written: string): { type: 'linkedin' | 'github' | 'website'; url: string } {
  const url = new URL(/^https?:\/\//u.test(written) ? written : `https://${written}`);
  if (url.hostname.endsWith('linkedin.com'))
    return { type: 'linkedin', url: `https://www.linkedin.com${url.pathname}` };
  if (url.hostname.endsWith('github.com')) return { type: 'github', url: `https://github.com${url.pathname}` };
  return { type: 'website', url: url.href };
}

export function profileTruth(person: TPerson): TCorpusProfile {
  return {
    headline: SHOWS_TITLE[person.layout] ? person.title : null,
    location: { city: person.city, country_code: person.country },
    links: shownLinks(person).map(linkTruth),
    experience: person.jobs.map((job) => ({
      title: job.role,
      employer: job.employer,
      ...periodTruth(job.period, person.slug),
    })),
    education: person.education.map((entry) => {
      const { start, end } = periodTruth(entry.period, person.slug);
      return { degree: entry.degree, institution: entry.school, start, end };
    }),
    skills: person.skills,
    languages: person.spoken.map((entry) => spokenTruth(entry, person.slug)),
  };
}
