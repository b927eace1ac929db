/**
 * A resume whose bytes could not be turned into text. The message is meant for
 * people (it ends up in the processing status); the library error, if any, is
 * kept as `cause` for logs only.
 */
export class ResumeParseError extends Error {
  override readonly name = 'ResumeParseError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
