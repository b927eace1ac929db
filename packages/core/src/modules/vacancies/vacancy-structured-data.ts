import { z } from 'zod';
import { sanitizeTenantHtml } from '../../lib/tenant-html.ts';
import { EMPLOYMENT_TYPES } from '../taxonomies/taxonomy.entity.ts';
import type { TVacancyDetail } from './vacancy.dto.ts';
import type { TPostalAddressRow } from '../locations/locations.repository.ts';
import type { TJobPostingFacts } from './vacancy.repository.ts';

/**
 * A vacancy as a schema.org `JobPosting` in JSON-LD, with the properties Google for Jobs requires (title,
 * description, datePosted, hiringOrganization, jobLocation) and recommends (validThrough, employmentType,
 * baseSalary, identifier, directApply). A property whose value the vacancy does not have is left out, never
 * null: a vacancy without a location has no `jobLocation`. Google's rules for remote work: a `remote` vacancy is
 * `jobLocationType: TELECOMMUTE` with `applicantLocationRequirements` (its remote countries, else the tenant's default
 * country) and no `jobLocation`; every `jobLocation` has an `addressCountry` (the location's, else the tenant's default
 * country — without either it is left out).
 */

const ZPostalAddress = z.object({
  '@type': z.literal('PostalAddress'),
  streetAddress: z.string().optional().describe("The location's address lines, comma-separated"),
  addressLocality: z.string().optional(),
  addressRegion: z.string().optional(),
  postalCode: z.string().optional(),
  addressCountry: z.string().optional().describe('ISO 3166-1 alpha-2 country code'),
});

export const ZJobPosting = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('JobPosting'),
    title: z.string(),
    description: z.string().optional().describe('HTML: the summary, description, requirements and offer that the vacancy has, in that order'),
    datePosted: z.string().describe('published_at'),
    validThrough: z.string().optional().describe('ends_at, when set'),
    employmentType: z
      .array(z.enum(EMPLOYMENT_TYPES))
      .optional()
      .describe("The distinct `employment_type`s of the vacancy's job types (absent when none has one)"),
    hiringOrganization: z
      .object({
        '@type': z.literal('Organization'),
        name: z.string().describe("The tenant's name"),
        sameAs: z.string().optional().describe("The tenant's career site (when it has a domain)"),
        url: z.string().optional().describe("The tenant's career site (when it has a domain)"),
      })
      .describe('The tenant'),
    jobLocation: z
      .object({ '@type': z.literal('Place'), address: ZPostalAddress })
      .optional()
      .describe("The vacancy's location (absent for remote vacancies, and when it has none or no country is known); addressCountry is always set"),
    jobLocationType: z.literal('TELECOMMUTE').optional().describe('(extension) Remote vacancies (workplace_type remote)'),
    applicantLocationRequirements: z
      .array(z.object({ '@type': z.literal('Country'), name: z.string().describe('ISO 3166-1 alpha-2') }))
      .optional()
      .describe("(extension) Remote vacancies: the countries applicants may work from (remote_countries, else the tenant's default country)"),
    baseSalary: z
      .object({
        '@type': z.literal('MonetaryAmount'),
        currency: z.string().describe('ISO 4217'),
        value: z.object({
          '@type': z.literal('QuantitativeValue'),
          minValue: z.number().optional(),
          maxValue: z.number().optional(),
          unitText: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']).optional(),
        }),
      })
      .optional()
      .describe('From the compensation; only with include_compensation, and only when it names an amount'),
    identifier: z
      .object({ '@type': z.literal('PropertyValue'), name: z.string().describe("The tenant's name"), value: z.string().describe('The vacancy id') })
      .describe("The vacancy's id at the tenant"),
    directApply: z.boolean().describe('accepts_applications'),
    url: z.string().optional().describe("The vacancy's `url` (absent when it has none)"),
  })
  .describe('A schema.org JobPosting (JSON-LD) for Google for Jobs; embed it in the vacancy page as `<script type="application/ld+json">`');
export type TJobPosting = z.infer<typeof ZJobPosting>;

/** The tenant as the hiring organization. */
export type TJobPostingOrganization = { name: string; careerSiteDomain: string | null };

const SALARY_UNITS: Record<string, 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'> = { hour: 'HOUR', day: 'DAY', week: 'WEEK', month: 'MONTH', year: 'YEAR' };

/** The text if it holds more than white space. */
function present(text: string | null | undefined): string | undefined {
  return text !== null && text !== undefined && text.trim() !== '' ? text : undefined;
}

/** Leaves out the keys whose value is undefined (JSON-LD has no nulls and no empty properties here). */
function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

function postalAddress(address: TPostalAddressRow, defaultCountry: string | null): z.infer<typeof ZPostalAddress> | undefined {
  const country = present(address.country_code) ?? present(defaultCountry);
  if (!country) return undefined;
  const fields = defined({
    streetAddress: present([address.address_line_1, address.address_line_2, address.address_line_3].filter((line) => present(line)).join(', ')),
    addressLocality: present(address.locality),
    addressRegion: present(address.administrative_area),
    postalCode: present(address.postal_code),
    addressCountry: country,
  });
  return { '@type': 'PostalAddress', ...fields };
}

function baseSalary(compensation: TVacancyDetail['compensation']): TJobPosting['baseSalary'] {
  const currency = present(compensation?.currency);
  if (!compensation || !currency || (compensation.min === null && compensation.max === null)) return undefined;
  const value = defined({
    '@type': 'QuantitativeValue' as const,
    minValue: compensation.min ?? undefined,
    maxValue: compensation.max ?? undefined,
    unitText: compensation.period === null ? undefined : SALARY_UNITS[compensation.period],
  });
  return { '@type': 'MonetaryAmount', currency, value };
}

/**
 * The JobPosting of a vacancy answer: built from the answer itself (so the salary is there exactly when the answer
 * shows the compensation, and `url` is the answer's live URL), the facts read with it, and the tenant.
 */
export function toJobPosting(vacancy: Omit<TVacancyDetail, 'structured_data'>, facts: TJobPostingFacts, organization: TJobPostingOrganization): TJobPosting {
  // Sanitized again here: rows stored before import sanitized them must not carry markup into a page's JSON-LD either.
  const content = [vacancy.summary, vacancy.description, vacancy.requirements, vacancy.offer].flatMap((part) => {
    const text = present(part);
    return text === undefined ? [] : [sanitizeTenantHtml(text)];
  });
  const careerSite = organization.careerSiteDomain ? `https://${organization.careerSiteDomain}` : undefined;
  const remote = vacancy.workplace_type === 'remote';
  const address = facts.address && !remote ? postalAddress(facts.address, facts.defaultCountry) : undefined;
  const countries = vacancy.remote_countries.length > 0 ? vacancy.remote_countries : facts.defaultCountry ? [facts.defaultCountry] : [];
  return defined({
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: vacancy.title,
    description: content.length > 0 ? content.join('\n') : undefined,
    datePosted: vacancy.published_at,
    validThrough: vacancy.ends_at ?? undefined,
    employmentType: facts.employmentTypes.length > 0 ? facts.employmentTypes : undefined,
    hiringOrganization: defined({ '@type': 'Organization', name: organization.name, sameAs: careerSite, url: careerSite }),
    jobLocation: address ? { '@type': 'Place', address } : undefined,
    jobLocationType: remote ? 'TELECOMMUTE' : undefined,
    applicantLocationRequirements: remote && countries.length > 0 ? countries.map((name) => ({ '@type': 'Country' as const, name })) : undefined,
    baseSalary: baseSalary(vacancy.compensation),
    identifier: { '@type': 'PropertyValue', name: organization.name, value: String(vacancy.id) },
    directApply: vacancy.accepts_applications,
    url: vacancy.url ?? undefined,
  });
}
