import { z } from 'zod';

export const ZGetOverviewInput = z.void();

const ZProcessingStatusCounts = z.object({
  queued: z.number().int(),
  processing: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});

export const ZProcessingFailure = z.object({
  processing_id: z.string(),
  filename: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  failed_at: z.string(),
});
export type TProcessingFailureDto = z.infer<typeof ZProcessingFailure>;

export const ZVacancyApplications = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  status: z.string(),
  applications: z.number().int(),
  applications_last_7_days: z.number().int(),
});

export const ZGetOverviewOutput = z.object({
  api_enabled: z.boolean(),
  visible_vacancies: z.number().int(),
  applications_last_7_days: z.number().int(),
  active_api_keys: z.number().int(),
  resume_processings: ZProcessingStatusCounts,
  latest_failures: z.array(ZProcessingFailure),
  /** The most applied-to vacancies (at most 50) with their application counts. */
  applications_per_vacancy: z.array(ZVacancyApplications),
  /** How many vacancies the tenant has (applications_per_vacancy may list fewer). */
  vacancies_total: z.number().int(),
  generated_at: z.string(),
});
export type TGetOverviewOutput = z.infer<typeof ZGetOverviewOutput>;
