import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import {
  AlignmentType,
  Document,
  Footer,
  Header,
  Packer,
  Paragraph,
  Tab,
  Table,
  TableCell,
  TableRow,
  TextRun,
  Textbox,
  WidthType,
} from 'docx';
import fc from 'fast-check';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { MAX_DOCX_UNCOMPRESSED_BYTES, extractDocxText } from '../src/modules/resumes/docx-text.ts';
import { layoutPage, type TPositionedText } from '../src/modules/resumes/pdf-layout.ts';
import { extractCandidateFields, regionOfLine } from '../src/modules/resumes/resume-fields.ts';
import { parseResume } from '../src/modules/resumes/resume-parse.ts';
import { ResumeParseError, extractResumeText, markLayoutColumns } from '../src/modules/resumes/resume-text.ts';
import { JOB_TITLE_WORDS, LABEL_WORDS, PLACE_REGION } from '../src/modules/resumes/resume-vocabulary.ts';

// ---------------------------------------------------------------------------
// Builders

async function docx(
  children: (Paragraph | Table)[],
  extra: { header?: string; footer?: string } = {},
): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        ...(extra.header === undefined
          ? {}
          : { headers: { default: new Header({ children: [new Paragraph(extra.header)] }) } }),
        ...(extra.footer === undefined
          ? {}
          : { footers: { default: new Footer({ children: [new Paragraph(extra.footer)] }) } }),
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** A cell whose lines are separated by line breaks (`w:br`) inside one paragraph. */
function brCell(lines: string[]): TableCell {
  return new TableCell({
    width: { size: 4500, type: WidthType.DXA },
    children: [
      new Paragraph({ children: lines.map((text, index) => new TextRun({ text, break: index === 0 ? 0 : 1 })) }),
    ],
  });
}

function cell(...paragraphs: string[]): TableCell {
  return new TableCell({
    width: { size: 4500, type: WidthType.DXA },
    children: paragraphs.map((text) => new Paragraph(text)),
  });
}

function table(rows: TableCell[][]): Table {
  return new Table({ rows: rows.map((cells) => new TableRow({ children: cells })) });
}

interface TZipEntry {
  name: string;
  /** Stored deflated. */
  data: Uint8Array;
  /** What the headers claim; the real sizes when omitted. */
  declaredSize?: number;
}

/**
 * A zip of deflated entries, written by hand so that a test can make its central directory lie (the `docx` package
 * writes honest archives only).
 */
function zip(entries: TZipEntry[], compressed?: Map<string, Uint8Array>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const packed = compressed?.get(entry.name) ?? deflateRawSync(entry.data);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? entry.data.byteLength;
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.byteLength, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.byteLength, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(packed));
    centrals.push(central, name);
    offset += local.byteLength + name.byteLength + packed.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function documentXml(body: string): Uint8Array {
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
  );
}

/** Deflates `head`, `chunk` repeated to about `total` bytes, and `tail`, streaming (never holding it inflated). */
async function deflateRepeated(
  head: string,
  chunk: string,
  total: number,
  tail: string,
): Promise<{ packed: Uint8Array; size: number }> {
  const deflater = createDeflateRaw({ level: 6 });
  const out: Buffer[] = [];
  deflater.on('data', (data: Buffer) => out.push(data));
  const ended = once(deflater, 'end');
  const block = Buffer.from(chunk.repeat(Math.ceil((1024 * 1024) / chunk.length)));
  let size = 0;
  const write = async (data: Buffer): Promise<void> => {
    size += data.byteLength;
    if (!deflater.write(data)) await once(deflater, 'drain');
  };
  await write(Buffer.from(head));
  for (let written = 0; written < total; written += block.byteLength) await write(block);
  await write(Buffer.from(tail));
  deflater.end();
  await ended;
  return { packed: new Uint8Array(Buffer.concat(out)), size };
}

// ---------------------------------------------------------------------------
// DOCX

describe('DOCX text', () => {
  it('keeps line breaks inside a table cell apart (no "name@mail.exampletel" email)', async () => {
    const bytes = await docx([
      new Paragraph('Curriculum Vitae'),
      table([
        [cell('Naam'), cell('Pieter van Dijk')],
        [cell('Contact'), brCell(['pieter@mail.example', 'Tel.: 020 123 4567'])],
      ]),
      new Paragraph('Referenties'),
      new Paragraph('Jan Smit, jan.smit@example.nl, 06 98765432'),
    ]);
    const text = await extractResumeText(bytes, 'docx');
    expect(text).toContain('Naam\tPieter van Dijk');
    expect(text).toMatch(/pieter@mail\.example\nTel\.: 020 123 4567/u);
    expect(await parseResume(bytes, 'docx', { defaultRegion: 'NL' })).toMatchObject({
      firstName: 'Pieter',
      lastName: 'van Dijk',
      email: 'pieter@mail.example',
      phone: '+31201234567',
      nameSource: 'line',
    });
  });

  it('turns tabs into tab separators and one-line rows into tab-separated cells', async () => {
    const bytes = await docx([
      new Paragraph({ children: [new TextRun({ children: ['Jane Doe', new Tab(), 'jane@example.com'] })] }),
      table([
        [cell('E-mail'), cell('Phone'), cell('City')],
        [cell('jane@example.com'), cell('(415) 555-0132'), cell('San Francisco, CA')],
      ]),
    ]);
    const text = await extractResumeText(bytes, 'docx');
    expect(text.split('\n')).toEqual([
      'Jane Doe\tjane@example.com',
      'E-mail\tPhone\tCity',
      'jane@example.com\t(415) 555-0132\tSan Francisco, CA',
    ]);
    expect(extractCandidateFields(text, { defaultRegion: 'NL' })).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      phone: '+14155550132',
    });
  });

  it('reads text boxes, headers and footers', async () => {
    const bytes = await docx(
      [
        new Paragraph('Profile'),
        new Paragraph({
          children: [
            new TextRun('Before the box.'),
            new Textbox({
              children: [new Paragraph('Boxed line one'), new Paragraph('Boxed line two')],
              style: { width: '2in', height: '1in' },
            }),
          ],
        }),
      ],
      { header: 'Zoë Ødegård', footer: 'Page footer text' },
    );
    const lines = (await extractResumeText(bytes, 'docx')).split('\n');
    expect(lines[0]).toBe('Zoë Ødegård');
    expect(lines).toContain('Boxed line one');
    expect(lines).toContain('Boxed line two');
    expect(lines[lines.length - 1]).toBe('Page footer text');
  });

  it('reads a sidebar laid out as a table column as a block of its own', async () => {
    const sidebar = ['Contact', '+31 6 12345678', 'anne@example.nl', 'Utrecht', 'Skills', 'Excel', 'Planning'];
    const bytes = await docx([
      table([[cell(...sidebar), cell('Anne de Groot', 'Projectleider', 'Profiel', 'Ervaren projectleider.')]]),
    ]);
    const text = await extractResumeText(bytes, 'docx');
    expect(text).toBe(`${sidebar.join('\n')}\n\f\nAnne de Groot\nProjectleider\nProfiel\nErvaren projectleider.`);
    expect(extractCandidateFields(text)).toMatchObject({
      firstName: 'Anne',
      lastName: 'de Groot',
      email: 'anne@example.nl',
    });
  });

  it('skips the fallback copy of alternate content and the tab stops of paragraph properties', async () => {
    const body =
      '<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Jane</w:t></w:r><w:r><w:t xml:space="preserve"> Doe</w:t></w:r></w:p>' +
      '<w:p><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:txbxContent><w:p><w:r><w:t>Boxed</w:t></w:r></w:p></w:txbxContent></mc:Choice>' +
      '<mc:Fallback><w:txbxContent><w:p><w:r><w:t>Boxed</w:t></w:r></w:p></w:txbxContent></mc:Fallback></mc:AlternateContent></w:r></w:p>' +
      '<w:p><w:r><w:t>a</w:t><w:br/><w:t>b</w:t><w:cr/><w:t>c</w:t><w:instrText>HYPERLINK "x"</w:instrText><w:delText>gone</w:delText></w:r></w:p>';
    const bytes = zip([
      { name: '[Content_Types].xml', data: new TextEncoder().encode('<Types/>') },
      { name: 'word/document.xml', data: documentXml(body) },
    ]);
    expect((await extractResumeText(bytes, 'docx')).split('\n').filter((line) => line !== '')).toEqual([
      'Jane Doe',
      'Boxed',
      'a',
      'b',
      'c',
    ]);
  });

  it('caps the text while it is produced', async () => {
    const paragraph = `<w:p><w:r><w:t>${'x'.repeat(1000)}</w:t></w:r></w:p>`;
    const bytes = zip([{ name: 'word/document.xml', data: documentXml(paragraph.repeat(200)) }]);
    const text = await extractDocxText(bytes, undefined, 5_000);
    expect(text.length).toBe(5_000);
  });

  it('refuses a zip bomb before inflating it, quickly and without memory growth', async () => {
    // ~120 MB of spaces inside document.xml, compressed to a few hundred KB; the central directory tells the truth.
    const { packed, size } = await deflateRepeated(
      `<w:document ${W}><w:body><w:p><w:r><w:t>`,
      ' ',
      120 * 1024 * 1024,
      '</w:t></w:r></w:p></w:body></w:document>',
    );
    expect(size).toBeGreaterThan(MAX_DOCX_UNCOMPRESSED_BYTES);
    const bytes = zip(
      [{ name: 'word/document.xml', data: new Uint8Array(0), declaredSize: size }],
      new Map([['word/document.xml', packed]]),
    );
    expect(bytes.byteLength).toBeLessThan(2 * 1024 * 1024);
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const error = await extractResumeText(bytes, 'docx').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeParseError);
    expect((error as Error).message).toMatch(/unpacks to more than 50 MB/u);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(30 * 1024 * 1024);
  });

  it('refuses a part compressed far better than text ever is', async () => {
    const { packed, size } = await deflateRepeated(
      `<w:document ${W}><w:body>`,
      ' ',
      20 * 1024 * 1024,
      '</w:body></w:document>',
    );
    const bytes = zip(
      [{ name: 'word/document.xml', data: new Uint8Array(0), declaredSize: size }],
      new Map([['word/document.xml', packed]]),
    );
    await expect(extractResumeText(bytes, 'docx')).rejects.toThrow(/compressed suspiciously well/u);
  });

  it('refuses a zip whose central directory understates a part, while inflating it', async () => {
    const { packed, size } = await deflateRepeated(
      `<w:document ${W}><w:body><w:p><w:r><w:t>`,
      'ab',
      30 * 1024 * 1024,
      '</w:t></w:r></w:p></w:body></w:document>',
    );
    expect(size).toBeGreaterThan(20 * 1024 * 1024);
    // Claims 10 KB: passes the size and ratio checks; the inflated bytes are counted against the claim.
    const bytes = zip(
      [{ name: 'word/document.xml', data: new Uint8Array(0), declaredSize: 10 * 1024 }],
      new Map([['word/document.xml', packed]]),
    );
    const heapBefore = process.memoryUsage().heapUsed;
    await expect(extractResumeText(bytes, 'docx')).rejects.toThrow(
      new ResumeParseError('The DOCX document could not be read.'),
    );
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(30 * 1024 * 1024);
  });

  it('refuses a part nested far deeper than any document', async () => {
    const bytes = zip([{ name: 'word/document.xml', data: documentXml('<w:r>'.repeat(100_000)) }]);
    await expect(extractResumeText(bytes, 'docx')).rejects.toThrow(/nested too deeply/u);
  });

  it('refuses a zip of too many parts', async () => {
    const entries = Array.from({ length: 1_001 }, (_, index) => ({
      name: `word/media/${index}.xml`,
      data: new Uint8Array([0x3c]),
    }));
    await expect(
      extractResumeText(zip([{ name: 'word/document.xml', data: documentXml('') }, ...entries]), 'docx'),
    ).rejects.toThrow(/too many parts/u);
  });

  it('refuses a zip without a document part', async () => {
    await expect(
      extractResumeText(zip([{ name: 'word/other.xml', data: documentXml('<w:p/>') }]), 'docx'),
    ).rejects.toThrow(new ResumeParseError('The DOCX document could not be read.'));
  });
});

describe('legacy .doc text', () => {
  it('turns the cell boundary of a layout table (a tab between long runs of lines) into a block break', () => {
    const sidebar = ['Contact', 'Amsterdam', '020 123 4567', 'Talen', 'Nederlands', 'Engels'];
    const main = ['Pieter van Dijk', 'Projectleider', 'Profiel', 'Ervaren projectleider.'];
    const text = `${sidebar.join('\n')}\t${main.join('\n')}`;
    expect(markLayoutColumns(text)).toBe(`${sidebar.join('\n')}\n\u001d\n${main.join('\n')}`);
    // Rows of a details table and tab stops keep their tabs.
    const rows = 'Naam\tPieter\nAdres\tPrinsengracht 1\nWoonplaats\tAmsterdam\n2018\tProjectleider\nx\ny\nz';
    expect(markLayoutColumns(rows)).toBe(rows);
  });
});

// ---------------------------------------------------------------------------
// PDF

function piece(str: string, x: number, y: number, size = 10): TPositionedText {
  // Helvetica-like width: about half the font size per character.
  return { str, x, y, width: str.length * size * 0.5, size };
}

describe('PDF reading order', () => {
  it('reads a sidebar and a main column one after the other', () => {
    const sidebar = ['Contact', '+1 415 555 0132', 'jane@example.com', 'San Francisco, CA', 'Skills', 'Scrum', 'Jira'];
    const main = [
      'Jane Doe',
      'Product Owner',
      'Profile',
      'Product owner with eight years of experience.',
      'Experience',
      'Product Owner, Example Inc.',
    ];
    // Different line heights, so that the two columns' baselines only sometimes meet.
    const pieces = [
      ...sidebar.map((text, index) => piece(text, 40, 780 - index * 14, 9)),
      ...main.map((text, index) => piece(text, 220, 780 - index * 18, 11)),
    ];
    expect(
      layoutPage(pieces)
        .split('\n')
        .filter((line) => line !== '\u001d' && line !== ''),
    ).toEqual([...sidebar, ...main]);
  });

  it('reads a full-width header, then the columns below it', () => {
    const pieces = [
      piece('Jane Doe', 40, 800, 20),
      ...['Contact', 'jane@example.com', 'Amsterdam'].map((text, index) => piece(text, 40, 760 - index * 13)),
      ...['Experience', 'Developer at Example B.V. for five years', 'Education'].map((text, index) =>
        piece(text, 240, 755 - index * 17),
      ),
    ];
    const lines = layoutPage(pieces)
      .split('\n')
      .filter((line) => line !== '\u001d' && line !== '');
    expect(lines).toEqual([
      'Jane Doe',
      'Contact',
      'jane@example.com',
      'Amsterdam',
      'Experience',
      'Developer at Example B.V. for five years',
      'Education',
    ]);
  });

  it('reads label and value columns row by row', () => {
    const rows = [
      ['Name', 'Jan de Vries'],
      ['Phone', '020 123 4567'],
      ['E-mail', 'jan@example.nl'],
      ['City', 'Utrecht'],
    ];
    const pieces = rows.flatMap(([label, value], index) => [
      piece(label!, 40, 700 - index * 15),
      piece(value!, 160, 700 - index * 15),
    ]);
    expect(layoutPage(pieces)).toBe(rows.map((row) => row.join('\t')).join('\n'));
  });

  it('joins the pieces of a line with spaces where there is a gap, and letter-spaced headings without', () => {
    const pieces = [piece('Jane', 40, 700), piece('Doe', 40 + 20 + 3, 700)];
    const letters = 'Lebenslauf'.split('').map((letter, index) => piece(letter, 40 + index * 9, 650));
    // pdf.js itself spaces the letters of a letter-spaced piece out.
    const spaced = [
      piece('H A N N A H', 40, 600, 24),
      piece(' ', 180, 600, 24),
      piece("O ' B R I E N - W A L S H", 200, 600, 24),
    ];
    expect(layoutPage([...pieces, ...letters, ...spaced])).toBe("Jane Doe\nLebenslauf\nHANNAH O'BRIEN-WALSH");
    expect(extractCandidateFields(layoutPage(spaced))).toMatchObject({
      firstName: 'Hannah',
      lastName: "O'Brien-Walsh",
    });
  });

  it('reads a two-column PDF in column order end to end', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const sidebar = ['Contact', 'Tel: 020 123 4567', 'emma.bakker@mail.example', 'Amsterdam', 'Skills', 'Excel'];
    const main = [
      'Emma Bakker',
      'Office manager',
      'Experience',
      'Office manager, Example B.V.',
      'References',
      'Jan Smit, 06 98765432',
    ];
    sidebar.forEach((text, index) => page.drawText(text, { x: 40, y: 780 - index * 14, size: 9, font }));
    main.forEach((text, index) => page.drawText(text, { x: 230, y: 780 - index * 19, size: 12, font }));
    const bytes = await pdf.save();
    const text = await extractResumeText(bytes, 'pdf');
    expect(text.split('\n').filter((line) => line !== '\f' && line !== '')).toEqual([...sidebar, ...main]);
    expect(await parseResume(bytes, 'pdf', { defaultRegion: 'DE' })).toMatchObject({
      firstName: 'Emma',
      lastName: 'Bakker',
      email: 'emma.bakker@mail.example',
      phone: '+31201234567',
    });
  });

  it('refuses a PDF that declares an absurd number of objects', async () => {
    const bytes = new TextEncoder().encode(
      '%PDF-1.7\n1 0 obj <<>> endobj\ntrailer\n<< /Size 99999999 /Root 1 0 R >>\n%%EOF\n',
    );
    await expect(extractResumeText(bytes, 'pdf')).rejects.toThrow(/declares more than/u);
  });
});

// ---------------------------------------------------------------------------
// Fields

describe('candidate fields', () => {
  it('never takes a label, heading, job title or place for the name', () => {
    expect(extractCandidateFields('City\tKraków\nE-mail\tanna@example.pl').nameSource).not.toBe('line');
    expect(extractCandidateFields('Product Owner\nSan Francisco, CA\nPriya Raman\npriya@example.com')).toMatchObject({
      firstName: 'Priya',
      lastName: 'Raman',
    });
    expect(extractCandidateFields('Curriculum Vitae\nPersonal details\nContact\nPhone\nE-mail').nameSource).toBe(
      'none',
    );
    expect(
      extractCandidateFields('Persoonlijke gegevens\nWoonplaats: Den Haag\nGeboortedatum: 1-2-1990').nameSource,
    ).toBe('none');
    expect(extractCandidateFields('Lebenslauf\nPersönliche Daten\nWohnort\nBad Homburg').nameSource).toBe('none');
  });

  it('reads "Label: value" lines and personal-details tables in our languages', () => {
    const cases: [string, string, string][] = [
      ['CURRICULUM VITAE\nNaam: Jan de Vries\nWoonplaats: Utrecht', 'Jan', 'de Vries'],
      ['Persoonlijke gegevens\nVoornaam\tSanne\nAchternaam\tvan der Meer', 'Sanne', 'van der Meer'],
      ['Lebenslauf\nVorname: Jürgen\nNachname: Weiß-Hoffmann', 'Jürgen', 'Weiß-Hoffmann'],
      ['CV\nPrénom : Hélène\nNom : Lefèvre', 'Hélène', 'Lefèvre'],
      ['Datos personales\nNombre y apellidos: José Álvarez-Núñez', 'José', 'Álvarez-Núñez'],
      ['Dane osobowe\nImię i nazwisko\tŁukasz Wiśniewski', 'Łukasz', 'Wiśniewski'],
      ["Name\nLiam O'Connor\nCity\nDublin", 'Liam', "O'Connor"],
      ['Curriculum Vitae – Jane Doe\nDesigner', 'Jane', 'Doe'],
      ['Lebenslauf von Anna Schmidt\nBerlin', 'Anna', 'Schmidt'],
      ['Barcelona\nMaría José García López mjgarcia@mail.example\nTécnica', 'María José', 'García López'],
    ];
    for (const [text, firstName, lastName] of cases) {
      expect(extractCandidateFields(text), text).toMatchObject({ firstName, lastName, nameSource: 'line' });
    }
  });

  it('never reads a name, email or phone from the references', () => {
    const text = ['Curriculum Vitae', 'References', 'Jan Smit', 'jan.smit@example.nl', '06 98765432'].join('\n');
    expect(extractCandidateFields(text)).toMatchObject({
      firstName: 'Unknown',
      email: null,
      phone: null,
      nameSource: 'none',
    });
    const withOwn = `Curriculum Vitae\nEmma Bakker\nemma@example.nl\n010 234 5678\nExperience\nClerk\n${text.split('\n').slice(1).join('\n')}`;
    expect(extractCandidateFields(withOwn)).toMatchObject({
      firstName: 'Emma',
      lastName: 'Bakker',
      email: 'emma@example.nl',
      phone: '+31102345678',
    });
  });

  it("takes the candidate's own contact block before other addresses", () => {
    const text = 'Jane Doe\nExperience\nAcme, info@acme.example\nContact\njane@example.com';
    // A contact block is the candidate's; an address in the experience section is not preferred.
    expect(extractCandidateFields(text).email).toBe('jane@example.com');
  });

  it('joins a long name a narrow column wrapped onto two lines', () => {
    const text = 'Kontakt\nToruń\n512 345 678\n\f\nGrzegorz\nBrzęczyszczykiewicz\nMagazynier\nProfil';
    expect(extractCandidateFields(text)).toMatchObject({
      firstName: 'Grzegorz',
      lastName: 'Brzęczyszczykiewicz',
      nameSource: 'line',
    });
  });

  it('joins an email address a narrow column or cell wrapped onto the next line', () => {
    expect(extractCandidateFields('Kontakt\nhello@kowalczyk-\nstudio.example').email).toBe(
      'hello@kowalczyk-studio.example',
    );
    expect(extractCandidateFields('E-mail\tgrace.whitmore@mail.exa\nmple\nDate of birth').email).toBe(
      'grace.whitmore@mail.example',
    );
    expect(extractCandidateFields('b.etxe@ma +34 954 12 34 56\tCádiz\nil.example\tPerfil').email).toBe(
      'b.etxe@mail.example',
    );
    // A complete address stays as it is; a capitalised next line is not the rest of it.
    expect(extractCandidateFields('jane@doe.com\nexample').email).toBe('jane@doe.com');
    expect(extractCandidateFields('jane@doe.studio\nAmsterdam').email).toBe('jane@doe.studio');
  });

  it('takes a surname that is also an occupation when the email spells the name out', () => {
    expect(extractCandidateFields('Minnie Driver\nActress\nminnie.driver@example.com')).toMatchObject({
      firstName: 'Minnie',
      lastName: 'Driver',
      nameSource: 'line',
    });
    expect(extractCandidateFields('Minnie Driver\nActress\nhello@example.com').nameSource).toBe('none');
  });

  it('keeps the diacritics of a name the email agrees with', () => {
    const text = 'Profile\nUX researcher.\nWork experience\nZoë Ødegård, researcher at Example\nzoe.odegard@example.no';
    expect(extractCandidateFields(text)).toMatchObject({ firstName: 'Zoë', lastName: 'Ødegård', nameSource: 'line' });
    expect(extractCandidateFields('zoe.odegard@example.no')).toMatchObject({
      firstName: 'Zoe',
      lastName: 'Odegard',
      nameSource: 'email',
    });
  });

  it('keeps particles, apostrophes, hyphens and Irish/Scottish prefixes', () => {
    const names: [string, string, string][] = [
      ['Pieter van Dijk', 'Pieter', 'van Dijk'],
      ['Thijs ten Brink', 'Thijs', 'ten Brink'],
      ["Jean-Luc D'Arcy", 'Jean-Luc', "D'Arcy"],
      ['Sinéad Ní Bhriain', 'Sinéad', 'Ní Bhriain'],
      ['Rachid El Amrani', 'Rachid', 'El Amrani'],
      ['Laura d’Ancona', 'Laura', 'd’Ancona'],
      ['ANGUS MCDONALD', 'Angus', 'McDonald'],
      ['Katarzyna Nowak-Dąbrowska', 'Katarzyna', 'Nowak-Dąbrowska'],
      ['María José García López', 'María José', 'García López'],
      ['Dr. Anna Schmidt', 'Anna', 'Schmidt'],
    ];
    for (const [line, firstName, lastName] of names) {
      expect(extractCandidateFields(`${line}\nSome text.`), line).toMatchObject({
        firstName,
        lastName,
        nameSource: 'line',
      });
    }
  });

  it("reads national phone numbers with the country the resume names, else the tenant's", () => {
    expect(
      extractCandidateFields('Priya Raman\nSan Francisco, CA\n(415) 555-0132', { defaultRegion: 'NL' }).phone,
    ).toBe('+14155550132');
    expect(extractCandidateFields('Jan Jansen\nAmsterdam\n020 123 4567', { defaultRegion: 'DE' }).phone).toBe(
      '+31201234567',
    );
    expect(
      extractCandidateFields('Anna Nowak\nul. Długa 5, 00-950 Warszawa\n512 345 678', { defaultRegion: 'NL' }).phone,
    ).toBe('+48512345678');
    expect(extractCandidateFields('Lena Vogel\nTel: 030 1234567', { defaultRegion: 'DE' }).phone).toBe('+49301234567');
    expect(extractCandidateFields('Lena Vogel\nTel: 030 1234567').phone).toBe('+31301234567');
    // No place the table knows, and invalid in the tenant's country: the resume's language decides.
    const dutch =
      'Fenna Smits\nZwijndrecht\n020 123 4567\nWerkervaring\nProjectleider bij een bouwbedrijf van het jaar 2018 tot heden, met een team van vijf.\nOpleiding\nHBO bij de hogeschool van Rotterdam';
    expect(extractCandidateFields(dutch, { defaultRegion: 'US' }).phone).toBe('+31201234567');
    // Nothing else fits: a place named anywhere in the resume.
    expect(
      extractCandidateFields('Mei Lin\nPhone\n020 7946 0321\nExperience\nAnalyst, Example plc, London', {
        defaultRegion: 'PL',
      }).phone,
    ).toBe('+442079460321');
    // A postcode is not a phone number, nor is a year range.
    expect(
      extractCandidateFields('Lena Vogel\nKastanienallee 12, 10435 Berlin\n2015 - 2019', { defaultRegion: 'DE' }).phone,
    ).toBeNull();
  });

  it('finds the region a line names', () => {
    expect(regionOfLine('San Francisco, CA 94105')).toBe('US');
    expect(regionOfLine('Wilmington, DE')).toBe('US');
    expect(regionOfLine('Berlin, DE')).toBe('DE');
    expect(regionOfLine('1015 CJ')).toBe('NL');
    expect(regionOfLine('SW1A 1AA')).toBe('GB');
    expect(regionOfLine('Contact us')).toBeNull();
    expect(regionOfLine('Kraków, Polska')).toBe('PL');
  });
});

// ---------------------------------------------------------------------------
// Properties

const LABELS = [
  'Name',
  'Naam',
  'City',
  'Woonplaats',
  'Phone',
  'Telefoon',
  'E-mail',
  'Curriculum Vitae',
  'Contact',
  'Personal details',
  'Persoonlijke gegevens',
  'Lebenslauf',
  'Persönliche Daten',
  'Wohnort',
  'Telefon',
  'Informations personnelles',
  'Ville',
  'Téléphone',
  'Datos personales',
  'Ciudad',
  'Teléfono',
  'Dane osobowe',
  'Miasto',
  'Adres',
  'Address',
  'Nationality',
  'Date of birth',
  'Geboortedatum',
  'References',
  'Referenties',
  'Profile',
  'Skills',
  'Languages',
  'Experience',
];
const PLACES = [
  'San Francisco',
  'Kraków',
  'Den Haag',
  'New York',
  'Frankfurt am Main',
  'Palma de Mallorca',
  'Los Angeles',
];
const TITLES = [
  'Product Owner',
  'Software Engineer',
  'Data Analyst',
  'Projectleider',
  'Senior Developer',
  'Marketing Manager',
];

const upper = 'ABCDEFGHIJKLMNOPRSTUVWZÉÖŁŻÅØ';
const lower = 'abcdefghijklmnoprstuvwzéèëïöüáíóúñłąęśćźżåøæ';
/** Titles before a name and degrees after it, which the extraction drops. */
const NOT_NAMES = new Set(
  'dr drs ir ing mr mrs ms mw mevr dhr prof mgr mag lic sr sra srta mme mlle herr frau pan pani madame monsieur señor señora mevrouw meneer msc bsc ba ma mba phd llm llb md meng beng jr ii iii cpa pmp'.split(
    ' ',
  ),
);
/** A capitalised word; words the extraction knows as labels, job titles or places ("Gsm", "Data", "Nice") are not names. */
const wordArb = fc
  .tuple(
    fc.constantFrom(...upper.split('')),
    fc.string({ unit: fc.constantFrom(...lower.split('')), minLength: 2, maxLength: 9 }),
  )
  .map(([first, rest]) => first + rest)
  .filter((word) => {
    const folded = word.toLocaleLowerCase();
    return (
      !LABEL_WORDS.has(folded) && !JOB_TITLE_WORDS.has(folded) && !PLACE_REGION.has(folded) && !NOT_NAMES.has(folded)
    );
  });
const nameWordArb = fc.oneof(
  wordArb,
  fc.tuple(wordArb, wordArb).map(([a, b]) => `${a}-${b}`),
  wordArb.map((word) => `O'${word}`),
);

describe('candidate field properties', () => {
  it('never takes a label, a place or a job title for a name, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LABELS, ...PLACES, ...TITLES), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\t', ': ', '\n\n'),
        (words, separator) => {
          const fields = extractCandidateFields(words.join(separator));
          expect(fields.nameSource).not.toBe('line');
          expect(fields.firstName).toBe('Unknown');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads a name with diacritics, particles, hyphens and apostrophes on the first line back', () => {
    fc.assert(
      fc.property(
        wordArb,
        fc.constantFrom([], ['van'], ['de'], ['van', 'der'], ['ten'], ['von'], ['del']),
        nameWordArb,
        fc.constantFrom(...LABELS, ...TITLES),
        (firstName, particles, surname, next) => {
          const lastName = [...particles, surname].join(' ');
          fc.pre(!PLACES.includes(`${firstName} ${lastName}`));
          const fields = extractCandidateFields(`${firstName} ${lastName}\n${next}\n`);
          expect(fields).toMatchObject({ firstName, lastName, nameSource: 'line' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes a labelled name over any line above it', () => {
    fc.assert(
      fc.property(
        wordArb,
        nameWordArb,
        fc.constantFrom('Name', 'Naam', 'Full name', 'Imię i nazwisko', 'Nombre completo'),
        fc.constantFrom(...TITLES),
        (first, last, label, title) => {
          const fields = extractCandidateFields(`Curriculum Vitae\n${title}\n${label}: ${first} ${last}`);
          expect(fields).toMatchObject({ firstName: first, lastName: last, nameSource: 'line' });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('parseResume', () => {
  it("passes the tenant's region through to the phone number", async () => {
    const bytes = await docx([
      new Paragraph('Lena Vogel'),
      new Paragraph({ alignment: AlignmentType.LEFT, children: [new TextRun('Tel: 030 1234567')] }),
    ]);
    expect((await parseResume(bytes, 'docx', { defaultRegion: 'DE' })).phone).toBe('+49301234567');
    expect((await parseResume(bytes, 'docx', { defaultRegion: 'NL' })).phone).toBe('+31301234567');
  });
});
