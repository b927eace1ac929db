import { createContext, type TContext } from './context.ts';
import type { TCoreServices } from '../services.ts';
import { resolveAdminSession } from '../modules/admin/admin-session.service.ts';
import { isSecureRequest, sessionTokenFromCookies } from '../modules/admin/admin-session.cookie.ts';

type TClientAddress = { clientIp?: string };

/**
 * The context of one dashboard request: the session its cookie stands for (if any) and the client's
 * address (sign-in is throttled per account and per address).
 */
export async function createAdminContext(
  services: TCoreServices,
  input: { url: URL; cookie?: string; clientIp: string; requestId?: string },
): Promise<TContext & TClientAddress> {
  const ctx = createContext(services, { url: input.url, requestId: input.requestId });
  const session = await resolveAdminSession(ctx, {
    token: sessionTokenFromCookies(input.cookie, isSecureRequest(input.url)),
  });
  return { ...ctx, session, clientIp: input.clientIp };
}

/** The client's address as the transport saw it; contexts made elsewhere (CLI, tests) share one bucket. */
export function clientIpOf(ctx: TContext): string {
  const ip = (ctx as TContext & TClientAddress).clientIp;
  return typeof ip === 'string' && ip.length > 0 ? ip : 'unknown';
}
