import { evaluateCorpus, formatCorpusReport } from '@careers/core/testing';
import type { TReportScenario } from './scenario.ts';

/**
 * Extraction quality, not speed: every resume of the corpus through the worker's parse entry, compared with its truth.
 * The corpus and its generator: packages/core/test/fixtures/resume-corpus, bench/src/resume-corpus/generate.ts.
 */
export const resumesScenario: TReportScenario = {
  description: 'resume extraction accuracy (name, email, phone) on the resume corpus',
  report: async (options) => {
    const started = performance.now();
    const outcomes = await evaluateCorpus();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${outcomes.length} files parsed in ${seconds} s\n`);
    console.log(formatCorpusReport(outcomes, { worst: options.worst }));
  },
};
