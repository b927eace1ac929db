import { z } from 'zod';
import { ZPrivacySettings } from '../../privacy/privacy-settings.ts';
import { isKnownScope } from '../../../lib/scopes.ts';
import { ZApiKeyPlaintext } from '../../api-keys/api-key.crypto.ts';
import {
  isPublishableScope,
  MAX_ORIGINS,
  normalizeOrigin,
  PUBLISHABLE_SCOPES,
} from '../../api-keys/api-key.origins.ts';
import { VACANCY_STATUSES, WORKPLACE_TYPES } from '../../vacancies/vacancy.entity.ts';
import { ARTICLE_STATUSES, ARTICLE_TYPES } from '../../articles/article.entity.ts';
import { CANDIDATE_STATUSES } from '../../candidates/candidate.entity.ts';
import { EMPLOYMENT_TYPES } from '../../taxonomies/taxonomy.entity.ts';
import { DUPLICATE_APPLICATION_POLICIES } from '../tenant.entity.ts';
import { QUESTION_TYPES } from '../../vacancies/vacancy-question.ts';

/**
 * The structure of the tenant document of CONTRACT.md ("Tenant document", read by `careers import`).
 *
 * Parsing has two stages: the structure (types, enumerations, lengths, formats; unknown fields are ignored, so a document
 * written for a newer version still loads)
 * and then the references between records (ids unique per table across the whole document, slugs and emails
 * unique per tenant, every `*_id` pointing at a record of the same tenant, no tag cycles). A document that breaks
 * a rule is refused with one message naming the first bad path, e.g.
 * `tenants[0].vacancies[3].department_id: no such department`.
 */

const MAX_INT = 2_147_483_647;

const ZId = z.number().int().min(1).max(MAX_INT);
const ZRef = ZId.nullable().default(null);
const ZIdList = z.array(ZId).default([]);
const ZTimestamp = z.iso.datetime({
  offset: true,
  error: 'must be an ISO-8601 timestamp with a time zone (e.g. 2026-01-31T09:00:00Z)',
});
const ZOptionalTimestamp = ZTimestamp.nullable().default(null);
const ZSlug = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~-]*$/, 'must be a URL-friendly slug (letters, digits, ".", "_", "~", "-")');
const ZName = z.string().trim().min(1).max(255);
const ZLanguage = z.string().regex(/^[A-Za-z]{2}$/, 'must be a 2-letter language code');
const ZCountryCode = z.string().regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code');
const ZHostname = z
  .string()
  .max(253)
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
    'must be a host name',
  );
const ZEmail = z
  .string()
  .max(255)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address');
const ZHttpUrl = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL');
const ZImageUrl = ZHttpUrl.nullable().default(null);
const ZHtml = z.string().nullable().default(null);
const ZCount = z.number().int().min(0).max(MAX_INT).default(0);

/** Names per language: `{"en":"Full-time","nl":"Voltijd"}`. */
const ZTranslations = z
  .record(ZLanguage, z.string().trim().min(1).max(255))
  .refine((map) => Object.keys(map).length > 0, 'needs a name in at least one language');

const ZTaxonomy = z.object({ id: ZId, name: ZTranslations });

/** A job type may name its kind of employment (schema.org `employmentType`, for the vacancy's structured data). */
const ZJobType = ZTaxonomy.extend({ employment_type: z.enum(EMPLOYMENT_TYPES).nullable().default(null) });
/** Labels of application questions and their options: like names, up to 1000 characters. */
const ZLabels = z
  .record(ZLanguage, z.string().trim().min(1).max(1000))
  .refine((map) => Object.keys(map).length > 0, 'needs a label in at least one language');

const SELECT_TYPES = new Set(['single_select', 'multi_select']);

/** One question of a vacancy's application form (CONTRACT "Applying like the best job boards"). */
const ZQuestion = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'must start with a-z and hold only a-z, 0-9 and "_" (at most 64)'),
    label: ZLabels,
    type: z.enum(QUESTION_TYPES),
    required: z.boolean().default(false),
    options: z
      .array(z.object({ value: z.string().trim().min(1).max(255), label: ZLabels }))
      .min(1)
      .max(200)
      .optional(),
    max_length: z.number().int().min(1).max(10_000).optional(),
  })
  .superRefine((question, ctx) => {
    const isSelect = SELECT_TYPES.has(question.type);
    if (isSelect && !question.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: `is required for a ${question.type} question` });
    if (!isSelect && question.options)
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `is only allowed on single_select and multi_select questions`,
      });
    const values = new Set<string>();
    question.options?.forEach((option, index) => {
      if (values.has(option.value))
        ctx.addIssue({ code: 'custom', path: ['options', index, 'value'], message: `repeats "${option.value}"` });
      values.add(option.value);
    });
    if (question.max_length !== undefined && question.type !== 'text' && question.type !== 'textarea') {
      ctx.addIssue({ code: 'custom', path: ['max_length'], message: 'is only allowed on text and textarea questions' });
    }
  });

const ZQuestions = z
  .array(ZQuestion)
  .max(100)
  .default([])
  .superRefine((questions, ctx) => {
    const keys = new Set<string>();
    questions.forEach((question, index) => {
      if (keys.has(question.key))
        ctx.addIssue({
          code: 'custom',
          path: [index, 'key'],
          message: `repeats "${question.key}" (keys are unique per vacancy)`,
        });
      keys.add(question.key);
    });
  });

const ZApiKey = z
  .object({
    id: ZId,
    name: ZName,
    key: ZApiKeyPlaintext,
    scopes: z.array(
      z.string().refine(isKnownScope, { error: (issue) => `unknown scope ${JSON.stringify(issue.input)}` }),
    ),
    revoked: z.boolean().default(false),
    created_at: ZTimestamp.optional(),
    /** A publishable key (a career site in the browser) lists its allowed origins; the same rules as `keys create`. */
    kind: z.enum(['secret', 'publishable']).default('secret'),
    origins: z
      .array(
        z.string().transform((value, ctx) => {
          const origin = normalizeOrigin(value);
          if (origin === null)
            ctx.addIssue({
              code: 'custom',
              message: 'must be an origin such as https://careers.example.com (scheme, host, optional port; no path)',
            });
          return origin ?? value;
        }),
      )
      .min(1)
      .max(MAX_ORIGINS)
      .transform((origins) => [...new Set(origins)])
      .optional(),
  })
  .superRefine((key, ctx) => {
    if (key.kind === 'publishable') {
      if (!key.origins)
        ctx.addIssue({
          code: 'custom',
          path: ['origins'],
          message: 'a publishable key needs at least one allowed origin',
        });
      key.scopes.forEach((scope, i) => {
        if (!isPublishableScope(scope))
          ctx.addIssue({
            code: 'custom',
            path: ['scopes', i],
            message: `a publishable key may only have the scopes ${PUBLISHABLE_SCOPES.join(', ')}`,
          });
      });
    } else if (key.origins) {
      ctx.addIssue({ code: 'custom', path: ['origins'], message: 'only a publishable key has allowed origins' });
    }
  });

const ZUser = z.object({
  id: ZId,
  name: ZName,
  email: ZEmail,
  role: z.string().trim().min(1).max(50),
  /** Plaintext; stored only as an argon2id hash. Null: the user cannot sign in. */
  password: z.string().min(1).max(1024).nullable().default(null),
  created_at: ZTimestamp.optional(),
});

const ZLocation = z.object({
  id: ZId,
  slug: ZSlug,
  name: ZName,
  address_line_1: z.string().max(255).nullable().default(null),
  address_line_2: z.string().max(255).nullable().default(null),
  address_line_3: z.string().max(255).nullable().default(null),
  locality: z.string().max(255).nullable().default(null),
  administrative_area: z.string().max(255).nullable().default(null),
  postal_code: z.string().max(50).nullable().default(null),
  country_code: ZCountryCode.nullable().default(null),
  latitude: z.number().min(-90).max(90).nullable().default(null),
  longitude: z.number().min(-180).max(180).nullable().default(null),
  created_at: ZTimestamp.optional(),
});

const ZCompany = z.object({
  id: ZId,
  name: ZName,
  locations: z
    .array(
      z.object({
        id: ZId,
        name: ZName,
        city: z.string().max(255).nullable().default(null),
        country_code: ZCountryCode.nullable().default(null),
      }),
    )
    .default([]),
});

const ZDepartment = z.object({
  id: ZId,
  /** A plain string is a name in the tenant's default language. */
  name: z.union([ZName, ZTranslations], { error: 'must be a name or a map of names per language' }),
});

const ZTag = z.object({ id: ZId, name: ZTranslations, parent_id: ZRef });

const ZImageSet = z.object({ default: ZImageUrl, small: ZImageUrl, large: ZImageUrl }).nullable().default(null);

const ZVacancy = z.object({
  id: ZId,
  slug: ZSlug,
  title: ZName,
  summary: ZHtml,
  description: ZHtml,
  requirements: ZHtml,
  offer: ZHtml,
  language: ZLanguage,
  status: z.enum(VACANCY_STATUSES),
  channels: z.array(
    z
      .string()
      .regex(/^[a-z][a-z0-9_-]*$/, 'must be a channel name such as "api" or "website"')
      .max(50),
  ),
  accepts_applications: z.boolean().default(true),
  published_at: ZOptionalTimestamp,
  created_at: ZTimestamp.optional(),
  ends_at: ZOptionalTimestamp,
  views_count: ZCount,
  location_id: ZRef,
  department_id: ZRef,
  company_location_id: ZRef,
  job_type_ids: ZIdList,
  experience_level_ids: ZIdList,
  education_level_ids: ZIdList,
  tag_ids: ZIdList,
  compensation: z
    .object({
      min: z.number().min(0).nullable().default(null),
      max: z.number().min(0).nullable().default(null),
      currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a 3-letter currency code'),
      period: z.enum(['hour', 'day', 'week', 'month', 'year']),
    })
    .nullable()
    .default(null),
  header_image: ZImageSet,
  canonical_url: ZHttpUrl.nullable().default(null),
  questions: ZQuestions,
  workplace_type: z.enum(WORKPLACE_TYPES).default('on_site'),
  remote_countries: z.array(ZCountryCode).max(250).default([]),
});

const ZTeamMember = z.object({
  id: ZId,
  given_name: ZName,
  family_name: ZName,
  email: ZEmail,
  job_title: z.string().max(255).nullable().default(null),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be a phone number in E.164 form (e.g. +31201234567)')
    .nullable()
    .default(null),
  role: z
    .object({
      name: z.string().trim().min(1).max(100),
      label: ZTranslations,
    })
    .nullable()
    .default(null),
  avatar: z.object({ small: ZImageUrl, medium: ZImageUrl, large: ZImageUrl }).nullable().default(null),
  employed: z.boolean().default(true),
});

const ZArticleContent = z.object({
  title: z.string().trim().min(1).max(500),
  excerpt: z.string().nullable().default(null),
  body_html: z.string(),
  seo: z
    .object({
      title: z.string().max(500).nullable().default(null),
      description: z.string().nullable().default(null),
    })
    .nullable()
    .default(null),
});

const ZArticle = z.object({
  id: ZId,
  slug: ZSlug,
  type: z.enum(ARTICLE_TYPES),
  status: z.enum(ARTICLE_STATUSES),
  is_featured: z.boolean().default(false),
  views_count: ZCount,
  published_at: ZOptionalTimestamp,
  expires_at: ZOptionalTimestamp,
  created_at: ZTimestamp.optional(),
  tag_ids: ZIdList,
  featured_image: ZImageSet,
  translations: z
    .record(ZLanguage, ZArticleContent)
    .refine((map) => Object.keys(map).length > 0, 'needs content in at least one language'),
});

const ZCandidate = z.object({
  id: ZId,
  slug: ZSlug,
  user_id: ZRef,
  first_name: ZName,
  last_name: ZName,
  email: ZEmail.nullable().default(null),
  phone: z.string().max(64).nullable().default(null),
  linkedin_url: ZHttpUrl.nullable().default(null),
  status: z.enum(CANDIDATE_STATUSES),
  created_at: ZTimestamp.optional(),
  updated_at: ZTimestamp.optional(),
});

/**
 * Search synonyms: groups of words (or phrases) that match each other in `q` as if typed, e.g.
 * `[["developer", "engineer", "programmer"], ["js", "javascript"]]`. Left out: the stored groups stay.
 */
const ZSearchSynonyms = z
  .array(z.array(z.string().trim().min(1).max(100)).min(2, 'a synonym group needs at least two words').max(50))
  .max(1000);

const ZTenant = z.object({
  /** Optional: tenants are matched by slug; an id, when given, must agree with the database. */
  id: ZId.optional(),
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and "-"'),
  name: ZName,
  default_language: ZLanguage.default('en'),
  api_enabled: z.boolean().default(true),
  duplicate_applications: z.enum(DUPLICATE_APPLICATION_POLICIES).default('allow'),
  career_site: z
    .object({
      domain: ZHostname.nullable().default(null),
      url_pattern: ZHttpUrl.nullable().default(null),
    })
    .nullable()
    .default(null),
  domains: z.array(ZHostname).default([]),
  /** CONTRACT "Privacy by design": consent, policy version, retention. */
  privacy: ZPrivacySettings.nullish().transform((value) => value ?? ZPrivacySettings.parse({})),
  api_keys: z.array(ZApiKey).default([]),
  users: z.array(ZUser).default([]),
  locations: z.array(ZLocation).default([]),
  companies: z.array(ZCompany).default([]),
  departments: z.array(ZDepartment).default([]),
  job_types: z.array(ZJobType).default([]),
  experience_levels: z.array(ZTaxonomy).default([]),
  education_levels: z.array(ZTaxonomy).default([]),
  tags: z.array(ZTag).default([]),
  vacancies: z.array(ZVacancy).default([]),
  team_members: z.array(ZTeamMember).default([]),
  articles: z.array(ZArticle).default([]),
  candidates: z.array(ZCandidate).default([]),
  created_at: ZTimestamp.optional(),
  search_synonyms: ZSearchSynonyms.optional(),
  /** Where a remote vacancy's applicants may be when it names no `remote_countries`. Left out: the stored one stays. */
  default_country: ZCountryCode.optional(),
});

export const ZDocumentShape = z.object({ tenants: z.array(ZTenant) });

/** A tenant document as written (JSON): optional fields may be left out, department names may be strings. */
export type TTenantDocument = z.input<typeof ZDocumentShape>;
export type TTenantDocumentTenant = z.input<typeof ZTenant>;

/** A document as the structure gives it, before references are checked and values normalised. */
export type TParsedShape = z.output<typeof ZDocumentShape>;
type TParsedTenantShape = TParsedShape['tenants'][number];
export type TTranslations = Record<string, string>;

/** A validated tenant document with every default filled in and every name a translation map. */
export type TParsedTenant = Omit<TParsedTenantShape, 'departments'> & {
  departments: { id: number; name: TTranslations }[];
  career_site: { domain: string | null; url_pattern: string | null };
};
export type TParsedTenantDocument = { tenants: TParsedTenant[] };
export type TParsedVacancy = TParsedTenant['vacancies'][number];
export type TParsedArticle = TParsedTenant['articles'][number];
