import { z } from 'zod';

/** The consents of an application as stored and echoed (CONTRACT "Consent on POST /applications"). */
export const ZConsents = z.object({
  processing: z.boolean().describe('Consent to the processing of the application'),
  talent_pool: z
    .boolean()
    .describe("Consent to be kept in the talent pool (see the tenant's `talent_pool_retention_days`)"),
  given_at: z.string().describe("ISO-8601, UTC: when the consents were given (the application's creation)"),
  policy_version: z.string().nullable().describe("The tenant's privacy policy version at that moment"),
});
export type TConsents = z.infer<typeof ZConsents>;

/** The `consents` a POST /applications body may give. */
export const ZConsentsInput = z
  .object({
    processing: z
      .boolean()
      .nullish()
      .transform((value) => value ?? false),
    talent_pool: z
      .boolean()
      .nullish()
      .transform((value) => value ?? false),
  })
  .nullish()
  .transform((value) => value ?? { processing: false, talent_pool: false })
  .describe('Extension (privacy): consent to processing (required when the tenant requires it) and to the talent pool');
export type TConsentsInput = z.output<typeof ZConsentsInput>;

/** Field errors of a body whose consents the tenant requires: `consents.processing` must be true. */
export function consentErrors(required: boolean, rawConsents: unknown): Record<string, string[]> {
  if (!required) return {};
  const given =
    typeof rawConsents === 'object' &&
    rawConsents !== null &&
    (rawConsents as Record<string, unknown>).processing === true;
  return given ? {} : { 'consents.processing': ['The consents.processing field must be accepted.'] };
}
