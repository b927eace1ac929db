import type { TDb } from '../../db/kysely.ts';
import type { TFieldErrors } from '../../lib/errors.ts';
import { attributeName } from '../../lib/validation.ts';
import { findUnknownReferences, type TReference } from './taxonomies.repository.ts';

/** The 422 field errors of references that name nothing in the tenant (`The selected tags.0 is invalid.`). */
export function unknownReferenceErrors(unknown: ReadonlyArray<Pick<TReference, 'path'>>): TFieldErrors {
  return Object.fromEntries(
    unknown.map(({ path }) => [path, [`The selected ${attributeName(path.split('.'))} is invalid.`]]),
  );
}

/** Checks the references of a request in one query; the field errors of those that name nothing. */
export async function checkReferences(db: TDb, references: readonly TReference[]): Promise<TFieldErrors> {
  return unknownReferenceErrors(await findUnknownReferences(db, references));
}
