import { defineEntity, p } from '@mikro-orm/core';

/** A fixed rate-limit window per API key and operation, shared by every API process. */
export const RateLimitWindowSchema = defineEntity({
  name: 'RateLimitWindow',
  tableName: 'rate_limit_windows',
  properties: {
    /** `<api key id>:<operation>` */
    bucket: p.string().length(200).primary(),
    windowStart: p.datetime(),
    hits: p.integer(),
  },
});
export class RateLimitWindow extends RateLimitWindowSchema.class {}
RateLimitWindowSchema.setClass(RateLimitWindow);
