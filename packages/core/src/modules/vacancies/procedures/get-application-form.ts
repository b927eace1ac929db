import { apiKeyProcedure } from '../../../trpc/procedures.ts';
import { servedOutput } from '../../content/serialized-answer.ts';
import { getApplicationForm } from '../application-form.service.ts';
import { getApplicationFormMeta } from './get-application-form.schema.ts';
import { ZApplicationForm, ZGetApplicationFormInput } from '../application-form.schema.ts';

export const getApplicationFormProcedure = apiKeyProcedure()
  .meta(getApplicationFormMeta)
  .input(ZGetApplicationFormInput)
  .output(servedOutput(ZApplicationForm))
  .query(({ ctx, input }) => getApplicationForm(ctx, input));
