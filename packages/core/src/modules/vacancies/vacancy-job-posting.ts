import { z } from 'zod';
import { EMPLOYMENT_TYPES } from '../taxonomies/taxonomy.entity.ts';

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
    description: z
      .string()
      .optional()
      .describe('HTML: the summary, description, requirements and offer that the vacancy has, in that order'),
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
      .describe(
        "The vacancy's location (absent for remote vacancies, and when it has none or no country is known); addressCountry is always set",
      ),
    jobLocationType: z
      .literal('TELECOMMUTE')
      .optional()
      .describe('(extension) Remote vacancies (workplace_type remote)'),
    applicantLocationRequirements: z
      .array(z.object({ '@type': z.literal('Country'), name: z.string().describe('ISO 3166-1 alpha-2') }))
      .optional()
      .describe(
        "(extension) Remote vacancies: the countries applicants may work from (remote_countries, else the tenant's default country)",
      ),
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
      .object({
        '@type': z.literal('PropertyValue'),
        name: z.string().describe("The tenant's name"),
        value: z.string().describe('The vacancy id'),
      })
      .describe("The vacancy's id at the tenant"),
    directApply: z.boolean().describe('accepts_applications'),
    url: z.string().optional().describe("The vacancy's `url` (absent when it has none)"),
  })
  .describe(
    'A schema.org JobPosting (JSON-LD) for Google for Jobs; embed it in the vacancy page as `<script type="application/ld+json">`',
  );
export type TJobPosting = z.infer<typeof ZJobPosting>;
/** A location as the JobPosting's PostalAddress. */
export type TJobPostingAddress = z.infer<typeof ZPostalAddress>;
