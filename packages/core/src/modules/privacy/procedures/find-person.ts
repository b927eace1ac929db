import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { findPersonByEmail } from '../privacy.service.ts';
import { ZFindPersonInput, ZFindPersonOutput } from './find-person.schema.ts';

/** The dashboard's Privacy page: what is held about a person, found by email. */
export const findPersonProcedure = adminProcedure
  .input(ZFindPersonInput)
  .output(ZFindPersonOutput)
  .query(async ({ ctx, input }) => ({ candidates: await findPersonByEmail(ctx, { email: input.email }) }));
