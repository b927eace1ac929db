import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonScanner, type TScanVerdict } from '../src/rest/json-scanner.ts';

const LIMITS = { maxDepth: 64, maxValues: 10_000 };

/** Scans `text` split at the given byte offsets (chunk borders anywhere, also inside escapes and UTF-8). */
function scan(text: string | Buffer, cuts: number[] = [], limits = LIMITS): TScanVerdict | undefined {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const scanner = new JsonScanner(limits);
  const borders = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const border of [...borders, bytes.length]) {
    const verdict = scanner.write(bytes.subarray(from, border));
    if (verdict) return verdict;
    from = border;
  }
  return scanner.end();
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const cuts = fc.array(fc.nat(), { maxLength: 6 });

describe('JsonScanner', () => {
  it('property: accepts every JSON text, however it is cut into chunks', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium', maxDepth: 20 }), cuts, (text, at) => {
        expect(scan(text, at)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('property: on mangled text it refuses exactly what JSON.parse refuses', () => {
    const mangled = fc
      .tuple(
        fc.json({ maxDepth: 6 }),
        fc.nat(),
        fc.constantFrom('', ',', '}', ']', '"', '\\', ':', '-', '0', '1e', 'tru', 'x', ' ', '\n', '\u0001', '{', '['),
      )
      .map(([text, at, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1)));
    const other = fc.string({ unit: fc.constantFrom(...'{}[]":,-+.eE0123456789 \\/ubfnrt'.split('')), maxLength: 30 });
    fc.assert(
      fc.property(fc.oneof(mangled, other), cuts, (text, at) => {
        if (text === '') return;
        expect(scan(text, at) === undefined, JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts an empty body and a leading byte order mark; whitespace alone is malformed', () => {
    expect(scan('')).toBeUndefined();
    expect(scan(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]), [1, 2])).toBeUndefined();
    expect(scan('  ')).toBe('malformed');
    expect(scan('{"a":1} x')).toBe('malformed');
  });

  it('stops at depth 65 and at value 10 001, without reading further', () => {
    expect(scan('['.repeat(64) + ']'.repeat(64))).toBeUndefined();
    expect(scan('['.repeat(65) + ']'.repeat(65))).toBe('too-deep');
    expect(scan('{"a":'.repeat(65) + '1' + '}'.repeat(65))).toBe('too-deep');
    // The verdict comes before the text is complete (the rest would be malformed).
    expect(scan('['.repeat(100))).toBe('too-deep');
    expect(scan(`[${'0,'.repeat(9_998)}0]`)).toBeUndefined();
    expect(scan(`[${'{},'.repeat(10_000)}{}`)).toBe('too-many-values');
  });
});
