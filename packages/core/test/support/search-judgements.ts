/**
 * A judged relevance set for `q` (CONTRACT "Search that finds"): a small tenant in English, Dutch and German, and
 * queries with the vacancies they must find (`relevant`: any of them in the top 3 is a success, each one found counts
 * for recall) or must not find (`absent`). The rule each query checks is named, so a failure says which rule broke.
 * Used by apps/api/test/search-quality.test.ts and `pnpm bench search-quality`.
 */

export const JUDGED_API_KEY = 'ck_test_judged_search_read_000001';

type TJudgedVacancy = {
  id: number;
  title: string;
  language: string;
  summary: string;
  department_id?: number;
  location_id?: number;
  tag_ids?: number[];
};

const VACANCIES: TJudgedVacancy[] = [
  {
    id: 9001,
    title: 'Senior Backend Engineer',
    language: 'en',
    summary: '<p>Design APIs in Go and PostgreSQL for our payments platform.</p>',
    department_id: 9001,
    location_id: 9001,
  },
  {
    id: 9002,
    title: 'Frontend Developer',
    language: 'en',
    summary: '<p>Build interfaces with React and TypeScript.</p>',
    department_id: 9001,
    location_id: 9002,
  },
  {
    id: 9003,
    title: 'Data Scientist',
    language: 'en',
    summary: '<p>Machine learning models in Python; statistics background.</p>',
    department_id: 9002,
    location_id: 9001,
  },
  {
    id: 9004,
    title: 'Project Manager',
    language: 'en',
    summary: '<p>Lead the management of infrastructure projects.</p>',
    department_id: 9003,
    location_id: 9003,
  },
  {
    id: 9005,
    title: 'Registered Nurse',
    language: 'en',
    summary: '<p>Care for patients on the cardiology ward.</p>',
    department_id: 9004,
    location_id: 9002,
  },
  {
    id: 9006,
    title: 'Warehouse Operative',
    language: 'en',
    summary: '<p>Picking and packing orders; forklift licence a plus.</p>',
    department_id: 9005,
    location_id: 9003,
  },
  {
    id: 9007,
    title: 'Accountant',
    language: 'en',
    summary: '<p>Monthly closing, audits and financial reporting.</p>',
    department_id: 9006,
    location_id: 9001,
  },
  {
    id: 9008,
    title: 'Customer Support Agent',
    language: 'en',
    summary: '<p>Help customers by phone and chat.</p>',
    department_id: 9007,
    location_id: 9002,
  },
  {
    id: 9009,
    title: 'Java Ontwikkelaar',
    language: 'nl',
    summary: '<p>Wij zoeken een ervaren ontwikkelaar voor onze webapplicaties.</p>',
    department_id: 9001,
    location_id: 9002,
  },
  {
    id: 9010,
    title: 'Verpleegkundige',
    language: 'nl',
    summary: '<p>Zorg voor patiënten op de afdeling cardiologie.</p>',
    department_id: 9004,
    location_id: 9002,
  },
  {
    id: 9011,
    title: 'Magazijnmedewerker',
    language: 'nl',
    summary: '<p>Orders verzamelen en inpakken in ons magazijn.</p>',
    department_id: 9005,
    location_id: 9003,
  },
  {
    id: 9012,
    title: 'Boekhouder',
    language: 'nl',
    summary: '<p>Financiële administratie en rapportages.</p>',
    department_id: 9006,
    location_id: 9002,
  },
  {
    id: 9013,
    title: 'Projectleider Infrastructuur',
    language: 'nl',
    summary: '<p>Je leidt projecten in de wegenbouw.</p>',
    department_id: 9003,
    location_id: 9003,
  },
  {
    id: 9014,
    title: 'Softwareentwickler Backend',
    language: 'de',
    summary: '<p>Entwicklung von Microservices mit Kotlin.</p>',
    department_id: 9001,
    location_id: 9004,
  },
  {
    id: 9015,
    title: 'Pflegefachkraft',
    language: 'de',
    summary: '<p>Betreuung von Patienten in der Kardiologie.</p>',
    department_id: 9004,
    location_id: 9004,
  },
  {
    id: 9016,
    title: 'Lagermitarbeiter',
    language: 'de',
    summary: '<p>Kommissionierung und Verpackung im Lager.</p>',
    department_id: 9005,
    location_id: 9004,
  },
  {
    id: 9017,
    title: 'Buchhalterin',
    language: 'de',
    summary: '<p>Finanzbuchhaltung und Jahresabschlüsse.</p>',
    department_id: 9006,
    location_id: 9004,
  },
  {
    id: 9018,
    title: 'Ingénieur DevOps',
    language: 'en',
    summary: '<p>Kubernetes, Terraform and cloud infrastructure.</p>',
    department_id: 9001,
    location_id: 9001,
  },
  {
    id: 9019,
    title: 'Machine Learning Engineer',
    language: 'en',
    summary: '<p>Train and ship models to production.</p>',
    department_id: 9002,
    location_id: 9001,
  },
  {
    id: 9020,
    title: 'Sales Manager',
    language: 'en',
    summary: '<p>Grow our accounts in Benelux.</p>',
    department_id: 9008,
    location_id: 9002,
  },
];

export type TJudgement = { q: string; rule: string; relevant?: number[]; absent?: number[] };

export const JUDGEMENTS: TJudgement[] = [
  { q: 'backend engineer', rule: 'exact words', relevant: [9001] },
  { q: 'engineers', rule: 'plural (en stem)', relevant: [9001, 9019] },
  { q: 'enginer', rule: 'typo, one edit (7 letters)', relevant: [9001, 9019] },
  { q: 'managment', rule: 'typo, one edit (9 letters)', relevant: [9004] },
  { q: 'acountant', rule: 'typo, one edit', relevant: [9007] },
  { q: 'developer', rule: 'synonym group developer/engineer/ontwikkelaar', relevant: [9002, 9001, 9009] },
  { q: 'programmer', rule: 'synonym never typed in any vacancy', relevant: [9001, 9002] },
  {
    q: 'nurse',
    rule: 'synonym across languages (nurse/verpleegkundige/pflegefachkraft)',
    relevant: [9005, 9010, 9015],
  },
  { q: 'ontwikkelaars', rule: 'plural (nl stem)', relevant: [9009] },
  { q: 'ontwikelaar', rule: 'typo (nl)', relevant: [9009] },
  { q: 'verpleegkundigen', rule: 'plural (nl)', relevant: [9010] },
  { q: 'magazijn', rule: 'nl word in the summary', relevant: [9011] },
  { q: 'Lagermitarbeiterin', rule: 'feminine form (de, two edits)', relevant: [9016] },
  { q: 'buchhalter', rule: 'de stem / prefix of Buchhalterin', relevant: [9017] },
  { q: 'patienten', rule: 'accent folding (patiënten) and de Patienten', relevant: [9010, 9015] },
  { q: 'ingenieur devops', rule: 'accent folding (Ingénieur)', relevant: [9018] },
  { q: 'zurich', rule: 'accent folding in the location (Zürich)', relevant: [9014, 9015, 9016, 9017] },
  { q: 'utrecht nurse', rule: 'AND across location and title', relevant: [9005, 9010], absent: [9015] },
  { q: 'python', rule: 'word in the summary', relevant: [9003] },
  { q: 'machine lear', rule: 'prefix of the last word (search as you type)', relevant: [9019, 9003] },
  { q: 'infra', rule: 'prefix of the last word', relevant: [9004, 9013, 9018] },
  { q: 'js', rule: 'synonym js/javascript/typescript', relevant: [9002] },
  { q: 'engineering', rule: 'department name (en stem of engineer)', relevant: [9001, 9002, 9009, 9014, 9018] },
  { q: 'kardiologie', rule: 'de word; nl cardiologie is two edits away only with c→k', relevant: [9015] },
  { q: 'the and of', rule: 'stop words only: no filter', relevant: [9001] },
  { q: 'accountant nurse', rule: 'negative: AND of unrelated words', absent: [9005, 9007, 9010, 9012] },
  { q: 'astronaut', rule: 'negative: word no vacancy has', absent: VACANCIES.map((v) => v.id) },
  { q: 'data', rule: 'negative: short word is no typo of "java"', relevant: [9003], absent: [9009] },
  { q: 'warehouse supervisor', rule: 'negative: every word must match', absent: [9006, 9011, 9016] },
];

/** The judged tenant (a tenant document with its synonyms). */
export function judgedTenantDocument(): { tenants: unknown[] } {
  const published = Date.parse('2026-01-01T00:00:00Z');
  return {
    tenants: [
      {
        slug: 'judged-search',
        name: 'Judged Search',
        default_language: 'en',
        api_keys: [{ id: 9001, name: 'Judge', key: JUDGED_API_KEY, scopes: ['vacancies:read'] }],
        locations: [
          { id: 9001, slug: 'amsterdam', name: 'Amsterdam HQ', locality: 'Amsterdam', country_code: 'NL' },
          { id: 9002, slug: 'utrecht', name: 'Utrecht', locality: 'Utrecht', country_code: 'NL' },
          { id: 9003, slug: 'rotterdam', name: 'Rotterdam Port', locality: 'Rotterdam', country_code: 'NL' },
          { id: 9004, slug: 'zurich', name: 'Büro Zürich', locality: 'Zürich', country_code: 'CH' },
        ],
        departments: [
          { id: 9001, name: { en: 'Engineering', nl: 'Techniek', de: 'Technik' } },
          { id: 9002, name: { en: 'Data' } },
          { id: 9003, name: { en: 'Projects', nl: 'Projecten' } },
          { id: 9004, name: { en: 'Healthcare', nl: 'Zorg', de: 'Pflege' } },
          { id: 9005, name: { en: 'Logistics', nl: 'Logistiek', de: 'Logistik' } },
          { id: 9006, name: { en: 'Finance', nl: 'Financiën', de: 'Finanzen' } },
          { id: 9007, name: { en: 'Support' } },
          { id: 9008, name: { en: 'Sales', nl: 'Verkoop', de: 'Vertrieb' } },
        ],
        search_synonyms: [
          ['developer', 'engineer', 'programmer', 'ontwikkelaar', 'entwickler'],
          ['nurse', 'verpleegkundige', 'pflegefachkraft'],
          ['js', 'javascript', 'typescript'],
        ],
        vacancies: VACANCIES.map((v, index) => ({
          ...v,
          slug: `judged-${v.id}`,
          status: 'published',
          channels: ['api'],
          published_at: new Date(published - index * 3_600_000).toISOString(),
          created_at: new Date(published - index * 3_600_000).toISOString(),
        })),
      },
    ],
  };
}

export type TJudgementOutcome = TJudgement & {
  found: number[];
  success: boolean | null;
  recall: number | null;
  wrong: number[];
};

/** Each judgement against the ids a query found (in order): success@3, recall, and wrongly found `absent` ids. */
export function judge(judgement: TJudgement, found: number[]): TJudgementOutcome {
  const relevant = judgement.relevant ?? [];
  const top3 = found.slice(0, 3);
  const success = relevant.length > 0 ? relevant.some((id) => top3.includes(id)) : null;
  const recall = relevant.length > 0 ? relevant.filter((id) => found.includes(id)).length / relevant.length : null;
  const wrong = (judgement.absent ?? []).filter((id) => found.includes(id));
  return { ...judgement, found, success, recall, wrong };
}

/** success@3 and recall over the judgements that name relevant vacancies; negatives passed over those that name absent ones. */
export function summarizeJudgements(outcomes: TJudgementOutcome[]): {
  successAt3: number;
  recall: number;
  negativesPassed: number;
  negatives: number;
} {
  const positive = outcomes.filter((o) => o.success !== null);
  const negative = outcomes.filter((o) => (o.absent ?? []).length > 0);
  return {
    successAt3: positive.filter((o) => o.success).length / Math.max(1, positive.length),
    recall: positive.reduce((sum, o) => sum + (o.recall ?? 0), 0) / Math.max(1, positive.length),
    negativesPassed: negative.filter((o) => o.wrong.length === 0).length,
    negatives: negative.length,
  };
}
