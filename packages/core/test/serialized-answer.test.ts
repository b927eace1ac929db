import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { z } from 'zod';
import { CountedJson, SerializedAnswer, servedOutput } from '../src/modules/content/serialized-answer.ts';
import type { TLiveFields } from '../src/modules/content/content.repository.ts';

const ZItem = z.object({
  id: z.number().int(),
  title: z.string(),
  views_count: z.number().int(),
  url: z.string().nullable(),
});
const ZPage = z.object({ data: z.array(ZItem), meta: z.object({ total: z.number().int() }) });

const item = fc.record({
  id: fc.integer({ min: 1, max: 1_000_000 }),
  // Text that looks like what the splicing looks for must stay text.
  title: fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('"views_count":1', '","views_count":"x', '\\"views_count\\":2', '\u2028'),
  ),
  views_count: fc.nat(),
  url: fc.option(fc.string({ unit: 'grapheme' }), { nil: null }),
});

describe('CountedJson', () => {
  it('renders exactly the serialized answer with any live view counts, under one ETag', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(item, { selector: (entry) => entry.id, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
        (items, counts) => {
          const page = { data: items, meta: { total: items.length } };
          const json = CountedJson.of(page, ZPage);
          const live = new Map<number, TLiveFields>(
            items.map((entry, index) => [entry.id, { views_count: counts[index]! }]),
          );
          const expected = { ...page, data: items.map((entry, index) => ({ ...entry, views_count: counts[index]! })) };
          const answer = json.render(live);
          expect(answer.body.toString()).toBe(JSON.stringify(expected));
          expect(json.render(undefined).body.toString()).toBe(JSON.stringify(page));
          expect(answer.etag).toBe(json.etag);
        },
      ),
    );
  });

  it('renders every sequence of live counts exactly, an answer served again only while its counts are unchanged', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(item, { selector: (entry) => entry.id, minLength: 1, maxLength: 4 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }), { maxLength: 8 }),
        (items, rounds) => {
          const page = { data: items, meta: { total: items.length } };
          const json = CountedJson.of(page, ZPage);
          for (const counts of rounds) {
            const live = new Map<number, TLiveFields>(
              items.map((entry, index) => [entry.id, { views_count: counts[index]! }]),
            );
            const expected = {
              ...page,
              data: items.map((entry, index) => ({ ...entry, views_count: counts[index]! })),
            };
            expect(json.render(live).body.toString()).toBe(JSON.stringify(expected));
          }
          expect(json.render(undefined).body.toString()).toBe(JSON.stringify(page));
        },
      ),
    );
  });

  it('writes what the schema outputs and refuses what it does not accept', () => {
    const extra = { data: [{ id: 1, title: 't', views_count: 2, url: null, secret: 'x' }], meta: { total: 1 } };
    expect(JSON.parse(CountedJson.of(extra, ZPage).render(undefined).body.toString()).data[0]).not.toHaveProperty(
      'secret',
    );
    expect(() => CountedJson.of({ data: [{ id: 1 }], meta: { total: 1 } }, ZPage)).toThrow();
  });
});

describe('servedOutput', () => {
  it('lets an answer validated against its schema through, and validates anything else', () => {
    const served = servedOutput(ZPage);
    const answer = CountedJson.of({ data: [], meta: { total: 0 } }, ZPage).render(undefined);
    expect(served.parse(answer)).toBe(answer);
    expect(served.parse({ data: [], meta: { total: 0 } })).toEqual({ data: [], meta: { total: 0 } });
    expect(() => served.parse({ data: 'no' })).toThrow();
    const other = new SerializedAnswer(Buffer.from('{}'), 'W/"x"', ZItem);
    expect(() => served.parse(other)).toThrow(/another schema/);
  });
});
