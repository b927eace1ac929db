import pino, { type Logger } from 'pino';
import { coreEnv } from '../env.ts';

export type { Logger };

/**
 * Structured JSON logs. Secrets never reach them: request headers are not logged, and paths that could
 * carry an API key, a password or document content are redacted as a second line of defence.
 */
export function createLogger(name: string): Logger {
  return pino({
    name,
    level: coreEnv().LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'authorization',
        'password',
        '*.password',
        'key',
        'plaintext',
        '*.content',
        'content',
      ],
      censor: '[redacted]',
    },
  });
}
