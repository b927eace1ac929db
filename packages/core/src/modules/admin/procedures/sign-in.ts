import { publicProcedure } from '../../../trpc/init.ts';
import { AppError } from '../../../lib/errors.ts';
import { signIn } from '../admin-auth.service.ts';
import { clientIpOf } from '../../../trpc/admin-context.ts';
import { isSecureRequest, sessionCookie } from '../admin-session.cookie.ts';
import { revokeAdminSession } from '../admin-session.service.ts';
import { serviceContext } from '../../service-context.ts';
import { toAdminTenant, toAdminUser } from '../admin.dto.ts';
import { ZSignInInput, ZSignInOutput } from './sign-in.schema.ts';

export const signInProcedure = publicProcedure
  .input(ZSignInInput)
  .output(ZSignInOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await signIn(ctx, { email: input.email, password: input.password, clientIp: clientIpOf(ctx) });
    if (!result.ok) {
      if (result.reason === 'throttled') {
        ctx.response.headers['Retry-After'] = String(result.retryAfter);
        throw new AppError('TOO_MANY_ATTEMPTS', {
          message: `Too many sign-in attempts. Please try again in ${result.retryAfter} ${result.retryAfter === 1 ? 'second' : 'seconds'}.`,
        });
      }
      throw AppError.validation({ email: ['These credentials do not match our records.'] });
    }
    // A new sign-in replaces the session the browser had.
    if (ctx.session) await revokeAdminSession(serviceContext(ctx.em, ctx.session.tenantId), { session: ctx.session });
    ctx.response.headers['Set-Cookie'] = sessionCookie(result.token, result.expiresAt, isSecureRequest(ctx.url));
    ctx.log.info({ tenant_id: result.tenant.id, admin_user_id: result.user.id }, 'admin signed in');
    return {
      user: toAdminUser(result.user),
      tenant: toAdminTenant(result.tenant),
      expires_at: result.expiresAt.toISOString(),
    };
  });
