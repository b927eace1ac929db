import { JUDGED_API_KEY, JUDGEMENTS, judge, judgedTenantDocument, summarizeJudgements } from '@careers/core/bench';
import { startBenchEnvironment } from './harness.ts';
import type { TReportScenario } from './scenario.ts';

/**
 * Relevance, not speed: the judged set of packages/core/test/support/search-judgements.ts (queries in en/nl/de with
 * typos, plurals, accents, synonyms and negatives) against a running API; prints success@3, recall and every miss.
 */
export const searchQualityScenario: TReportScenario = {
  description: 'q relevance on the judged set: success@3, recall, negatives',
  report: async (options) => {
    const environment = await startBenchEnvironment(judgedTenantDocument());
    try {
      const outcomes = [];
      for (const judgement of JUDGEMENTS) {
        const response = await fetch(
          `${environment.baseUrl}/vacancies?q=${encodeURIComponent(judgement.q)}&per_page=100`,
          {
            headers: { authorization: `Bearer ${JUDGED_API_KEY}` },
          },
        );
        const body = (await response.json()) as { data: { id: number }[] };
        outcomes.push(judge(judgement, response.ok ? body.data.map((item) => item.id) : []));
      }
      const summary = summarizeJudgements(outcomes);
      const misses = outcomes.filter((o) => o.success === false || (o.recall ?? 1) < 1 || o.wrong.length > 0);
      console.log(`  queries: ${outcomes.length} · rules: ${new Set(outcomes.map((o) => o.rule)).size}`);
      console.log(`  success@3: ${(summary.successAt3 * 100).toFixed(1)} %`);
      console.log(`  recall:    ${(summary.recall * 100).toFixed(1)} %`);
      console.log(`  negatives: ${summary.negativesPassed}/${summary.negatives} found nothing they must not`);
      for (const miss of misses.slice(0, options.worst)) {
        console.log(
          `  ✗ ${JSON.stringify(miss.q)} (${miss.rule}): top 3 [${miss.found.slice(0, 3).join(', ')}], relevant [${(miss.relevant ?? []).join(', ')}], wrongly found [${miss.wrong.join(', ')}]`,
        );
      }
    } finally {
      await environment.stop();
    }
  },
};
