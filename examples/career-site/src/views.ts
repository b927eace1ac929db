import { CareersApiError, toBase64, type TCareersClient, type TData } from '@careers/client';
import { h, render } from './dom.ts';
import { highlighted } from './highlight.ts';
import { RADII_KM, listHref, refined, toggled, vacancyHref, type TFilterKey, type TFilters } from './routes.ts';
import { searchBox } from './search-box.ts';

type TFacets = NonNullable<TData<'/vacancies', 'get'>['facets']>;
type TFacetOption = { id: number; name: string; count: number; selected: boolean };

const PER_PAGE = 10;

/**
 * The vacancy list with its search box, facet filters (counts for the current filters) and pagination. With a
 * search the results come in order of relevance with the matched words marked; near the visitor, nearest first.
 */
export async function showList(root: HTMLElement, careers: TCareersClient, filters: TFilters): Promise<void> {
  const page = await careers.get('/vacancies', {
    params: {
      query: {
        include: 'facets',
        per_page: PER_PAGE,
        page: filters.page,
        ...(filters.q ? { q: filters.q, include_highlights: true } : {}),
        ...(filters.near ? { near: filters.near, radius_km: filters.radius_km } : {}),
        ...(filters.near && !filters.q ? { sort: 'distance' as const } : {}),
        ...(filters.department_id.length ? { department_id: filters.department_id } : {}),
        ...(filters.location_id.length ? { location_id: filters.location_id } : {}),
        ...(filters.job_types.length ? { 'job_types[]': filters.job_types } : {}),
      },
    },
  });
  const facets: TFacets | undefined = page.facets;
  const group = (title: string, key: TFilterKey, options: TFacetOption[]) =>
    h(
      'fieldset',
      { class: 'facet', 'data-facet': key },
      h('legend', {}, title),
      options.map((option) =>
        h(
          'a',
          // A link per option (state in the URL); the selected ones are marked for assistive technology too.
          {
            href: listHref(toggled(filters, key, option.id)),
            class: 'facet-option',
            'aria-current': filters[key].includes(option.id) ? 'true' : undefined,
            'data-id': option.id,
          },
          h('span', { class: 'facet-name' }, option.name),
          ' ',
          h('span', { class: 'facet-count' }, String(option.count)),
        ),
      ),
    );
  const { current_page: current, last_page: last, total } = page.meta;
  render(
    root,
    h(
      'aside',
      { class: 'filters', 'aria-label': 'Filters' },
      nearFilter(filters),
      facets && [
        group('Department', 'department_id', facets.departments),
        group('Location', 'location_id', facets.locations),
        group('Job type', 'job_types', facets.job_types),
      ],
    ),
    h(
      'section',
      { class: 'results' },
      searchBox(careers, filters.q, (q) => {
        location.hash = listHref(refined(filters, { q }));
      }),
      h('p', { class: 'total' }, `${total} ${total === 1 ? 'vacancy' : 'vacancies'}`),
      page.data.length === 0 &&
        h(
          'p',
          { class: 'empty' },
          filters.q ? `No vacancies match “${filters.q}” with these filters.` : 'No vacancies match these filters.',
        ),
      h(
        'ul',
        { class: 'vacancies' },
        page.data.map((vacancy) =>
          h(
            'li',
            {},
            // Highlights are the API's escaped text with <mark>s, rendered as nodes (never as HTML).
            h(
              'a',
              { href: vacancyHref(vacancy.slug) },
              vacancy.highlights ? highlighted(vacancy.highlights.title) : vacancy.title,
            ),
            vacancy.distance_km !== undefined && h('span', { class: 'distance' }, `${vacancy.distance_km} km away`),
            vacancy.highlights
              ? vacancy.highlights.summary && h('p', { class: 'summary' }, highlighted(vacancy.highlights.summary))
              : vacancy.summary && h('p', { class: 'summary' }, plainText(vacancy.summary)),
          ),
        ),
      ),
      last > 1 &&
        h(
          'nav',
          { class: 'pagination', 'aria-label': 'Pages' },
          current > 1 && h('a', { href: listHref({ ...filters, page: current - 1 }), rel: 'prev' }, '← Previous'),
          h('span', {}, `Page ${current} of ${last}`),
          current < last && h('a', { href: listHref({ ...filters, page: current + 1 }), rel: 'next' }, 'Next →'),
        ),
    ),
  );
}

/**
 * "Near you": the browser's position (asked for only when the visitor presses the button, rounded to about 100 m)
 * becomes `near`; then the radius can be changed, or the filter dropped.
 */
function nearFilter(filters: TFilters): HTMLElement {
  const status = h('p', { class: 'near-status', role: 'status' });
  const locate = () => {
    if (!('geolocation' in navigator)) {
      status.textContent = 'Your browser cannot tell where you are.';
      return;
    }
    status.textContent = 'Finding your location…';
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        location.hash = listHref(
          refined(filters, { near: `${coords.latitude.toFixed(3)},${coords.longitude.toFixed(3)}` }),
        );
      },
      () => {
        status.textContent = 'Your location is not available.';
      },
      { timeout: 10_000, maximumAge: 600_000 },
    );
  };
  return h(
    'fieldset',
    { class: 'facet near', 'data-facet': 'near' },
    h('legend', {}, 'Near you'),
    filters.near
      ? [
          ...RADII_KM.map((km) =>
            h(
              'a',
              {
                href: listHref(refined(filters, { radius_km: km })),
                class: 'facet-option',
                'aria-current': filters.radius_km === km ? 'true' : undefined,
              },
              `Within ${km} km`,
            ),
          ),
          h('a', { href: listHref(refined(filters, { near: null })), class: 'facet-option' }, 'Anywhere'),
        ]
      : h('button', { type: 'button', class: 'locate', onclick: locate }, 'Use my location'),
    status,
  );
}

/** The text of an HTML fragment (a summary in a list needs no formatting); DOMParser runs no scripts. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

/** One vacancy and, when it takes applications, the form to apply. */
export async function showVacancy(root: HTMLElement, careers: TCareersClient, slug: string): Promise<void> {
  const { data: vacancy } = await careers.get('/vacancies/{slug}', { params: { path: { slug } } });
  const body = h('div', { class: 'vacancy-body' });
  // The API sanitises the vacancy texts (an allow-list of formatting tags) before it stores them.
  body.innerHTML = [vacancy.summary, vacancy.description, vacancy.requirements, vacancy.offer]
    .filter(Boolean)
    .join('\n');
  render(
    root,
    h(
      'article',
      { class: 'vacancy' },
      h('a', { href: '#/' }, '← All vacancies'),
      h('h1', {}, vacancy.title),
      body,
      vacancy.accepts_applications
        ? applicationForm(careers, vacancy.slug)
        : h('p', { class: 'closed' }, 'This vacancy no longer takes applications.'),
    ),
  );
}

function field(label: string, name: string, attributes: Record<string, string | boolean> = {}): HTMLElement {
  return h(
    'label',
    { class: 'field' },
    h('span', {}, label),
    h('input', { name, ...attributes }),
    h('small', { class: 'field-error', 'data-error-for': name }),
  );
}

/** The documents of an application travel as base64 in the JSON body. */
async function fileDocument(file: File): Promise<{ filename: string; content: string; mime_type: string }> {
  return {
    filename: file.name,
    content: toBase64(new Uint8Array(await file.arrayBuffer())),
    mime_type: file.type || 'application/octet-stream',
  };
}

function applicationForm(careers: TCareersClient, slug: string): HTMLFormElement {
  const status = h('p', { class: 'form-status', role: 'status' });
  const form = h(
    'form',
    { class: 'application', novalidate: true },
    h('h2', {}, 'Apply'),
    field('First name', 'given_name', { required: true, autocomplete: 'given-name' }),
    field('Last name', 'family_name', { required: true, autocomplete: 'family-name' }),
    field('Email', 'email', { type: 'email', required: true, autocomplete: 'email' }),
    field('Resume (PDF or Word)', 'resume', { type: 'file', accept: '.pdf,.doc,.docx,application/pdf' }),
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name: 'privacy', required: true }),
      ' I accept the privacy policy',
    ),
    h('button', { type: 'submit' }, 'Send application'),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit();
  });
  async function submit(): Promise<void> {
    const values = new FormData(form);
    const button = form.querySelector('button')!;
    for (const error of form.querySelectorAll('.field-error')) error.textContent = '';
    button.disabled = true;
    status.textContent = 'Sending…';
    try {
      const resume = values.get('resume');
      const answer = await careers.post('/applications', {
        body: {
          vacancy: slug,
          candidate: {
            given_name: String(values.get('given_name')),
            family_name: String(values.get('family_name')),
            email: String(values.get('email')),
          },
          documents: resume instanceof File && resume.size > 0 ? { resume: await fileDocument(resume) } : null,
          privacy_policy_accepted: values.get('privacy') === 'on',
        },
      });
      // Without validate_only the answer is the created application (the other success is a dry run's "Valid.").
      if (!('data' in answer)) throw new Error('The application was not stored.');
      const { data } = answer;
      render(
        form,
        h(
          'p',
          { class: 'applied', role: 'status' },
          `Thank you, ${data.candidate.given_name}: your application for ${data.vacancy.title} has been received.`,
        ),
      );
    } catch (error) {
      button.disabled = false;
      status.textContent = describe(error);
      if (error instanceof CareersApiError && error.fieldErrors) {
        for (const [path, messages] of Object.entries(error.fieldErrors)) {
          const name = path.replace(/^candidate\./, '').replace(/^documents\.resume.*/, 'resume');
          const slot = form.querySelector(`[data-error-for="${CSS.escape(name)}"]`);
          if (slot) slot.textContent = messages.join(' ');
        }
      }
    }
  }
  return form;
}

/** What a visitor reads when a call fails. */
export function describe(error: unknown): string {
  if (error instanceof CareersApiError) {
    if (error.status === 422) return 'Please check the highlighted fields.';
    if (error.status === 429) return `Too many attempts; try again in ${error.retryAfter ?? 60} seconds.`;
    return error.message;
  }
  return 'The careers service cannot be reached right now.';
}
