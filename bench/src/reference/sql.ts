import { AppError } from '@careers/core/bench';

/** Positional parameters of one statement; `$1` is always the tenant. */
export class SqlParams {
  readonly values: unknown[];

  constructor(tenantId: number) {
    this.values = [tenantId];
  }

  get tenant(): string {
    return '$1';
  }

  /** Adds a value and returns its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The reference implements only the parameters the benchmarks send: any other is refused loudly (500), so a new
 * scenario cannot be compared against a reference that silently ignores part of it.
 */
export function onlyParams(query: Record<string, unknown>, supported: readonly string[]): void {
  const other = Object.keys(query).filter((name) => !supported.includes(name));
  if (other.length > 0)
    throw new AppError('INTERNAL', { detail: `the reference does not implement ${other.join(', ')}` });
}
