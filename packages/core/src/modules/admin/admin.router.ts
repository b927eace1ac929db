import { router } from '../../trpc/init.ts';
import { signInProcedure } from './procedures/sign-in.ts';
import { signOutProcedure } from './procedures/sign-out.ts';
import { getMeProcedure } from './procedures/get-me.ts';
import { getOverviewProcedure } from './procedures/get-overview.ts';
import { listKeysProcedure } from './procedures/list-keys.ts';
import { createKeyProcedure } from './procedures/create-key.ts';
import { revokeKeyProcedure } from './procedures/revoke-key.ts';
import { setApiAccessProcedure } from './procedures/set-api-access.ts';
import { webhooksRouter } from '../webhooks/webhooks.router.ts';
import { auditRouter, privacyRouter } from '../privacy/privacy.router.ts';

/** The dashboard's procedures: tRPC only (no openapi meta, so never served as REST). */
export const adminRouter = router({
  signIn: signInProcedure,
  signOut: signOutProcedure,
  me: getMeProcedure,
  overview: getOverviewProcedure,
  keys: router({
    list: listKeysProcedure,
    create: createKeyProcedure,
    revoke: revokeKeyProcedure,
  }),
  tenant: router({
    setApiAccess: setApiAccessProcedure,
  }),
  webhooks: webhooksRouter,
  privacy: privacyRouter,
  audit: auditRouter,
});
