import { defineEntity, p } from '@mikro-orm/core';
import { Tenant } from '../tenants/tenant.entity.ts';

/**
 * What `q` searches of a vacancy: lexemes without positions (folded words, `~<language>~<stem>`, and the title's again
 * behind `^`), written by `careers_refresh_vacancy_search` (migration Migration20261127232000) from the vacancy, its
 * taxonomies and its location; `source_hash` tells whether that text changed since.
 */
export const VacancySearchDocumentSchema = defineEntity({
  name: 'VacancySearchDocument',
  tableName: 'vacancy_search_documents',
  properties: {
    vacancyId: p.integer().primary().autoincrement(false),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade'),
    sourceHash: p.text(),
    document: p.text().columnType('tsvector'),
  },
});
export class VacancySearchDocument extends VacancySearchDocumentSchema.class {}
VacancySearchDocumentSchema.setClass(VacancySearchDocument);

/** The typo lexicon: every folded word of a tenant's vacancies (and synonyms), found by trigram similarity. */
export const SearchWordSchema = defineEntity({
  name: 'SearchWord',
  tableName: 'search_words',
  properties: {
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').primary(),
    word: p.text().primary(),
  },
});
export class SearchWord extends SearchWordSchema.class {}
SearchWordSchema.setClass(SearchWord);

/** A tenant's synonym groups (tenant document `search_synonyms`): each word of a group matches the others as if typed. */
export const SearchSynonymsSchema = defineEntity({
  name: 'SearchSynonyms',
  tableName: 'search_synonyms',
  properties: {
    id: p.integer().primary(),
    tenant: () => p.manyToOne(Tenant).deleteRule('cascade').unique(),
    groups: p.json<string[][]>().defaultRaw(`'[]'`),
  },
});
export class SearchSynonyms extends SearchSynonymsSchema.class {}
SearchSynonymsSchema.setClass(SearchSynonyms);
