/**
 * A tenant for the client's and the example site's tests: 23 visible vacancies over two locations, three
 * departments and two job types (enough for a second page), one that takes no applications, and an invisible draft.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { tenantWithKeys } from '../../../../apps/api/test/support/seed.ts';

export const DEPARTMENTS = [
  { id: 1, name: { en: 'Engineering' } },
  { id: 2, name: { en: 'Sales' } },
  { id: 3, name: { en: 'Finance' } },
];
export const LOCATIONS = [
  { id: 1, slug: 'utrecht', name: 'Utrecht Office', locality: 'Utrecht', country_code: 'NL' },
  { id: 2, slug: 'berlin', name: 'Berlin Hub', locality: 'Berlin', country_code: 'DE' },
];
export const JOB_TYPES = [
  { id: 1, name: { en: 'Full-time' } },
  { id: 2, name: { en: 'Part-time' } },
];

const DAY = 86_400_000;

/** Vacancy i: department (i % 3) + 1, location (i % 2) + 1, job type 1 for even i; vacancy 1 is closed. */
export function careerVacancies(now = Date.now()): Array<Record<string, unknown>> {
  const visible = Array.from({ length: 23 }, (_, index) => {
    const id = index + 1;
    return {
      id,
      slug: `job-${id}`,
      title: `${['Engineer', 'Account Manager', 'Controller'][id % 3]} ${id}`,
      summary: `Summary of vacancy ${id}.`,
      description: `<p>What you will do in vacancy ${id}.</p>`,
      language: 'en',
      status: 'published',
      channels: ['api'],
      accepts_applications: id !== 1,
      published_at: new Date(now - id * DAY).toISOString(),
      created_at: new Date(now - 60 * DAY).toISOString(),
      department_id: (id % 3) + 1,
      location_id: (id % 2) + 1,
      job_type_ids: [id % 2 === 0 ? 1 : 2],
    };
  });
  const draft = { ...visible[0]!, id: 99, slug: 'job-draft', title: 'Draft', status: 'draft', department_id: 1 };
  return [...visible, draft];
}

/** How many visible vacancies of a department (the facet count a site must show). */
export function departmentCount(departmentId: number): number {
  return careerVacancies().filter((v) => v.status === 'published' && v.department_id === departmentId).length;
}

export function careerTenant(slug: string, apiKeys: Array<Record<string, unknown>>): Record<string, unknown> {
  return tenantWithKeys(slug, [], {
    api_keys: apiKeys,
    locations: LOCATIONS,
    departments: DEPARTMENTS,
    job_types: JOB_TYPES,
    vacancies: careerVacancies(),
  });
}

/** A one-page PDF with a line of text (a resume to upload). */
export async function resumePdf(text: string): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage([595, 842]);
  page.drawText(text, { x: 50, y: 780, size: 14, font: await document.embedFont(StandardFonts.Helvetica) });
  return document.save();
}
