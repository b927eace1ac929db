import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { sendTestEvent } from '../webhook.service.ts';
import { ZSendTestInput, ZSendTestOutput } from './send-test.schema.ts';

/** Queues a `webhook.test` event for this endpoint only; the worker delivers it. */
export const sendTestProcedure = adminProcedure
  .input(ZSendTestInput)
  .output(ZSendTestOutput)
  .mutation(async ({ ctx, input }) => ({ delivery: await sendTestEvent(ctx, { id: input.id }) }));
