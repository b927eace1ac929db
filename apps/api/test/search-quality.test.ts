import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  JUDGED_API_KEY,
  JUDGEMENTS,
  judge,
  judgedTenantDocument,
  summarizeJudgements,
  type TJudgementOutcome,
} from '@careers/core/testing';
import { importTenantDocument } from '@careers/core/operations';
import { startTestApi, type TTestApi } from './support/api.ts';

/** The judged relevance set (packages/core/test/support/search-judgements.ts): every query, by the rule it checks. */

let api: TTestApi;
const outcomes: TJudgementOutcome[] = [];

beforeAll(async () => {
  api = await startTestApi(await createTestDatabase());
  await importTenantDocument({ em: api.services.orm.em }, judgedTenantDocument());
});
afterAll(async () => api?.close());

describe('judged relevance set', () => {
  it.each(JUDGEMENTS.map((judgement) => [`${judgement.q} (${judgement.rule})`, judgement] as const))(
    '%s',
    async (_name, judgement) => {
      const response = await api.get(`/vacancies?q=${encodeURIComponent(judgement.q)}&per_page=100`, JUDGED_API_KEY);
      expect(response.status, response.text).toBe(200);
      const outcome = judge(
        judgement,
        response.body.data.map((item: { id: number }) => item.id),
      );
      outcomes.push(outcome);
      if (outcome.success !== null)
        expect(outcome.success, `top 3: ${outcome.found.slice(0, 3).join(', ')}`).toBe(true);
      expect(outcome.recall ?? 1, `found: ${outcome.found.join(', ')}`).toBe(1);
      expect(outcome.wrong).toEqual([]);
    },
  );

  it('success@3 and recall are 1 on the whole set', () => {
    const summary = summarizeJudgements(outcomes);
    expect(summary).toEqual({
      successAt3: 1,
      recall: 1,
      negativesPassed: summary.negatives,
      negatives: summary.negatives,
    });
  });
});
