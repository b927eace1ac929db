import type { ExpressionBuilder } from 'kysely';
import { visibleVacancy } from '../vacancies/vacancy-visibility.ts';
import type { TDB } from '../../db/kysely.ts';

/** CONTRACT's visibility, for `.where(isVisibleVacancy)` on a query over `vacancies` (unaliased). */
export function isVisibleVacancy(_eb: ExpressionBuilder<TDB, 'vacancies'>) {
  return visibleVacancy('vacancies');
}

const MAX_INT4 = 2_147_483_647;

/** An id a PostgreSQL integer column can hold (larger ones name nothing, and must not reach the query). */
export function isStorableId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_INT4;
}
