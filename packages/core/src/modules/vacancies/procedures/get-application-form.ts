import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { getApplicationForm } from '../application-form.service.ts';
import { ZApplicationForm, ZGetApplicationFormInput, getApplicationFormMeta } from './get-application-form.schema.ts';

export const getApplicationFormProcedure = apiKeyProcedure()
  .meta(getApplicationFormMeta)
  .input(ZGetApplicationFormInput)
  .output(ZApplicationForm)
  .query(({ ctx, input }) => getApplicationForm(ctx.db, ctx.tenant, input.slug, input.language));
