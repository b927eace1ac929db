import { createCareersClient, type TCareersClient } from '@careers/client';
import { loadConfig } from './config.ts';
import { h, render } from './dom.ts';
import { parseRoute } from './routes.ts';
import { describe, showList, showVacancy } from './views.ts';

const root = document.querySelector<HTMLElement>('#app')!;

async function show(careers: TCareersClient): Promise<void> {
  const route = parseRoute(location.hash);
  root.setAttribute('aria-busy', 'true');
  try {
    if (route.name === 'vacancy') await showVacancy(root, careers, route.slug);
    else await showList(root, careers, route.filters);
  } catch (error) {
    render(root, h('p', { class: 'error', role: 'alert' }, describe(error)));
  } finally {
    root.removeAttribute('aria-busy');
  }
}

try {
  const config = await loadConfig();
  // A publishable key: safe in a page, it only reads public data and sends applications from allowed origins.
  const careers = createCareersClient({ baseUrl: config.apiUrl, apiKey: config.key });
  window.addEventListener('hashchange', () => void show(careers));
  await show(careers);
} catch (error) {
  render(root, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
}
