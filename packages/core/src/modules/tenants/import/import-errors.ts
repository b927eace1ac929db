/** A document that breaks the rules of CONTRACT.md's tenant document, or clashes with the database. Nothing was written. */
export class TenantDocumentError extends Error {
  /** The first bad path, e.g. `tenants[0].vacancies[3].department_id`. */
  readonly path: string;

  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super(`${path}: ${problem}`, options);
    this.name = 'TenantDocumentError';
    this.path = path;
  }
}

export type TImportOptions = {
  /** Called after each phase with its duration (for measurements). */
  onPhase?: (phase: string, ms: number) => void;
};

/** Runs one phase of the import, reporting its duration. */
export async function timed<T>(options: TImportOptions, phase: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  options.onPhase?.(phase, performance.now() - started);
  return result;
}

/** Writes one collection; a constraint violation becomes a TenantDocumentError on that collection's path. */
export async function writeCollection<T>(options: TImportOptions, path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await timed(options, path, write);
  } catch (error) {
    const pgError = findPgError(error);
    if (pgError && (pgError.code === '23505' || pgError.code === '23503' || pgError.code === '23514')) {
      const detail = pgError.detail ?? pgError.message;
      throw new TenantDocumentError(path, `conflicts with data already in the database (${detail})`, { cause: error });
    }
    throw error;
  }
}

type TPgError = { code: string; detail?: string; message: string };

function findPgError(error: unknown): TPgError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as Partial<TPgError> & { cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) return candidate as TPgError;
    current = candidate.cause;
  }
  return undefined;
}
