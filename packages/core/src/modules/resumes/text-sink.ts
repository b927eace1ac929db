/** Characters of text kept at most (a resume is a few thousand). */
export const MAX_TEXT_LENGTH = 500_000;

/**
 * Marks the start of a column (or a table cell laid out as one) near the top of a page: what follows is read as a new
 * block, whose first lines may be a name or contact details again. Becomes a line holding a form feed in the
 * normalised text.
 */
export const BLOCK_BREAK = '\u001d';

/**
 * Collects extracted text up to a limit, so that a huge document stops costing memory as soon as the limit is reached
 * (not after everything was read). `full` tells the producer it may stop.
 */
export class TextSink {
  private readonly parts: string[] = [];
  private length = 0;

  private readonly limit: number;

  constructor(limit: number = MAX_TEXT_LENGTH) {
    this.limit = limit;
  }

  get full(): boolean {
    return this.length >= this.limit;
  }

  get size(): number {
    return this.length;
  }

  /** Appends what still fits; returns false once the limit is reached. */
  push(text: string): boolean {
    if (text === '' || this.full) return !this.full;
    const room = this.limit - this.length;
    const kept = text.length > room ? text.slice(0, room) : text;
    this.parts.push(kept);
    this.length += kept.length;
    return !this.full;
  }

  /** The last character pushed, or '' (lets a producer avoid doubling separators). */
  lastChar(): string {
    const last = this.parts[this.parts.length - 1];
    return last === undefined ? '' : last.slice(-1);
  }

  toString(): string {
    return this.parts.join('');
  }
}
