import { describe, expect, it } from 'vitest';
import { parseTenantDocument } from '../src/modules/tenants/import/tenant-document.schema.ts';
import { checkAnswers } from '../src/modules/applications/application-answers.ts';
import type { TVacancyQuestion } from '../src/modules/vacancies/vacancy-question.ts';
import fc from 'fast-check';

/** Application questions and the duplicate policy in the tenant document, and the answer rules. */
function documentWith(questions: unknown, tenantFields: Record<string, unknown> = {}) {
  return {
    tenants: [
      {
        slug: 'acme',
        name: 'Acme',
        ...tenantFields,
        vacancies: [
          {
            id: 1,
            slug: 'job',
            title: 'Job',
            summary: null,
            description: null,
            requirements: null,
            offer: null,
            language: 'en',
            status: 'published',
            channels: ['api'],
            questions,
          },
        ],
      },
    ],
  };
}

const select = (type: string, extra: Record<string, unknown> = {}) => ({
  key: 'choice',
  label: { en: 'Choice' },
  type,
  options: [{ value: 'a', label: { EN: 'A' } }],
  ...extra,
});

describe('questions in the tenant document', () => {
  it('accepts every type, lower-cases label languages and defaults required to false and duplicate_applications to allow', () => {
    const result = parseTenantDocument(
      documentWith([
        { key: 'a', label: { EN: 'A' }, type: 'text', max_length: 10 },
        { key: 'b_2', label: { nl: 'B' }, type: 'textarea', required: true },
        { key: 'c', label: { en: 'C' }, type: 'number' },
        { key: 'd', label: { en: 'D' }, type: 'boolean' },
        select('single_select', { key: 'e' }),
        select('multi_select', { key: 'f' }),
      ]),
    );
    expect(result.ok, result.ok ? '' : result.message).toBe(true);
    if (!result.ok) return;
    const [tenant] = result.document.tenants;
    expect(tenant!.duplicate_applications).toBe('allow');
    const questions = tenant!.vacancies[0]!.questions;
    expect(questions.map((q) => [q.key, q.type, q.required])).toEqual([
      ['a', 'text', false],
      ['b_2', 'textarea', true],
      ['c', 'number', false],
      ['d', 'boolean', false],
      ['e', 'single_select', false],
      ['f', 'multi_select', false],
    ]);
    expect(questions[0]!.label).toEqual({ en: 'A' });
    expect(questions[4]!.options).toEqual([{ value: 'a', label: { en: 'A' } }]);
  });

  it('accepts reject as the duplicate policy and refuses anything else', () => {
    const reject = parseTenantDocument(documentWith([], { duplicate_applications: 'reject' }));
    expect(reject.ok && reject.document.tenants[0]!.duplicate_applications).toBe('reject');
    const other = parseTenantDocument(documentWith([], { duplicate_applications: 'warn' }));
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.message).toMatch(/^tenants\[0\]\.duplicate_applications: /);
  });

  const refusals: [string, unknown, string][] = [
    [
      'a repeated key',
      [
        { key: 'a', label: { en: 'A' }, type: 'text' },
        { key: 'a', label: { en: 'B' }, type: 'number' },
      ],
      'tenants[0].vacancies[0].questions[1].key',
    ],
    [
      'a key with capitals',
      [{ key: 'Notice', label: { en: 'A' }, type: 'text' }],
      'tenants[0].vacancies[0].questions[0].key',
    ],
    [
      'a key of 65 characters',
      [{ key: `a${'b'.repeat(64)}`, label: { en: 'A' }, type: 'text' }],
      'tenants[0].vacancies[0].questions[0].key',
    ],
    ['no label', [{ key: 'a', label: {}, type: 'text' }], 'tenants[0].vacancies[0].questions[0].label'],
    [
      'an empty label',
      [{ key: 'a', label: { en: ' ' }, type: 'text' }],
      'tenants[0].vacancies[0].questions[0].label.en',
    ],
    ['an unknown type', [{ key: 'a', label: { en: 'A' }, type: 'date' }], 'tenants[0].vacancies[0].questions[0].type'],
    [
      'a select without options',
      [{ key: 'a', label: { en: 'A' }, type: 'single_select' }],
      'tenants[0].vacancies[0].questions[0].options',
    ],
    [
      'a select with no options',
      [select('multi_select', { options: [] })],
      'tenants[0].vacancies[0].questions[0].options',
    ],
    ['options on a text question', [select('text')], 'tenants[0].vacancies[0].questions[0].options'],
    [
      'a repeated option',
      [
        select('single_select', {
          options: [
            { value: 'a', label: { en: 'A' } },
            { value: 'a', label: { en: 'B' } },
          ],
        }),
      ],
      'tenants[0].vacancies[0].questions[0].options[1].value',
    ],
    [
      'an option without label',
      [select('single_select', { options: [{ value: 'a', label: {} }] })],
      'tenants[0].vacancies[0].questions[0].options[0].label',
    ],
    [
      'max_length on a number',
      [{ key: 'a', label: { en: 'A' }, type: 'number', max_length: 3 }],
      'tenants[0].vacancies[0].questions[0].max_length',
    ],
    [
      'max_length of 0',
      [{ key: 'a', label: { en: 'A' }, type: 'text', max_length: 0 }],
      'tenants[0].vacancies[0].questions[0].max_length',
    ],
    ['questions that are not a list', { a: 1 }, 'tenants[0].vacancies[0].questions'],
  ];
  it.each(refusals)('refuses %s', (_name, questions, path) => {
    const result = parseTenantDocument(documentWith(questions));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.startsWith(`${path}: `), result.message).toBe(true);
  });
});

describe('checkAnswers', () => {
  const questions: TVacancyQuestion[] = [
    { key: 'text', label: { en: 'T' }, type: 'text', required: false, max_length: 5 },
    {
      key: 'pick',
      label: { en: 'P' },
      type: 'multi_select',
      required: false,
      options: ['a', 'b', 'c'].map((value) => ({ value, label: { en: value } })),
    },
  ];

  it('property: an answer is accepted exactly when it fits its question, and only accepted answers are kept', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 4 }),
        (text, picks) => {
          const { answers, errors } = checkAnswers(questions, { text, pick: picks });
          const textFits = text.trim().length <= 5;
          const pickFits = picks.every((p) => p !== 'd') && new Set(picks).size === picks.length;
          expect('answers.text' in errors).toBe(text.trim() !== '' && !textFits);
          expect(Object.keys(errors).some((k) => k.startsWith('answers.pick'))).toBe(picks.length > 0 && !pickFits);
          expect('text' in answers).toBe(text.trim() !== '' && textFits);
          expect('pick' in answers).toBe(picks.length > 0 && pickFits);
        },
      ),
    );
  });
});
