import { evaluateCorpus, fieldAccuracy, formatCorpusReport, formatProfileReport, type TCorpusOutcome } from '@careers/core/testing';
import type { TReportScenario } from './scenario.ts';

/**
 * Extraction quality, not speed: every resume of the corpus through the worker's parse entry, compared with its truth.
 * The corpus and its generator: packages/core/test/fixtures/resume-corpus, bench/src/resume-corpus/generate.ts.
 */
export const resumesScenario: TReportScenario = {
  description: 'resume extraction accuracy (contact fields and profile sections) on the resume corpus',
  report: async (options) => {
    const started = performance.now();
    const outcomes = await evaluateCorpus();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${outcomes.length} files parsed in ${seconds} s\n`);
    console.log(formatCorpusReport(outcomes, { worst: options.worst }));
    console.log(`\nprofile sections (headline, location, links: files exactly right; the rest: F1 over entries)\n`);
    console.log(formatProfileReport(profileGroups(outcomes)));
    // The held-out part's misses are not shown: they are not to be tuned on.
    const tuned = outcomes.filter((outcome) => !outcome.truth.held_out);
    const misses = tuned.flatMap((outcome) => outcome.profileScore.misses.map((miss) => `  ${outcome.file.padEnd(40)} ${miss}`));
    console.log(`\nprofile misses in the tuned part (${Math.min(misses.length, options.worst ?? 40)} of ${misses.length})`);
    console.log(misses.slice(0, options.worst ?? 40).join('\n'));
    console.log('\nparse time per file type (detect + extract + fields + profile, in this process)');
    for (const format of [...new Set(outcomes.map((outcome) => outcome.format))].sort()) {
      const times = outcomes.filter((outcome) => outcome.format === format && outcome.error === null).map((outcome) => outcome.ms).sort((a, b) => a - b);
      const p50 = times[Math.floor(times.length / 2)] ?? 0;
      console.log(`  ${format.padEnd(6)} ${String(times.length).padStart(4)} files   p50 ${p50.toFixed(0).padStart(6)} ms   max ${(times.at(-1) ?? 0).toFixed(0).padStart(6)} ms`);
    }
  },
};

/** Contact accuracy: the share of the four contact fields (names, email, phone) that came out right. */
function contactAccuracy(outcomes: readonly TCorpusOutcome[]): number {
  const accuracy = fieldAccuracy(outcomes);
  return (accuracy.first_name + accuracy.last_name + accuracy.email + accuracy.phone) / 4;
}

/** Text files and OCR files apart; the tuned part and the held-out part apart; then per format and language. */
function profileGroups(outcomes: readonly TCorpusOutcome[]): [string, TCorpusOutcome['profileScore'][], number][] {
  const group = (label: string, members: readonly TCorpusOutcome[]): [string, TCorpusOutcome['profileScore'][], number] =>
    [label, members.map((outcome) => outcome.profileScore), contactAccuracy(members)];
  const ocr = (outcome: TCorpusOutcome) => outcome.truth.scanned === true;
  const text = outcomes.filter((outcome) => !ocr(outcome));
  const scanned = outcomes.filter(ocr);
  const rows = [
    group('text files, tuned', text.filter((outcome) => !outcome.truth.held_out)),
    group('text files, held out', text.filter((outcome) => outcome.truth.held_out)),
    group('OCR files, tuned', scanned.filter((outcome) => !outcome.truth.held_out)),
    group('OCR files, held out', scanned.filter((outcome) => outcome.truth.held_out)),
  ];
  for (const format of [...new Set(outcomes.map((outcome) => outcome.format))].sort()) {
    rows.push(group(`  ${format}`, outcomes.filter((outcome) => outcome.format === format)));
  }
  for (const language of [...new Set(outcomes.map((outcome) => outcome.truth.language))].sort()) {
    rows.push(group(`  ${language}`, outcomes.filter((outcome) => outcome.truth.language === language)));
  }
  return rows;
}
