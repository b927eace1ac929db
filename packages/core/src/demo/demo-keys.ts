/** The demo's secrets and fixed points: its API keys and admin sign-in (printed by `pnpm start`), the dates' anchor. */

/** Plaintext of the acme API key that has every scope. */
export const DEMO_API_KEY = 'ck_demo_acme_all_scopes_4f9a2c7e1b8d';
/** An acme key that can only read vacancies (to try the 403 INSUFFICIENT_SCOPE answer). */
export const DEMO_READ_ONLY_API_KEY = 'ck_demo_acme_vacancies_read_only_7c1e';
/** An acme key that was revoked (to try the 401 answer). */
export const DEMO_REVOKED_API_KEY = 'ck_demo_acme_revoked_key_2b6d9f03aa41';
/** Plaintext of globex's key with every scope. */
export const DEMO_GLOBEX_API_KEY = 'ck_demo_globex_all_scopes_93d1e5a0c7';
export const DEMO_ADMIN = { email: 'admin@acme.example', password: 'acme-demo-admin-2026' } as const;

/** Dates of the demo are relative to this instant (in the past, so "published" content is visible). */
export const DEMO_ANCHOR = Date.UTC(2026, 8, 1, 9, 0, 0);
/** Far enough ahead to stay in the future: scheduled content and open end dates. */
export const FAR_FUTURE = '2099-12-31T00:00:00.000Z';
