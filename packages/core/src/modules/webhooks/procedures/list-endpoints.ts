import { adminProcedure } from '../../../trpc/admin-procedure.ts';
import { listWebhookEndpoints, WEBHOOK_EVENT_TYPES } from '../webhook.service.ts';
import { ZListEndpointsInput, ZListEndpointsOutput } from './list-endpoints.schema.ts';

/** The session tenant's endpoints (never their secrets), with the event types one can subscribe to. */
export const listEndpointsProcedure = adminProcedure
  .input(ZListEndpointsInput)
  .output(ZListEndpointsOutput)
  .query(async ({ ctx }) => ({ data: await listWebhookEndpoints(ctx), event_types: [...WEBHOOK_EVENT_TYPES] }));
