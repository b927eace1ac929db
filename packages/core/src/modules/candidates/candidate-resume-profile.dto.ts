import { z } from 'zod';
import type { TCandidateResumeProfile } from './candidate.entity.ts';

const ZProfileDate = z
  .string()
  .regex(/^\d{4}(?:-\d{2})?$/u)
  .nullable()
  .describe('"YYYY-MM" when the month is known, else "YYYY"; null when not written');

/** The profile read from the resume a candidate was made from (contract: "Resumes become profiles"). */
export const ZCandidateResumeProfile = z
  .object({
    headline: z.string().nullable().describe('The job title the resume gives its candidate'),
    location: z
      .object({
        city: z.string().nullable(),
        country_code: z.string().nullable().describe('ISO 3166-1 alpha-2'),
      })
      .nullable(),
    links: z.array(z.object({ type: z.enum(['linkedin', 'github', 'website']), url: z.string() })),
    experience: z
      .array(
        z.object({
          title: z.string().nullable(),
          employer: z.string().nullable(),
          start: ZProfileDate,
          end: ZProfileDate,
          current: z
            .boolean()
            .describe('An ongoing position ("present", "heden", "heute", "aujourd\'hui", … or an open end)'),
        }),
      )
      .describe("Positions in the resume's order"),
    education: z
      .array(
        z.object({
          degree: z.string().nullable(),
          institution: z.string().nullable(),
          start: ZProfileDate,
          end: ZProfileDate,
        }),
      )
      .describe("Studies in the resume's order"),
    skills: z.array(z.string()),
    languages: z.array(
      z.object({
        language: z.string().describe('ISO 639-1'),
        level: z
          .enum(['native', 'fluent', 'professional', 'basic'])
          .nullable()
          .describe('CEFR levels map as A1–B1 basic, B2–C1 professional, C2 fluent; null when the resume gives none'),
      }),
    ),
  })
  .nullable()
  .describe(
    'The profile read from the resume the candidate was made from (POST /candidates); null for other candidates',
  );
export type TCandidateResumeProfileDto = z.infer<typeof ZCandidateResumeProfile>;

/** The stored profile as the API shows it (a row written before a field existed gets its empty value). */
export function toCandidateResumeProfileDto(
  stored: TCandidateResumeProfile | null | undefined,
): TCandidateResumeProfileDto {
  if (stored === null || stored === undefined) return null;
  return {
    headline: stored.headline ?? null,
    location: stored.location ?? null,
    links: stored.links ?? [],
    experience: stored.experience ?? [],
    education: stored.education ?? [],
    skills: stored.skills ?? [],
    languages: stored.languages ?? [],
  };
}
