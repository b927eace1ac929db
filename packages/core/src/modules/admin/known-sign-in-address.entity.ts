import { defineEntity, p } from '@mikro-orm/core';

/**
 * An address (its group: IPv4, or IPv6 /64) an account signed in from successfully, stored hashed: a right password
 * from it is never refused for other addresses' failures on the account (sign-in-throttle.ts).
 */
export const KnownSignInAddressSchema = defineEntity({
  name: 'KnownSignInAddress',
  tableName: 'known_sign_in_addresses',
  properties: {
    /** SHA-256 of the account's email, lower-cased. */
    accountHash: p.string().length(64).primary(),
    /** SHA-256 of the client address group. */
    addressHash: p.string().length(64).primary(),
    lastSignedInAt: p.datetime().defaultRaw('now()'),
  },
});
export class KnownSignInAddress extends KnownSignInAddressSchema.class {}
KnownSignInAddressSchema.setClass(KnownSignInAddress);
