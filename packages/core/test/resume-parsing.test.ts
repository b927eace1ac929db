import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOC_MIME, DOCX_MIME, PDF_MIME, detectResumeType } from '../src/modules/resumes/resume-file.ts';
import { ResumeParseError, extractResumeText, normaliseText } from '../src/modules/resumes/resume-text.ts';
import {
  extractCandidateFields,
  findEmail,
  findLinkedinUrl,
  findPhone,
  parseNameLine,
} from '../src/modules/resumes/resume-fields.ts';
import { FIXTURE_DIR, PEOPLE } from './fixtures/resumes/generate.ts';

function fixture(file: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURE_DIR, file)));
}

const encoder = new TextEncoder();

/** "%PDF-1.7" followed by deterministic garbage: sniffs as PDF, parses as nothing. */
function corruptPdf(): Uint8Array {
  const garbage = Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
  return new Uint8Array([...encoder.encode('%PDF-1.7\n'), ...garbage]);
}

const FIXTURES = [
  { kind: 'pdf', mime: PDF_MIME, person: PEOPLE.pdf },
  { kind: 'docx', mime: DOCX_MIME, person: PEOPLE.docx },
  { kind: 'doc', mime: DOC_MIME, person: PEOPLE.doc },
] as const;

describe('resume fixtures', () => {
  it.each(FIXTURES)('are small committed files ($person.file)', ({ person }) => {
    const bytes = fixture(person.file);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(bytes.byteLength).toBeLessThan(50 * 1024);
  });

  it.each(FIXTURES)('$kind: type detected, text extracted, fields found', async ({ kind, mime, person }) => {
    const bytes = fixture(person.file);
    expect(await detectResumeType(bytes, mime)).toEqual({ ok: true, kind });

    const text = await extractResumeText(bytes, kind);
    expect(text).toContain(`${person.expected.firstName} ${person.expected.lastName}`);
    expect(text).not.toMatch(/\r/);

    const fields = extractCandidateFields(text);
    expect(fields).toEqual({ ...person.expected, nameSource: 'line' });
  });

  it("leaves the caller's bytes intact when reading a PDF", async () => {
    const bytes = fixture(PEOPLE.pdf.file);
    const copy = bytes.slice();
    await extractResumeText(bytes, 'pdf');
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
  });

  it('reads the same PDF twice (pdf.js is loaded once and reused)', async () => {
    const bytes = fixture(PEOPLE.pdf.file);
    const [a, b] = await Promise.all([extractResumeText(bytes, 'pdf'), extractResumeText(bytes, 'pdf')]);
    expect(a).toBe(b);
  });
});

describe('detectResumeType', () => {
  it('compares the declared MIME type case-insensitively', async () => {
    expect(await detectResumeType(fixture(PEOPLE.pdf.file), 'Application/PDF')).toEqual({ ok: true, kind: 'pdf' });
    expect(await detectResumeType(fixture(PEOPLE.docx.file), DOCX_MIME.toUpperCase())).toEqual({
      ok: true,
      kind: 'docx',
    });
    expect(await detectResumeType(fixture(PEOPLE.doc.file), ' application/MSWord ')).toEqual({ ok: true, kind: 'doc' });
  });

  it('refuses a PDF declared as DOCX', async () => {
    const result = await detectResumeType(fixture(PEOPLE.pdf.file), DOCX_MIME);
    expect(result).toEqual({ ok: false, error: 'The file is not a DOCX document (detected: application/pdf).' });
  });

  it('refuses a DOCX declared as PDF or as a legacy .doc', async () => {
    const docx = fixture(PEOPLE.docx.file);
    const asPdf = await detectResumeType(docx, PDF_MIME);
    expect(asPdf.ok).toBe(false);
    if (!asPdf.ok) expect(asPdf.error).toBe(`The file is not a PDF document (detected: ${DOCX_MIME}).`);
    const asDoc = await detectResumeType(docx, DOC_MIME);
    expect(asDoc.ok).toBe(false);
    if (!asDoc.ok) expect(asDoc.error).toMatch(/^The file is not a Word \(\.doc\) document/);
  });

  it('refuses a legacy .doc declared as DOCX or PDF', async () => {
    const doc = fixture(PEOPLE.doc.file);
    expect((await detectResumeType(doc, DOCX_MIME)).ok).toBe(false);
    expect((await detectResumeType(doc, PDF_MIME)).ok).toBe(false);
  });

  it('refuses plain text, empty files and undeclared types', async () => {
    const text = encoder.encode('Jane Doe\njane@example.com\n');
    expect(await detectResumeType(text, PDF_MIME)).toEqual({
      ok: false,
      error: 'The file is not a PDF document (detected: unknown).',
    });
    expect(await detectResumeType(new Uint8Array(), PDF_MIME)).toEqual({ ok: false, error: 'The file is empty.' });
    const other = await detectResumeType(fixture(PEOPLE.pdf.file), 'text/plain');
    expect(other.ok).toBe(false);
  });

  it('refuses random bytes declared as PDF, DOCX or DOC', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 4096 }),
        fc.constantFrom(PDF_MIME, DOCX_MIME, DOC_MIME),
        async (bytes, mime) => {
          // Random bytes that happen to start with a magic number are not random for this purpose.
          fc.pre(bytes[0] !== 0x25 && bytes[0] !== 0x50 && bytes[0] !== 0xd0);
          const result = await detectResumeType(bytes, mime);
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.error).toMatch(/^The file is not a /);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('extractResumeText failures', () => {
  it('throws a ResumeParseError with a human message for a corrupt PDF', async () => {
    const bytes = corruptPdf();
    expect(await detectResumeType(bytes, PDF_MIME)).toEqual({ ok: true, kind: 'pdf' });
    const error = await extractResumeText(bytes, 'pdf').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeParseError);
    expect((error as ResumeParseError).message).toBe('The PDF could not be read.');
    expect((error as ResumeParseError).name).toBe('ResumeParseError');
    expect((error as ResumeParseError).cause).toBeDefined();
  });

  it('throws a ResumeParseError for a truncated PDF', async () => {
    const bytes = fixture(PEOPLE.pdf.file);
    await expect(extractResumeText(bytes.slice(0, Math.floor(bytes.byteLength / 2)), 'pdf')).rejects.toThrow(
      new ResumeParseError('The PDF could not be read.'),
    );
  });

  it('throws a ResumeParseError for a truncated DOCX and a truncated DOC', async () => {
    const docx = fixture(PEOPLE.docx.file);
    await expect(extractResumeText(docx.slice(0, 3000), 'docx')).rejects.toBeInstanceOf(ResumeParseError);
    const doc = fixture(PEOPLE.doc.file);
    await expect(extractResumeText(doc.slice(0, 4096), 'doc')).rejects.toBeInstanceOf(ResumeParseError);
  });

  it('confirms a file sniffed only as an OLE compound file is a Word document', async () => {
    // Rename the WordDocument stream: still a valid-looking OLE file, no longer a Word document.
    const bytes = fixture(PEOPLE.doc.file);
    const at = Buffer.from(bytes).indexOf(Buffer.from('WordDocument', 'utf16le'));
    expect(at).toBeGreaterThan(0);
    bytes[at] = 'X'.charCodeAt(0);
    expect(await detectResumeType(bytes, DOC_MIME)).toEqual({ ok: true, kind: 'doc' });
    await expect(extractResumeText(bytes, 'doc')).rejects.toThrow(
      new ResumeParseError('The Word (.doc) document could not be read.'),
    );
  });

  it('refuses bytes of another kind than the one asked for', async () => {
    await expect(extractResumeText(fixture(PEOPLE.pdf.file), 'docx')).rejects.toBeInstanceOf(ResumeParseError);
    await expect(extractResumeText(fixture(PEOPLE.docx.file), 'doc')).rejects.toBeInstanceOf(ResumeParseError);
    await expect(extractResumeText(fixture(PEOPLE.docx.file), 'pdf')).rejects.toBeInstanceOf(ResumeParseError);
  });

  it('only ever throws ResumeParseError on arbitrary bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom('pdf' as const, 'docx' as const, 'doc' as const),
        fc.constantFrom('', '%PDF-1.7\n', 'PK\u0003\u0004'),
        async (tail, kind, header) => {
          const bytes = new Uint8Array([...encoder.encode(header), ...tail]);
          try {
            expect(typeof (await extractResumeText(bytes, kind))).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(ResumeParseError);
            expect((error as Error).message).not.toMatch(/\n|\bat\b/);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("stops with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(extractResumeText(fixture(PEOPLE.pdf.file), 'pdf', controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(extractResumeText(fixture(PEOPLE.docx.file), 'docx', controller.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('normalises line endings and control characters', () => {
    expect(normaliseText('Jane\r\nDoe\u0007\u0007x\u000by\r\r\r\r\rz\u0000\t  q ')).toBe('Jane\nDoe\n\nx\ny\n\nz\tq');
  });
});

describe('extractCandidateFields examples', () => {
  it('skips headings and reads "Name:" labels and separators', () => {
    expect(extractCandidateFields('CURRICULUM VITAE\n\nName: Jan de Vries\n').firstName).toBe('Jan');
    expect(extractCandidateFields('Resume\nAnne-Marie O’Neill | Engineer').lastName).toBe('O’Neill');
    expect(extractCandidateFields('JANE VAN DER BERG\nDesigner')).toMatchObject({
      firstName: 'Jane',
      lastName: 'van der Berg',
      nameSource: 'line',
    });
    // Four names without particles: two given names, two surnames.
    expect(extractCandidateFields('  \n\nJosé María García López, MSc\n')).toMatchObject({
      firstName: 'José María',
      lastName: 'García López',
    });
  });

  it('does not take sentences, addresses or emails for names', () => {
    expect(parseNameLine('Personal details')).toBeNull();
    expect(parseNameLine('jane doe')).toBeNull();
    expect(parseNameLine('Keizersgracht 123 Amsterdam')).toBeNull();
    expect(parseNameLine('jane@example.com Jane Doe')).toBeNull();
    expect(parseNameLine('I am a Motivated Professional Looking For Work')).toBeNull();
    expect(parseNameLine('Madonna')).toBeNull();
  });

  it('falls back to the email, then to Unknown', () => {
    expect(extractCandidateFields('contact: jane.doe@example.com\n')).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      nameSource: 'email',
    });
    expect(extractCandidateFields('info@example.com')).toMatchObject({
      firstName: 'Unknown',
      lastName: '',
      nameSource: 'none',
    });
    expect(extractCandidateFields('')).toEqual({
      firstName: 'Unknown',
      lastName: '',
      email: null,
      phone: null,
      linkedinUrl: null,
      nameSource: 'none',
    });
  });

  it('finds emails but not look-alikes', () => {
    expect(findEmail('mail me at <Jane.Doe+cv@Sub.Example.co.uk>.')).toBe('jane.doe+cv@sub.example.co.uk');
    expect(findEmail('mailto:a_b@example.nl, second@example.com')).toBe('a_b@example.nl');
    expect(findEmail('not an address: foo@bar, @example.com, a@b.c, x@-y.com')).toBeNull();
  });

  it('finds phone numbers in international and national notation', () => {
    expect(findPhone('Tel: +31 20 123 4567')).toBe('+31201234567');
    expect(findPhone('Telefoon 020-1234567')).toBe('+31201234567');
    expect(findPhone('Mobiel: 06 12 34 56 78')).toBe('+31612345678');
    expect(findPhone('+31 (0)6 1234 5678')).toBe('+31612345678');
    expect(findPhone('Phone: +1 (415) 555-0132')).toBe('+14155550132');
    expect(findPhone('0032 470 12 34 56')).toBe('+32470123456');
    expect(findPhone('2015 - 2019 Example B.V.\nborn 12-03-1990\nKvK 12345678')).toBeNull();
    expect(findPhone('linkedin.com/in/jane-doe-0612345678')).toBeNull();
    // Not valid in any numbering plan libphonenumber-js knows: kept as written.
    expect(findPhone('Phone: +999 1234 5678')).toBe('+99912345678');
  });

  it('finds and normalises LinkedIn profile URLs', () => {
    expect(findLinkedinUrl('linkedin.com/in/jane')).toBe('https://www.linkedin.com/in/jane');
    expect(findLinkedinUrl('See HTTPS://NL.LinkedIn.com/in/Jane-Doe-1a2b3c/?trk=x')).toBe(
      'https://www.linkedin.com/in/Jane-Doe-1a2b3c',
    );
    expect(findLinkedinUrl('http://www.linkedin.com/in/jos%C3%A9-garc%C3%ADa')).toBe(
      'https://www.linkedin.com/in/jos%C3%A9-garc%C3%ADa',
    );
    expect(findLinkedinUrl('https://www.linkedin.com/company/example')).toBeNull();
    expect(findLinkedinUrl('notlinkedin.com/in/jane')).toBeNull();
  });
});

// ---------------------------------------------------------------------------
// Property-based tests

const lower = 'abcdefghijklmnopqrstuvwxyz';
const alnum = `${lower}0123456789`;
const chars = (alphabet: string, min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: min, maxLength: max });

const emailArb = fc
  .tuple(
    fc.array(chars(alnum + '_+-', 1, 8), { minLength: 1, maxLength: 3 }),
    fc.array(chars(alnum, 1, 10), { minLength: 1, maxLength: 3 }),
    chars(lower, 2, 6),
  )
  .map(([local, labels, tld]) => `${local.join('.')}@${labels.join('.')}.${tld}`);

/** Text that holds no email, URL or digits, so that what is planted is the only thing to find. */
const noiseArb = fc.string({
  unit: fc.constantFrom(...`${lower}ABCDEFGHIJKLMNOPQRSTUVWXYZ    \n.,;:!?()'"-éüß`.split('')),
  maxLength: 200,
});

const nameWordArb = fc
  .tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPRSTUVWZÉÖ'.split('')), chars(lower + 'éèëïöü', 2, 10))
  .map(([first, rest]) => first + rest)
  .filter((word) => parseNameLine(`${word} Testperson`) !== null);

describe('extractCandidateFields properties', () => {
  it('never throws, and always answers in the documented shape', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 500 }), fc.string({ maxLength: 500 })), (text) => {
        const fields = extractCandidateFields(text);
        expect(fields.firstName.length).toBeGreaterThan(0);
        expect(typeof fields.lastName).toBe('string');
        if (fields.email !== null) expect(fields.email).toMatch(/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/);
        if (fields.phone !== null) expect(fields.phone).toMatch(/^\+?\d{8,15}$/);
        if (fields.linkedinUrl !== null) expect(fields.linkedinUrl).toMatch(/^https:\/\/www\.linkedin\.com\/in\/\S+$/);
      }),
      { numRuns: 500 },
    );
  });

  it('finds an email planted in random text', () => {
    fc.assert(
      fc.property(noiseArb, emailArb, noiseArb, (before, email, after) => {
        expect(extractCandidateFields(`${before} ${email} ${after}`).email).toBe(email.toLowerCase());
      }),
      { numRuns: 300 },
    );
  });

  it('finds the first of several emails', () => {
    fc.assert(
      fc.property(emailArb, emailArb, noiseArb, (first, second, between) => {
        expect(findEmail(`${first}\n${between}\n${second}`)).toBe(first.toLowerCase());
      }),
    );
  });

  it('finds a Dutch mobile number however it is written, as E.164', () => {
    fc.assert(
      fc.property(
        noiseArb,
        fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: 8, maxLength: 8 }),
        fc.constantFrom('06{8}', '06-{8}', '06 {4} {4}', '+31 6 {8}', '+31 (0)6 {2} {2} {2} {2}', '0031 6 {8}'),
        noiseArb,
        (before, subscriber, format, after) => {
          let rest = subscriber;
          const written = format.replace(/\{(\d)\}/g, (_match, count: string) => {
            const part = rest.slice(0, Number(count));
            rest = rest.slice(Number(count));
            return part;
          });
          expect(findPhone(`${before}\nTel: ${written}\n${after}`)).toBe(`+316${subscriber}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds a LinkedIn profile planted in random text and normalises it', () => {
    fc.assert(
      fc.property(
        noiseArb,
        fc.constantFrom('', 'http://', 'https://', 'https://www.', 'www.', 'nl.', 'https://be.'),
        chars(alnum + '-', 3, 30).filter((handle) => /[a-z0-9]/.test(handle)),
        fc.constantFrom('', '/', '/?originalSubdomain=nl'),
        noiseArb,
        (before, prefix, handle, suffix, after) => {
          const text = `${before} ${prefix}linkedin.com/in/${handle}${suffix} ${after}`;
          expect(findLinkedinUrl(text)).toBe(`https://www.linkedin.com/in/${handle}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a name on the first line back as first and last name', () => {
    fc.assert(
      fc.property(
        nameWordArb,
        fc.constantFrom([], ['van'], ['de'], ['van', 'der'], ['van', 'den'], ['ter']),
        fc.array(nameWordArb, { minLength: 1, maxLength: 2 }),
        noiseArb,
        (firstName, particles, surnames, rest) => {
          const lastName = [...particles, ...surnames].join(' ');
          const fields = extractCandidateFields(`${firstName} ${lastName}\n${rest}`);
          expect(fields).toMatchObject({ firstName, lastName, nameSource: 'line' });
        },
      ),
      { numRuns: 300 },
    );
  });
});
