import { defineEntity, p } from '@mikro-orm/core';

/**
 * Secrets the service makes for itself and every process shares (e.g. the key that authenticates change-feed
 * cursors): made once, at first use, stored here, never shown to anyone.
 */
export const ServerSecretSchema = defineEntity({
  name: 'ServerSecret',
  tableName: 'server_secrets',
  properties: {
    name: p.string().length(64).primary(),
    /** 32 random bytes, base64. */
    secret: p.string().length(64),
    createdAt: p.datetime().defaultRaw('now()'),
  },
});
export class ServerSecret extends ServerSecretSchema.class {}
ServerSecretSchema.setClass(ServerSecret);
