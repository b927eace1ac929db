import { publicProcedure } from '../../../trpc/init.ts';
import { clearedSessionCookie, isSecureRequest } from '../admin-session.cookie.ts';
import { revokeAdminSession } from '../admin-session.service.ts';
import { serviceContext } from '../../service-context.ts';
import { ZSignOutInput, ZSignOutOutput } from './sign-out.schema.ts';

/** Open to any caller (also a session whose user lost the admin role): it only ends the caller's own session. */
export const signOutProcedure = publicProcedure
  .input(ZSignOutInput)
  .output(ZSignOutOutput)
  .mutation(async ({ ctx }) => {
    if (ctx.session) await revokeAdminSession(serviceContext(ctx.em, ctx.session.tenantId), { session: ctx.session });
    ctx.response.headers['Set-Cookie'] = clearedSessionCookie(isSecureRequest(ctx.url));
    return { signed_out: true as const };
  });
