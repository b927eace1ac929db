import { defineEntity, p } from '@mikro-orm/core';
import { ApiKey } from '../api-keys/api-key.entity.ts';

/** The first response to a POST carrying an Idempotency-Key, replayed for retries (24 h). */
export const IdempotencyRecordSchema = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_records',
  uniques: [{ properties: ['apiKey', 'operation', 'key'] }],
  indexes: [{ properties: ['expiresAt'] }],
  properties: {
    id: p.integer().primary(),
    apiKey: () => p.manyToOne(ApiKey).deleteRule('cascade'),
    operation: p.string().length(100),
    key: p.string().length(255),
    requestHash: p.string().length(64),
    /** null while the first request is still being processed */
    responseStatus: p.integer().nullable(),
    responseBody: p.json<unknown>().nullable(),
    responseHeaders: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    expiresAt: p.datetime(),
  },
});
export class IdempotencyRecord extends IdempotencyRecordSchema.class {}
IdempotencyRecordSchema.setClass(IdempotencyRecord);
