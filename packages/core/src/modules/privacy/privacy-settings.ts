import { z } from 'zod';

/**
 * A tenant's privacy settings (CONTRACT "Privacy by design"): the `privacy` object of the tenant document, stored as
 * it is on the tenant. `null` retention keeps; days count from an application's (or a resume candidate's) creation.
 */
export const ZPrivacySettings = z
  .object({
    require_processing_consent: z.boolean().default(false),
    retention_days: z.number().int().min(1).max(36_500).nullable().default(null),
    talent_pool_retention_days: z.number().int().min(1).max(36_500).nullable().default(null),
    policy_version: z.string().trim().min(1).max(100).nullable().default(null),
  })
  .strict();
export type TPrivacySettings = z.output<typeof ZPrivacySettings>;

export const DEFAULT_PRIVACY_SETTINGS: TPrivacySettings = {
  require_processing_consent: false,
  retention_days: null,
  talent_pool_retention_days: null,
  policy_version: null,
};

/** The stored settings of a tenant (a column written only by the import, read leniently: unknown shapes keep everything). */
export function privacySettingsOf(stored: unknown): TPrivacySettings {
  const parsed = ZPrivacySettings.safeParse(stored ?? {});
  return parsed.success ? parsed.data : DEFAULT_PRIVACY_SETTINGS;
}
