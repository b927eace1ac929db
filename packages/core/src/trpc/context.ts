import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { TCoreServices } from '../services.ts';
import type { TActiveKey } from '../modules/api-keys/api-key.verifier.ts';
import { lazyChild, type Logger } from '../lib/logger.ts';
import type { TAdminSession } from '../modules/admin/admin-session.service.ts';

export type { TAdminSession };

/** What a transport (REST facade, tRPC endpoint, worker, CLI) hands to the procedures. */
export type TContext = {
  services: TCoreServices;
  em: EntityManager;
  log: Logger;
  requestId: string;
  /** The Authorization header as received. */
  authorization?: string;
  /** The request's `Origin` header (a publishable key is only honoured from its allowed origins). */
  origin?: string;
  /** The client's address (express req.ip, honouring TRUST_PROXY): publishable keys' writes are limited per address. */
  clientIp?: string;
  /**
   * Set when the transport already verified the key and ran the active-key checks (the REST facade does both before
   * reading a body): the procedure then trusts it, so a request verifies its key once.
   */
  verifiedKey?: TActiveKey;
  /** Admin dashboard session, when signed in. */
  session?: TAdminSession;
  /** Absolute URL of the request, as the client sees it (for pagination links). */
  url: URL;
  idempotencyKey?: string;
  /** The transport writes a `SerializedAnswer` a procedure returns as is (REST); without it, procedures return objects. */
  serializedAnswers?: boolean;
  /** Headers and status the procedure wants on its response (rate-limit headers, 201/202). */
  response: { headers: Record<string, string>; status?: number };
};

export function createContext(
  services: TCoreServices,
  input: Partial<Omit<TContext, 'services' | 'em' | 'response'>> & { url: URL },
): TContext {
  const requestId = input.requestId ?? randomUUID();
  return {
    ...input,
    services,
    em: services.orm.em.fork(),
    // A transport that already has a logger bound to the request (the REST facade's) passes it in.
    log: input.log ?? lazyChild(services.log, { request_id: requestId }),
    requestId,
    response: { headers: {} },
  };
}
