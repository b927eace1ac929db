import { z } from 'zod';
import { pickTranslation } from '../../lib/i18n.ts';
import type { TTeamMemberRow } from './team.repository.ts';

export const ZTeamMember = z.object({
  id: z.number().int(),
  given_name: z.string(),
  family_name: z.string(),
  full_name: z.string().describe('given_name + " " + family_name'),
  job_title: z.string().nullable(),
  email: z.string(),
  avatar: z
    .object({ small: z.string().nullable(), medium: z.string().nullable(), large: z.string().nullable() })
    .describe('Absolute image URLs per size, each null when the member has no avatar'),
  phone: z.string().nullable().optional().describe('Only with include_phone: E.164, or null'),
  role: z
    .string()
    .nullable()
    .optional()
    .describe("Only with include_role: the role's label in the tenant default language, or null"),
});
export type TTeamMember = z.infer<typeof ZTeamMember>;

export type TTeamMemberDtoOptions = { includePhone: boolean; includeRole: boolean; defaultLanguage: string };

export function toTeamMemberDto(row: TTeamMemberRow, options: TTeamMemberDtoOptions): TTeamMember {
  const dto: TTeamMember = {
    id: row.id,
    given_name: row.given_name,
    family_name: row.family_name,
    full_name: `${row.given_name} ${row.family_name}`,
    job_title: row.job_title,
    email: row.email,
    avatar: { small: row.avatar?.small ?? null, medium: row.avatar?.medium ?? null, large: row.avatar?.large ?? null },
  };
  if (options.includePhone) dto.phone = row.phone;
  // /team takes no language: the label is in the tenant's default language, else the first stored one.
  if (options.includeRole) dto.role = pickTranslation(row.role_label, undefined, options.defaultLanguage);
  return dto;
}
