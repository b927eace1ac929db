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
    // Errors as type, code and message only: no stack traces (and no SQL that a driver error may quote).
    serializers: { err: describeError },
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

const SQL_IN_MESSAGE = /^(select|insert|update|delete|with|create|alter|drop)\b[\s\S]* - /i;

export function describeError(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return {
    ...(typeof name === 'string' ? { type: name } : {}),
    ...(code === undefined ? {} : { code }),
    message: typeof message === 'string' ? message.replace(SQL_IN_MESSAGE, '').slice(0, 500) : String(error),
  };
}
