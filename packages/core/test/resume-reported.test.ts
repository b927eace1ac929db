import { describe, expect, it } from 'vitest';
import { RESUME_CORPUS_DIR, evaluateCorpusFile, readCorpusTruth } from './support/resume-corpus.ts';
import { ocrUnavailableReason } from '../src/modules/resumes/resume-ocr.ts';
import { extractCandidateFields } from '../src/modules/resumes/resume-fields.ts';

/**
 * Failures reported from resumes we do not have (#31), each rebuilt as a generated corpus file with its truth
 * (bench/src/resume-corpus/people.ts, REPORTED_PEOPLE) and read here through the real parser: detect the type, extract
 * the text, find the fields and the profile.
 */
const truth = readCorpusTruth();

const REPORTED: [file: string, what: string][] = [
  ['45-rhys-ap-gruffydd.pdf', 'a Welsh "ap" surname (was "Apgruffydd", from the email) and a UK 07700 900xxx mobile (was missed)'],
  ['45-rhys-ap-gruffydd.docx', 'the same as a DOCX'],
  ['46-ines-de-la-fuente.pdf', 'a Europass name beside the "Personal information" label (was "Ines / Delafuente", from the email)'],
  ['46-ines-de-la-fuente.docx', 'the same as a DOCX'],
  ['47-siobhan-o-dubhghaill.docx', 'a name after a long DOCX sidebar, over two lines (was "Siobhan / Odh", from the email)'],
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
    expect(outcome.got).toEqual({ first_name: entry!.first_name, last_name: entry!.last_name, email: entry!.email, phone: entry!.phone });
    expect(outcome.profileScore.misses).toEqual([]);
  });

  it.skipIf(ocrUnavailableReason() !== null)('reads the photo of the Welsh resume: name and UK mobile', async () => {
    const file = '45-rhys-ap-gruffydd.scan.jpg';
    const outcome = await evaluateCorpusFile(RESUME_CORPUS_DIR, file, truth[file]!);
    expect(outcome.got).toMatchObject({ first_name: 'Rhys', last_name: 'ap Gruffydd', phone: '+447700900456' });
  }, 90_000);
});

describe('the reported rules on their own', () => {
  it('reads a Welsh or Arabic patronymic and an Irish mutated surname as part of the name', () => {
    expect(extractCandidateFields('Rhys ap Gruffydd\nrhys.apgruffydd@example.co.uk')).toMatchObject({ firstName: 'Rhys', lastName: 'ap Gruffydd', nameSource: 'line' });
    expect(extractCandidateFields('Gwen ferch Owain\ngwen@example.co.uk')).toMatchObject({ firstName: 'Gwen', lastName: 'ferch Owain' });
    expect(extractCandidateFields('Aoife Ó hEadhra\naoife@example.ie')).toMatchObject({ firstName: 'Aoife', lastName: 'Ó hEadhra' });
  });

  it('takes the name written beside a "Personal information" label on the same line', () => {
    for (const label of ['Personal information', 'Informations personnelles', 'Angaben zur Person', 'Dane osobowe']) {
      expect(extractCandidateFields(`${label} Inés de la Fuente\nE-mail ines.delafuente@example.es`), label).toMatchObject({ firstName: 'Inés', lastName: 'de la Fuente', nameSource: 'line' });
    }
  });

  it('reads an unlabelled national number that is possible but outside the phone plan (UK drama range)', () => {
    expect(extractCandidateFields('Rhys Jones\n7 Example Terrace\nCardiff\nCF10 1AA\n07700 900456\nrhys@example.co.uk').phone).toBe('+447700900456');
    // Dates and postcodes are not numbers.
    expect(extractCandidateFields('Rhys Jones\nCardiff CF10 1AA\n01/2019 - 03/2021\nrhys@example.co.uk').phone).toBeNull();
  });

  it('finds the name at the top of the main column after a sidebar of any length', () => {
    const sidebar = ['Contact', 'Cork', '087 123 4567', 'siobhan.odh@example.ie', 'Skills', ...Array.from({ length: 60 }, (_, index) => `Skill ${index + 1}`)];
    const text = `${sidebar.join('\n')}\n\f\nSiobhán Ó Dubhghaill\nClinical Nurse Manager\nProfile\nNurse manager.`;
    expect(extractCandidateFields(text, { defaultRegion: 'IE' })).toMatchObject({ firstName: 'Siobhán', lastName: 'Ó Dubhghaill', nameSource: 'line' });
  });
});
