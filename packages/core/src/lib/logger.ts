import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import { coreEnv } from '../env.ts';

export type { Logger };

/**
 * Human-readable lines for a person at a terminal (stdout is a TTY, not production); JSON lines for everything else
 * (log collectors, pipes, tests). Written in this thread (no transport worker), so the last lines before an exit are kept.
 */
function terminalStream(): DestinationStream | undefined {
  if (!process.stdout.isTTY || coreEnv().NODE_ENV === 'production') return undefined;
  // Loaded only here: a deployment never needs it.
  const pretty = createRequire(import.meta.url)('pino-pretty') as (
    options: Record<string, unknown>,
  ) => DestinationStream;
  return pretty({ sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/**
 * Structured logs (JSON, or pretty at a terminal: see `terminalStream`). Secrets never reach them: request headers are not logged, and paths that could
 * carry an API key, a password or document content are redacted as a second line of defence.
 */
export function createLogger(name: string): Logger {
  const options: pino.LoggerOptions = {
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
        // A candidate's contact details (CONTRACT "Logs"): never logged on purpose; censored if they ever are.
        'email',
        '*.email',
        'phone',
        '*.phone',
      ],
      censor: '[redacted]',
    },
  };
  const terminal = terminalStream();
  return terminal ? pino(options, terminal) : pino(options);
}

const SQL_IN_MESSAGE = /^(select|insert|update|delete|with|create|alter|drop)\b[\s\S]* - /i;
/** An email address, and a run of digits long enough to be a phone number, in an error's message (e.g. a driver's quoted value). */
const EMAIL_IN_MESSAGE = /[^\s@"'()<>,;:]+@[^\s@"'()<>,;:]+/g;
const PHONE_IN_MESSAGE = /\+?\d[\d\s().-]{7,}\d/g;

/** A message with candidates' contact details censored (CONTRACT "Logs"). */
export function withoutContactDetails(message: string): string {
  return message.replace(EMAIL_IN_MESSAGE, '[email]').replace(PHONE_IN_MESSAGE, '[number]');
}

export function describeError(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  return {
    ...(typeof name === 'string' ? { type: name } : {}),
    ...(code === undefined ? {} : { code }),
    message: withoutContactDetails(
      typeof message === 'string' ? message.replace(SQL_IN_MESSAGE, '').slice(0, 500) : String(error),
    ),
  };
}

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const ignore = () => {};

/**
 * A child logger made on its first use: `child(bindings)` costs more than some whole cached reads, and most requests
 * never log a line (the completion line is left out below `info`, and errors are rare). Stands in for the child in
 * every respect (levels, `child`, `isLevelEnabled`), forwarding to it once made.
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  const made = () => (child ??= parent.child(bindings));
  return new Proxy({} as Logger, {
    get(_target, property) {
      // The child has its parent's level: a line below it, or a question about it, makes no child.
      if (child === undefined && typeof property === 'string') {
        if (LEVELS.has(property) && !parent.isLevelEnabled(property)) return ignore;
        if (property === 'level') return parent.level;
        if (property === 'isLevelEnabled') return (level: string) => parent.isLevelEnabled(level);
      }
      const logger = made();
      const value = Reflect.get(logger, property, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set(_target, property, value) {
      return Reflect.set(made(), property, value);
    },
    has(_target, property) {
      return Reflect.has(made(), property);
    },
  });
}
