import type { TCareersClient } from '@careers/client';
import { h } from './dom.ts';

/** Wait this long after the last key before asking for suggestions (one request per pause, not per key). */
const SUGGEST_DELAY_MS = 150;
const SUGGESTIONS = 6;

/**
 * The search box: a combobox whose list holds the titles GET /vacancies/suggest proposes for what has been typed
 * so far. Arrow keys move through them, Enter or a click picks one, Escape closes the list; submitting searches.
 * Answers that arrive after a newer keystroke are dropped, so the list always belongs to the text in the box.
 */
export function searchBox(careers: TCareersClient, value: string, onSearch: (q: string) => void): HTMLFormElement {
  const input = h('input', {
    type: 'search',
    name: 'q',
    id: 'search-q',
    value,
    placeholder: 'Job title, skill, place…',
    autocomplete: 'off',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': 'search-suggestions',
    maxlength: 255,
  });
  const list = h('ul', {
    id: 'search-suggestions',
    class: 'suggestions',
    role: 'listbox',
    'aria-label': 'Suggestions',
    hidden: true,
  });
  const form = h(
    'form',
    { class: 'search', role: 'search' },
    h('label', { for: 'search-q', class: 'search-label' }, 'Search vacancies'),
    h('div', { class: 'search-field' }, input, list),
    h('button', { type: 'submit' }, 'Search'),
  );

  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let active = -1;
  const options = () => [...list.querySelectorAll<HTMLLIElement>('[role="option"]')];

  function close(): void {
    list.hidden = true;
    list.replaceChildren();
    active = -1;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
  }

  function activate(index: number): void {
    const all = options();
    if (all.length === 0) return;
    active = (index + all.length) % all.length;
    for (const [i, option] of all.entries()) option.setAttribute('aria-selected', String(i === active));
    input.setAttribute('aria-activedescendant', all[active]!.id);
  }

  function pick(text: string): void {
    input.value = text;
    close();
    onSearch(text);
  }

  async function suggest(typed: string, ticket: number): Promise<void> {
    // Suggestions are a convenience: when they fail, the box still searches.
    const answer = await careers
      .get('/vacancies/suggest', { params: { query: { q: typed, limit: SUGGESTIONS } } })
      .catch(() => null);
    if (ticket !== asked) return;
    close();
    if (!answer || answer.data.length === 0) return;
    list.append(
      ...answer.data.map((suggestion, i) =>
        h(
          'li',
          {
            id: `search-suggestion-${i}`,
            role: 'option',
            'aria-selected': 'false',
            // mousedown, not click: the input keeps its focus, so the list is still there when the click lands.
            onmousedown: (event: Event) => {
              event.preventDefault();
              pick(suggestion.text);
            },
          },
          h('span', { class: 'suggestion-text' }, suggestion.text),
          h('span', { class: 'suggestion-count' }, String(suggestion.count)),
        ),
      ),
    );
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }

  input.addEventListener('input', () => {
    const ticket = ++asked;
    clearTimeout(timer);
    const typed = input.value.trim();
    if (typed.length < 2) {
      close();
      return;
    }
    timer = setTimeout(() => void suggest(typed, ticket), SUGGEST_DELAY_MS);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      activate(active + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Escape') {
      asked++;
      close();
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      pick(options()[active]!.querySelector('.suggestion-text')!.textContent ?? '');
    }
  });
  input.addEventListener('blur', () => {
    asked++;
    close();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    asked++;
    close();
    onSearch(input.value.trim());
  });
  return form;
}
