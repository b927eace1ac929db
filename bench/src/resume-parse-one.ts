/**
 * One corpus file through the parser in a process of its own, for `pnpm bench resumes`'s memory figures: prints
 * `{"ms": …, "rssKb": …}` — the parse's wall-clock time in a fresh process (modules loaded first) and the process's
 * peak resident memory (Node, the parser's modules and the parse; the sandbox's parse process holds the same). The caller runs it under `/usr/bin/time -f %M`, whose figure also covers the OCR tools
 * (tesseract, pdftoppm) this process starts and waits for.
 *
 *   node src/resume-parse-one.ts <file name in the corpus>
 */
// The corpus module itself, not `@careers/core/testing`: that index loads database and test helpers this process's
// memory figure would count.
import {
  RESUME_CORPUS_DIR,
  evaluateCorpusFile,
  readCorpusTruth,
} from '../../packages/core/test/support/resume-corpus.ts';

const file = process.argv[2];
const truth = file === undefined ? undefined : readCorpusTruth()[file];
if (file === undefined || truth === undefined) {
  console.error(`no corpus file ${file ?? '(none given)'}`);
  process.exit(2);
}
const outcome = await evaluateCorpusFile(RESUME_CORPUS_DIR, file, truth);
console.log(JSON.stringify({ ms: outcome.ms, rssKb: process.resourceUsage().maxRSS, error: outcome.error }));
