import { sanitizeTenantHtml } from '../../lib/tenant-html.ts';
import type { TVacancyDetail } from './vacancy.dto.ts';
import type { TPostalAddressRow } from '../locations/locations.repository.ts';
import type { TJobPostingFacts } from './vacancy.repository.ts';
import type { TJobPosting, TJobPostingAddress } from './vacancy-job-posting.ts';

// A vacancy mapped to its JobPosting; the shape, and Google's rules it follows, are in vacancy-job-posting.ts.

/** The tenant as the hiring organization. */
export type TJobPostingOrganization = { name: string; careerSiteDomain: string | null };

const SALARY_UNITS: Record<string, 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'> = {
  hour: 'HOUR',
  day: 'DAY',
  week: 'WEEK',
  month: 'MONTH',
  year: 'YEAR',
};

/** The text if it holds more than white space. */
function present(text: string | null | undefined): string | undefined {
  return text !== null && text !== undefined && text.trim() !== '' ? text : undefined;
}

/** Leaves out the keys whose value is undefined (JSON-LD has no nulls and no empty properties here). */
function defined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

function postalAddress(address: TPostalAddressRow, defaultCountry: string | null): TJobPostingAddress | undefined {
  const country = present(address.country_code) ?? present(defaultCountry);
  if (!country) return undefined;
  const fields = defined({
    streetAddress: present(
      [address.address_line_1, address.address_line_2, address.address_line_3]
        .filter((line) => present(line))
        .join(', '),
    ),
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
export function toJobPosting(
  vacancy: Omit<TVacancyDetail, 'structured_data'>,
  facts: TJobPostingFacts,
  organization: TJobPostingOrganization,
): TJobPosting {
  // Sanitized again here: rows stored before import sanitized them must not carry markup into a page's JSON-LD either.
  const content = [vacancy.summary, vacancy.description, vacancy.requirements, vacancy.offer].flatMap((part) => {
    const text = present(part);
    return text === undefined ? [] : [sanitizeTenantHtml(text)];
  });
  const careerSite = organization.careerSiteDomain ? `https://${organization.careerSiteDomain}` : undefined;
  const remote = vacancy.workplace_type === 'remote';
  const address = facts.address && !remote ? postalAddress(facts.address, facts.defaultCountry) : undefined;
  const countries =
    vacancy.remote_countries.length > 0 ? vacancy.remote_countries : facts.defaultCountry ? [facts.defaultCountry] : [];
  return defined({
    '@context': 'https://schema.org',
    '@type': 'JobPosting',
    title: vacancy.title,
    description: content.length > 0 ? content.join('\n') : undefined,
    datePosted: vacancy.published_at,
    validThrough: vacancy.ends_at ?? undefined,
    employmentType: facts.employmentTypes.length > 0 ? facts.employmentTypes : undefined,
    hiringOrganization: defined({
      '@type': 'Organization',
      name: organization.name,
      sameAs: careerSite,
      url: careerSite,
    }),
    jobLocation: address ? { '@type': 'Place', address } : undefined,
    jobLocationType: remote ? 'TELECOMMUTE' : undefined,
    applicantLocationRequirements:
      remote && countries.length > 0 ? countries.map((name) => ({ '@type': 'Country' as const, name })) : undefined,
    baseSalary: baseSalary(vacancy.compensation),
    identifier: { '@type': 'PropertyValue', name: organization.name, value: String(vacancy.id) },
    directApply: vacancy.accepts_applications,
    url: vacancy.url ?? undefined,
  });
}
