/**
 * The process a ResumeSandbox parses in (started with `fork`, IPC with structured-clone serialisation). It reads one
 * resume at a time and answers with the fields, a refusal (ResumeParseError) or an unexpected error. It holds no
 * database connection and no secrets: its environment is empty.
 */
import { Worker } from 'node:worker_threads';
import { parseResume } from './resume-parse.ts';
import { ResumeParseError } from './resume-text.ts';
import type { TSandboxReply, TSandboxRequest } from './resume-sandbox.ts';

function describe(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

async function answer(request: TSandboxRequest): Promise<TSandboxReply> {
  try {
    // OCR takes longer than reading text: the sandbox gives the parse its OCR time limit from here on.
    const onOcr = () => process.send?.({ id: request.id, outcome: 'ocr' } satisfies TSandboxReply);
    const options = { onOcr, ...(request.defaultRegion === undefined ? {} : { defaultRegion: request.defaultRegion }) };
    return { id: request.id, outcome: 'parsed', fields: await parseResume(request.bytes, request.kind, options) };
  } catch (error) {
    if (error instanceof ResumeParseError) {
      return {
        id: request.id,
        outcome: 'refused',
        message: error.message,
        cause: error.cause === undefined ? undefined : describe(error.cause),
      };
    }
    return { id: request.id, outcome: 'error', error: describe(error) };
  }
}

process.on('message', (request: TSandboxRequest) => {
  void answer(request).then((reply) => process.send?.(reply));
});
// The worker went away: nothing is left to answer to. 'disconnect' comes only when the event loop turns, which a
// long parse may not let happen for minutes; so a thread of its own also watches the parent (a SIGKILLed worker's
// children are re-parented) and kills this process from there.
process.on('disconnect', () => process.exit(0));
const watchdog = new Worker(
  `const { parentPid } = require('node:worker_threads').workerData;
   setInterval(() => { if (process.ppid !== parentPid) process.kill(process.pid, 'SIGKILL'); }, 250);`,
  {
    eval: true,
    workerData: { parentPid: process.ppid },
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1 },
  },
);
watchdog.unref();
process.send?.({ id: 0, outcome: 'ready' } satisfies TSandboxReply);
