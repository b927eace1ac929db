import type { Kysely } from 'kysely';
import type { InferKyselyDB } from '@mikro-orm/postgresql';
import type { entities } from '../modules/entities.ts';

type TPivotTables = {
  vacancy_job_types: { vacancy_id: number; job_type_id: number };
  vacancy_experience_levels: { vacancy_id: number; experience_level_id: number };
  vacancy_education_levels: { vacancy_id: number; education_level_id: number };
  vacancy_tags: { vacancy_id: number; tag_id: number };
  article_tags: { article_id: number; tag_id: number };
  candidate_users: { candidate_id: number; user_id: number };
};

/** Typed rows of every table, inferred from the entities (snake_case columns), plus the pivot tables. */
export type TDB = InferKyselyDB<(typeof entities)[number]> & TPivotTables;
export type TDb = Kysely<TDB>;
