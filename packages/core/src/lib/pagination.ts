import { z } from 'zod';

export type TPaginationMeta = {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
  from: number | null;
  to: number | null;
  path: string;
};

export type TPaginationLinks = { first: string; last: string; prev: string | null; next: string | null };

export type TPage<T> = { data: T[]; meta: TPaginationMeta; links: TPaginationLinks };

export const ZPaginationMeta = z.object({
  current_page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
  path: z.string(),
});

export const ZPaginationLinks = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export function zPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: ZPaginationMeta, links: ZPaginationLinks });
}

/** SQL offset of a page. */
export function pageOffset(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/**
 * Laravel's length-aware paginator envelope. Links are absolute, keep the request's query exactly and set
 * `page`, adding nothing (Laravel's `withQueryString()`): a request without `per_page` gets links without it.
 */
export function paginate<T>(items: T[], total: number, page: number, perPage: number, url: URL): TPage<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  const to = from === null ? null : from + items.length - 1;
  const link = (target: number) => {
    const next = new URL(url);
    next.searchParams.set('page', String(target));
    return next.toString();
  };
  const path = `${url.origin}${url.pathname}`;
  return {
    data: items,
    meta: { current_page: page, per_page: perPage, total, last_page: lastPage, from, to, path },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
  };
}
