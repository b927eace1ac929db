import { describe, expect, it } from 'vitest';
import { findPeriod } from '../src/modules/resumes/resume-profile/dates.ts';
import { languageLevel, parseSpokenLanguage } from '../src/modules/resumes/resume-profile/languages.ts';
import { extractProfile } from '../src/modules/resumes/resume-profile/profile.ts';
import { extractCandidateFields } from '../src/modules/resumes/resume-fields.ts';

function profileOf(lines: string[]) {
  const text = lines.join('\n');
  return extractProfile(text, extractCandidateFields(text));
}

describe('periods', () => {
  it.each([
    ['Jan 2019 – Mar 2021', { start: '2019-01', end: '2021-03', current: false }],
    ['01/2019 - 03/2021', { start: '2019-01', end: '2021-03', current: false }],
    ['03.2016 – 12.2019', { start: '2016-03', end: '2019-12', current: false }],
    ['2019-03 – 2020-11', { start: '2019-03', end: '2020-11', current: false }],
    ['2019 – heden', { start: '2019', end: null, current: true }],
    ['2020 – present', { start: '2020', end: null, current: true }],
    ['März 2018 – heute', { start: '2018-03', end: null, current: true }],
    ['seit 04/2021', { start: '2021-04', end: null, current: true }],
    ['depuis 2020', { start: '2020', end: null, current: true }],
    ["sept. 2017 – aujourd'hui", { start: '2017-09', end: null, current: true }],
    ['ene 2015 – actualidad', { start: '2015-01', end: null, current: true }],
    ['gen 2019 – oggi', { start: '2019-01', end: null, current: true }],
    ['dal 2021', { start: '2021', end: null, current: true }],
    ['od 2020', { start: '2020', end: null, current: true }],
    ['2015 – obecnie', { start: '2015', end: null, current: true }],
    ['2018 –', { start: '2018', end: null, current: true }],
  ])('reads "%s"', (written, expected) => {
    expect(findPeriod(written)).toMatchObject(expected);
  });

  it('does not take a birth date, a postcode or a phone number for a period', () => {
    for (const text of ['03-11-1985', 'ul. Długa 12/4, 31-147 Kraków', '089 12345678', 'Tel 2019'])
      expect(findPeriod(text), text).toBeNull();
  });

  it('refuses a range that ends before it starts', () => {
    expect(findPeriod('2021 – 2019')).toBeNull();
  });
});

describe('languages', () => {
  it.each([
    ['Nederlands (moedertaal)', { language: 'nl', level: 'native' }],
    ['Englisch – fließend', { language: 'en', level: 'fluent' }],
    ['Anglais : courant', { language: 'en', level: 'fluent' }],
    ['Inglés (C1)', { language: 'en', level: 'professional' }],
    ['angielski B2', { language: 'en', level: 'professional' }],
    ['Italiano (madrelingua)', { language: 'it', level: 'native' }],
    ['Deutsch (Grundkenntnisse)', { language: 'de', level: 'basic' }],
    ['Fluent German', { language: 'de', level: 'fluent' }],
    ['Spanish', { language: 'es', level: null }],
  ])('reads "%s"', (entry, expected) => {
    expect(parseSpokenLanguage(entry)).toEqual(expected);
  });

  it('maps CEFR levels as documented: A1–B1 basic, B2–C1 professional, C2 fluent', () => {
    expect(['A1', 'A2', 'B1', 'B2', 'C1', 'C2'].map(languageLevel)).toEqual([
      'basic',
      'basic',
      'basic',
      'professional',
      'professional',
      'fluent',
    ]);
  });

  it('is no language when the name is none', () => {
    expect(parseSpokenLanguage('Driving licence B')).toBeNull();
  });
});

describe('extractProfile', () => {
  it('reads an English resume: headline, location, links, positions, studies, skills and languages in order', () => {
    const profile = profileOf([
      'Jane Doe',
      'Senior Data Engineer',
      'London, United Kingdom · jane.doe@example.com · +44 20 7946 0321',
      'github.com/janedoe · https://janedoe.example.com',
      'Experience',
      'Senior Data Engineer — Example Analytics Ltd, London',
      'Jan 2019 – Present',
      '• Built the data platform.',
      'Data Engineer at Sample Bank plc',
      'Sep 2015 – Dec 2018',
      'Education',
      'MSc Computer Science, University of Example',
      '2013 – 2015',
      'Skills',
      'Python, SQL, Airflow',
      'Languages',
      'English (native), French (B2)',
    ]);
    expect(profile).toEqual({
      headline: 'Senior Data Engineer',
      location: { city: 'London', country_code: 'GB' },
      links: [
        { type: 'github', url: 'https://github.com/janedoe' },
        { type: 'website', url: 'https://janedoe.example.com/' },
      ],
      experience: [
        {
          title: 'Senior Data Engineer',
          employer: 'Example Analytics Ltd',
          start: '2019-01',
          end: null,
          current: true,
        },
        { title: 'Data Engineer', employer: 'Sample Bank plc', start: '2015-09', end: '2018-12', current: false },
      ],
      education: [{ degree: 'MSc Computer Science', institution: 'University of Example', start: '2013', end: '2015' }],
      skills: ['Python', 'SQL', 'Airflow'],
      languages: [
        { language: 'en', level: 'native' },
        { language: 'fr', level: 'professional' },
      ],
    });
  });

  it('reads a German resume with periods first and the employer on the next line', () => {
    const profile = profileOf([
      'Lebenslauf',
      'Persönliche Daten',
      'Name\tMax Mustermann',
      'Anschrift\tBeispielweg 3, 80331 München',
      'E-Mail\tmax@example.de',
      'Berufserfahrung',
      'seit 04/2021\tProjektleiter',
      'Beispiel Bau GmbH, München',
      '01/2016 - 03/2021\tBauleiter',
      'Muster Hochbau AG, Augsburg',
      'Ausbildung',
      '2010 – 2015\tB.Eng. Bauingenieurwesen',
      'Hochschule Beispiel',
      'Sprachen',
      'Deutsch (Muttersprache), Englisch (fließend)',
    ]);
    expect(profile.location).toEqual({ city: 'München', country_code: 'DE' });
    expect(profile.headline).toBeNull();
    expect(profile.experience).toEqual([
      { title: 'Projektleiter', employer: 'Beispiel Bau GmbH', start: '2021-04', end: null, current: true },
      { title: 'Bauleiter', employer: 'Muster Hochbau AG', start: '2016-01', end: '2021-03', current: false },
    ]);
    expect(profile.education).toEqual([
      { degree: 'B.Eng. Bauingenieurwesen', institution: 'Hochschule Beispiel', start: '2010', end: '2015' },
    ]);
    expect(profile.languages).toEqual([
      { language: 'de', level: 'native' },
      { language: 'en', level: 'fluent' },
    ]);
  });

  it('reads French and Dutch headings and "depuis" / "heden"', () => {
    const french = profileOf([
      'Camille Martin',
      'Expérience professionnelle',
      'Comptable — Exemple SA, Lyon',
      'depuis 2020',
      'Langues',
      'Français (langue maternelle)',
      'Anglais (courant)',
    ]);
    expect(french.experience).toEqual([
      { title: 'Comptable', employer: 'Exemple SA', start: '2020', end: null, current: true },
    ]);
    expect(french.languages).toEqual([
      { language: 'fr', level: 'native' },
      { language: 'en', level: 'fluent' },
    ]);
    const dutch = profileOf([
      'Sanne de Boer',
      'Werkervaring',
      'Teamleider - Voorbeeld B.V., Utrecht',
      '2019 – heden',
      'Talen',
      'Nederlands (moedertaal)',
    ]);
    expect(dutch.experience).toEqual([
      { title: 'Teamleider', employer: 'Voorbeeld B.V.', start: '2019', end: null, current: true },
    ]);
  });

  it('knows a heading written in capitals without its accents (as OCR and many resumes write it)', () => {
    const profile = profileOf([
      'Jean Dupont',
      'EXPERIENCE PROFESSIONNELLE',
      'Comptable — Exemple SA, Lyon',
      '2016 — 2020',
      'COMPETENCES',
      'SAP',
    ]);
    expect(profile.experience).toEqual([
      { title: 'Comptable', employer: 'Exemple SA', start: '2016', end: '2020', current: false },
    ]);
    expect(profile.skills).toEqual(['SAP']);
  });

  it('takes nothing from references, and gives an empty profile for a text without sections', () => {
    const profile = profileOf([
      'Anna Kowalska',
      'Referencje',
      'Jan Nowak, Kierownik, Przykład S.A., Warszawa',
      '2015 – 2019',
    ]);
    expect(profile.experience).toEqual([]);
    expect(profileOf([])).toEqual({
      headline: null,
      location: null,
      links: [],
      experience: [],
      education: [],
      skills: [],
      languages: [],
    });
  });

  it('stays bounded on a hostile text: thousands of period lines and a huge skills list', () => {
    const lines = [
      'Experience',
      ...Array.from({ length: 20_000 }, (_, index) => `Title ${index} — Employer ${index}, 2010 – 2011`),
      'Skills',
      'x, '.repeat(50_000),
    ];
    const started = performance.now();
    const profile = profileOf(lines);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(profile.experience.length).toBeLessThanOrEqual(50);
    expect(profile.skills.length).toBeLessThanOrEqual(100);
  });
});
