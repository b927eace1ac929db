import { describe, expect, it } from 'vitest';
import { RESUME_CORPUS_DIR, evaluateCorpusFile, readCorpusTruth } from './support/resume-corpus.ts';
import {
  ocrUnavailableReason,
  repairOcrMisreads,
  withoutOcrBullets,
  wordsOfTsv,
} from '../src/modules/resumes/resume-ocr.ts';
import { extractCandidateFields } from '../src/modules/resumes/resume-fields.ts';
import { findEmailWithQAsAt } from '../src/modules/resumes/resume-email.ts';
import { spacedName } from '../src/modules/resumes/resume-lines.ts';
import { nameWords, withSplitLettersJoined } from '../src/modules/resumes/resume-name.ts';
import { misreadDigitsPhone } from '../src/modules/resumes/resume-phone.ts';

/**
 * Failures reported from resumes we do not have (#31), each rebuilt as a generated corpus file with its truth
 * (bench/src/resume-corpus/people.ts, REPORTED_PEOPLE) and read here through the real parser: detect the type, extract
 * the text, find the fields and the profile.
 */
const truth = readCorpusTruth();

const REPORTED: [file: string, what: string][] = [
  [
    '45-rhys-ap-gruffydd.pdf',
    'a Welsh "ap" surname (was "Apgruffydd", from the email) and a UK 07700 900xxx mobile (was missed)',
  ],
  ['45-rhys-ap-gruffydd.docx', 'the same as a DOCX'],
  [
    '46-ines-de-la-fuente.pdf',
    'a Europass name beside the "Personal information" label (was "Ines / Delafuente", from the email)',
  ],
  ['46-ines-de-la-fuente.docx', 'the same as a DOCX'],
  [
    '47-siobhan-o-dubhghaill.docx',
    'a name after a long DOCX sidebar, over two lines (was "Siobhan / Odh", from the email)',
  ],
  ['47-siobhan-o-dubhghaill.pdf', 'the same as a PDF, the name in capitals'],
  ['48-lukasz-wroblewski.pdf', 'a name beside a contact column in a header table (was "Lukasz | W")'],
  ['48-lukasz-wroblewski.docx', 'the same as a DOCX'],
];

describe('reported resume failures, as generated files through the real parser', () => {
  it.each(REPORTED)('%s: %s', async (file) => {
    const entry = truth[file];
    expect(entry, `${file} is in the corpus's truth`).toBeDefined();
    const outcome = await evaluateCorpusFile(RESUME_CORPUS_DIR, file, entry!);
    expect(outcome.error).toBeNull();
    expect(outcome.got).toEqual({
      first_name: entry!.first_name,
      last_name: entry!.last_name,
      email: entry!.email,
      phone: entry!.phone,
    });
    expect(outcome.profileScore.misses).toEqual([]);
  });

  it.skipIf(ocrUnavailableReason() !== null)(
    'reads the photo of the Welsh resume: name and UK mobile',
    async () => {
      const file = '45-rhys-ap-gruffydd.scan.jpg';
      const outcome = await evaluateCorpusFile(RESUME_CORPUS_DIR, file, truth[file]!);
      expect(outcome.got).toMatchObject({ first_name: 'Rhys', last_name: 'ap Gruffydd', phone: '+447700900456' });
    },
    90_000,
  );
});

describe('the reported rules on their own', () => {
  it('reads a Welsh or Arabic patronymic and an Irish mutated surname as part of the name', () => {
    expect(extractCandidateFields('Rhys ap Gruffydd\nrhys.apgruffydd@example.co.uk')).toMatchObject({
      firstName: 'Rhys',
      lastName: 'ap Gruffydd',
      nameSource: 'line',
    });
    expect(extractCandidateFields('Gwen ferch Owain\ngwen@example.co.uk')).toMatchObject({
      firstName: 'Gwen',
      lastName: 'ferch Owain',
    });
    expect(extractCandidateFields('Aoife Ó hEadhra\naoife@example.ie')).toMatchObject({
      firstName: 'Aoife',
      lastName: 'Ó hEadhra',
    });
  });

  it('takes the name written beside a "Personal information" label on the same line', () => {
    for (const label of ['Personal information', 'Informations personnelles', 'Angaben zur Person', 'Dane osobowe']) {
      expect(
        extractCandidateFields(`${label} Inés de la Fuente\nE-mail ines.delafuente@example.es`),
        label,
      ).toMatchObject({ firstName: 'Inés', lastName: 'de la Fuente', nameSource: 'line' });
    }
  });

  it('reads an unlabelled national number that is possible but outside the phone plan (UK drama range)', () => {
    expect(
      extractCandidateFields('Rhys Jones\n7 Example Terrace\nCardiff\nCF10 1AA\n07700 900456\nrhys@example.co.uk')
        .phone,
    ).toBe('+447700900456');
    // Dates and postcodes are not numbers.
    expect(
      extractCandidateFields('Rhys Jones\nCardiff CF10 1AA\n01/2019 - 03/2021\nrhys@example.co.uk').phone,
    ).toBeNull();
  });

  it('finds the name at the top of the main column after a sidebar of any length', () => {
    const sidebar = [
      'Contact',
      'Cork',
      '087 123 4567',
      'siobhan.odh@example.ie',
      'Skills',
      ...Array.from({ length: 60 }, (_, index) => `Skill ${index + 1}`),
    ];
    const text = `${sidebar.join('\n')}\n\f\nSiobhán Ó Dubhghaill\nClinical Nurse Manager\nProfile\nNurse manager.`;
    expect(extractCandidateFields(text, { defaultRegion: 'IE' })).toMatchObject({
      firstName: 'Siobhán',
      lastName: 'Ó Dubhghaill',
      nameSource: 'line',
    });
  });
});

describe('general rules found on the way', () => {
  it('reads a surname written in capitals beside the given names, before or after them', () => {
    expect(extractCandidateFields('Jean DUPONT\njean.dupont@example.fr')).toMatchObject({
      firstName: 'Jean',
      lastName: 'Dupont',
    });
    expect(extractCandidateFields('KOWALSKA Anna Maria\nak@example.pl')).toMatchObject({
      firstName: 'Anna Maria',
      lastName: 'Kowalska',
    });
    expect(extractCandidateFields('Anna DE LA FUENTE\nanna@example.es')).toMatchObject({
      firstName: 'Anna',
      lastName: 'de la Fuente',
    });
    expect(extractCandidateFields('JANE DOE\njd@example.com')).toMatchObject({ firstName: 'Jane', lastName: 'Doe' });
  });

  it('reads initials as the given names ("J. R. Ewing", "J.P. de Vries") instead of giving up on the name', () => {
    expect(extractCandidateFields('J. R. Ewing\nje@example.com')).toMatchObject({
      firstName: 'J. R.',
      lastName: 'Ewing',
      nameSource: 'line',
    });
    expect(extractCandidateFields('J.P. de Vries\njp@example.nl')).toMatchObject({
      firstName: 'J.P.',
      lastName: 'de Vries',
    });
    expect(extractCandidateFields('Anna M. Smith\nas@example.com')).toMatchObject({
      firstName: 'Anna M.',
      lastName: 'Smith',
    });
    expect(extractCandidateFields('P.O. Box 123\nJane Doe\njd@example.com')).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
    });
  });

  it("reads a national number in the country of the email's domain when the resume names none", () => {
    expect(
      extractCandidateFields('John Smith\nMobile: 07911 123456\njs@example.co.uk', { defaultRegion: 'NL' }).phone,
    ).toBe('+447911123456');
    expect(
      extractCandidateFields('John Smith\nMobile: 07911 123456\njs@example.com', { defaultRegion: 'NL' }).phone,
    ).toBe('+317911123456');
  });

  it('reads an OCR email with a separator glued in front ("-a.zajac@…", " .dan.foster@…") without it', () => {
    expect(
      extractCandidateFields('Agnieszka Zając\nGdańsk - +48 58 123 45 67 -a.zajac@poczta.example', { ocr: true }).email,
    ).toBe('a.zajac@poczta.example');
    expect(
      extractCandidateFields('Daniel Foster\nChicago, USA- (312) 555-0147 .dan.foster@example.com', { ocr: true })
        .email,
    ).toBe('dan.foster@example.com');
  });

  it('repairs what OCR misreads for certain: an email\'s "@" and "l", a legal form', () => {
    expect(repairOcrMisreads('Correo\tines.delafuente(Ocorreo.example')).toBe('Correo\tines.delafuente@correo.example');
    expect(repairOcrMisreads('|.wroblewski@poczta.example')).toBe('l.wroblewski@poczta.example');
    expect(repairOcrMisreads('Programista — Przykład Sp. z 0.0., Kraków')).toBe(
      'Programista — Przykład Sp. z o.o., Kraków',
    );
    expect(repairOcrMisreads('Engineer — Sample Consulting pic, Swansea')).toBe(
      'Engineer — Sample Consulting plc, Swansea',
    );
    expect(repairOcrMisreads('a picture (O) of it')).toBe('a picture (O) of it');
  });

  it('reads an OCR email as the name spells it when one confusable letter or a split-off first name differs', () => {
    expect(extractCandidateFields('Rhys ap Gruffydd\nthys.apgruffydd@example.co.uk', { ocr: true }).email).toBe(
      'rhys.apgruffydd@example.co.uk',
    );
    expect(extractCandidateFields('Lucas Chevalier\nIchevalier@exemple.fr', { ocr: true }).email).toBe(
      'lchevalier@exemple.fr',
    );
    expect(extractCandidateFields('Sergio Jiménez Torres\nsergio jimeneztorres@ejemplo.es', { ocr: true }).email).toBe(
      'sergio.jimeneztorres@ejemplo.es',
    );
    // Not from text with a layer, and never away from what the name spells.
    expect(extractCandidateFields('Rhys ap Gruffydd\nthys.apgruffydd@example.co.uk').email).toBe(
      'thys.apgruffydd@example.co.uk',
    );
    expect(extractCandidateFields('Jan Smit\ninfo@smit.example', { ocr: true }).email).toBe('info@smit.example');
  });

  it('keeps an email tesseract is unsure of, joined with the part it split off at a dot', () => {
    const row = (word: number, left: number, conf: number, text: string) =>
      `5\t1\t1\t1\t1\t${word}\t${left}\t100\t${text.length * 10}\t20\t${conf}\t${text}`;
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '1\t1\t0\t0\t0\t0\t0\t0\t1000\t1000\t-1\t',
      row(1, 100, 11, 'giulia.'),
      row(2, 175, 11, 'romano@posta.example'),
      row(3, 600, 12, 'xx'),
    ].join('\n');
    expect(wordsOfTsv(tsv).map((word) => word.str)).toEqual(['giulia.romano@posta.example']);
  });
});

/** Misreads found on the generated OCR tuning files (seeds 202 and 303 of bench/src/resume-corpus), as rules. */
describe('OCR contact misreads from the tuning scans', () => {
  it('reads an email whose "@" OCR read as "Q", only in OCR text and only when the text has no address', () => {
    const text = 'Grzegorz Nowak\n761 301 701\ngrzegorz.nowakQprzyklad.pl';
    expect(extractCandidateFields(text, { ocr: true, defaultRegion: 'PL' }).email).toBe('grzegorz.nowak@przyklad.pl');
    expect(extractCandidateFields(text, { defaultRegion: 'PL' }).email).toBeNull();
    expect(findEmailWithQAsAt('Kontakt\tj.nowakQpoczta.example')).toBe('j.nowak@poczta.example');
    expect(findEmailWithQAsAt('IQ test.example, FAQ.html and QA.Team')).toBeNull();
    // OCR may put a space after the "Q" it read for the "@".
    expect(findEmailWithQAsAt('Lublin, Polska - 770 783 146 - joanna.jankowskaQ przyklad.pl')).toBe(
      'joanna.jankowska@przyklad.pl',
    );
    expect(findEmailWithQAsAt('Kontakt FAQ przyklad.pl')).toBeNull();
    // A word written with a capital Q is an address only when there is none: here there is one.
    expect(
      extractCandidateFields('Jan Smit\njan@smit.example\nClients: iraQuest.com', { ocr: true, defaultRegion: 'NL' })
        .email,
    ).toBe('jan@smit.example');
  });

  it('reads a "Q" email that also misses a letter of the name as the name spells it', () => {
    const text = withoutOcrBullets('GRZEGORZ\nLEWANDOWSKA\n761 301 701\ngrzegorziewandowskaQprzyklad.pl');
    expect(extractCandidateFields(text, { ocr: true, defaultRegion: 'PL' }).email).toBe(
      'grzegorzlewandowska@przyklad.pl',
    );
  });

  it('reads an OCR email that has a thin letter more or less than the name spells, as the name spells it', () => {
    const read = (email: string, options = { ocr: true }) =>
      extractCandidateFields(`GRZEGORZ\nLEWANDOWSKA\n761 301 701\n${email}`, { ...options, defaultRegion: 'PL' }).email;
    expect(read('grzegorzilewandowska@przyklad.pl')).toBe('grzegorzlewandowska@przyklad.pl');
    expect(read('grzegorzewandowska@przyklad.pl')).toBe('grzegorzlewandowska@przyklad.pl');
    expect(read('grzegorzilewandowska@przyklad.pl', { ocr: false })).toBe('grzegorzilewandowska@przyklad.pl');
    // Another letter more is no misread, nor is an address that is not the name.
    expect(read('grzegorzalewandowska@przyklad.pl')).toBe('grzegorzalewandowska@przyklad.pl');
    expect(read('biuro@przyklad.pl')).toBe('biuro@przyklad.pl');
    // Initials are no misread: Jean-Luc's "jl." is not "j." with an "l" more.
    expect(extractCandidateFields('Jean-Luc Darcy\njl.darcy@courriel.example', { ocr: true }).email).toBe(
      'jl.darcy@courriel.example',
    );
  });

  it('reads a phone number whose digits OCR partly read as letters, only in OCR text and only in a cell of its own', () => {
    const text = 'Bologna\nost 670 4207\nfrancesca.marino@posta.example\nFrancesca Marino';
    expect(extractCandidateFields(text, { ocr: true, defaultRegion: 'IT' }).phone).toBe('+390516704207');
    expect(extractCandidateFields(text, { defaultRegion: 'IT' }).phone).toBeNull();
    expect(misreadDigitsPhone('Tel: O2O 7946 O123', 'GB')).toBe('+442079460123');
    // Words are no numbers, a number in running text is no contact cell, and four letters are a word.
    expect(misreadDigitsPhone('Sales 2019 Berlin', 'DE')).toBeNull();
    expect(misreadDigitsPhone('worked on 020 7946 0l23 projects', 'GB')).toBeNull();
    expect(misreadDigitsPhone('ISO 9001 2015', 'DE')).toBeNull();
    expect(misreadDigitsPhone('Blog 7946 0123', 'GB')).toBeNull();
  });

  it('reads a name whose words OCR put far apart on one line ("Francesca ⇥ Marino") as the name', () => {
    const text = 'Bologna\n051 670 4207\nfrancesca.marino@posta.example\nPROFILO\nFrancesca\tMarino\nContabile';
    expect(extractCandidateFields(text, { ocr: true, defaultRegion: 'IT' })).toMatchObject({
      firstName: 'Francesca',
      lastName: 'Marino',
    });
    expect(spacedName({ cells: ['Francesca', 'Marino'] })).toEqual(['Francesca', 'Marino']);
    expect(spacedName({ cells: ['Naam', 'Smit'] })).toBeNull();
    expect(spacedName({ cells: ['Francesca Marino', 'Contabile'] })).toBeNull();
    expect(spacedName({ cells: ['Francesca'] })).toBeNull();
  });

  it('keeps the last group of a phone number tesseract was unsure of ("020 7946 o113"), and reads it as digits', () => {
    const row = (word: number, left: number, conf: number, text: string) =>
      `5\t1\t1\t1\t1\t${word}\t${left}\t100\t${text.length * 10}\t20\t${conf}\t${text}`;
    const tsv = (...rows: string[]) =>
      [
        'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
        '1\t1\t0\t0\t0\t0\t0\t0\t1000\t1000\t-1\t',
        ...rows,
      ].join('\n');
    const read = (...rows: string[]) => wordsOfTsv(tsv(...rows)).map((word) => word.str);
    expect(read(row(1, 100, 91, '020'), row(2, 140, 91, '7946'), row(3, 190, 29, 'o113'))).toEqual([
      '020',
      '7946',
      'o113',
    ]);
    // Unsure words that are no digit group, or far from the number, are still specks.
    expect(read(row(1, 100, 91, '020'), row(2, 140, 91, '7946'), row(3, 190, 29, 'ooo'))).toEqual(['020', '7946']);
    expect(read(row(1, 100, 91, 'Phone'), row(2, 160, 29, '0113'))).toEqual(['Phone']);
    expect(read(row(1, 100, 91, '7946'), row(2, 400, 29, '0113'))).toEqual(['7946']);
    expect(
      extractCandidateFields('Grace Kershaw\nContact\n020 7946 o113\ngkershaw@mail.example', {
        ocr: true,
        defaultRegion: 'GB',
      }).phone,
    ).toBe('+442079460113');
  });

  it('reads an OCR email with a space beside its "@" or its misread "©" as the address', () => {
    expect(repairOcrMisreads('tzielinski© poczta.example')).toBe('tzielinski@poczta.example');
    expect(repairOcrMisreads('Lille, France - 05 65 09 15 70. mathismercier @mail.example')).toBe(
      'Lille, France - 05 65 09 15 70. mathismercier@mail.example',
    );
    expect(repairOcrMisreads('jan @ smit.example')).toBe('jan@smit.example');
    // An "@" or "©" between words that make no address stays.
    expect(repairOcrMisreads('Copyright© 2020 Smit')).toBe('Copyright© 2020 Smit');
    expect(repairOcrMisreads('meet @ the office')).toBe('meet @ the office');
  });

  it('reads an OCR email whose "l" was read as "t" as the name spells it', () => {
    expect(extractCandidateFields('Manon Lambert\nmtambert@exemple.fr', { ocr: true }).email).toBe(
      'mlambert@exemple.fr',
    );
    expect(extractCandidateFields('Manon Lambert\nmtambert@exemple.fr').email).toBe('mtambert@exemple.fr');
  });

  it('reads a name whose large type OCR split a letter off ("Owe n Patel") when the email spells it', () => {
    const text = 'Glasgow\n0161 496 0070\nowenpatel@mail.example\nSUMMARY\n\f\nOwe n Patel\nSite Supervisor';
    expect(extractCandidateFields(text, { ocr: true, defaultRegion: 'GB' })).toMatchObject({
      firstName: 'Owen',
      lastName: 'Patel',
    });
    expect(withSplitLettersJoined('Owe n Patel')).toEqual({ text: 'Owen Patel', joined: ['Owen'] });
    // Particles are words of their own ("Ana y Pedro", "Maria e Silva"), and so is a name with nothing split off.
    expect(withSplitLettersJoined('Ana Ruiz y Pedro')).toBeNull();
    expect(withSplitLettersJoined('Owen Patel')).toBeNull();
    // Without an email that spells the joined word, a split name is not guessed at.
    expect(
      extractCandidateFields('Glasgow\n0161 496 0070\ninfo@mail.example\n\f\nOwe n Patel', { ocr: true }).firstName,
    ).not.toBe('Owen');
  });

  it('takes no job title for a name ("Site Supervisor")', () => {
    expect(nameWords('Site Supervisor')).toBeNull();
  });

  it('reads a name stacked on two lines whose second line starts with a particle as one name', () => {
    const text = 'Contact\n06-1244 7156\nrvandenberg@mail.example\n\f\nRUBEN\nVAN DEN BERG\nLogistiek medewerker';
    expect(extractCandidateFields(text, { defaultRegion: 'NL' })).toMatchObject({
      firstName: 'Ruben',
      lastName: 'van den Berg',
    });
    // A job title above a whole name is no given name.
    expect(
      extractCandidateFields(
        'Administrativa\nÁlvaro Martínez\nValencia, España - 914 02 62 16 - amartinez@ejemplo.es',
        {
          defaultRegion: 'ES',
        },
      ),
    ).toMatchObject({ firstName: 'Álvaro', lastName: 'Martínez' });
  });
});
