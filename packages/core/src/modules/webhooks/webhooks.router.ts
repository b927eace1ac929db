import { router } from '../../trpc/init.ts';
import { createEndpointProcedure } from './procedures/create-endpoint.ts';
import { deleteEndpointProcedure } from './procedures/delete-endpoint.ts';
import { enableEndpointProcedure } from './procedures/enable-endpoint.ts';
import { listDeliveriesProcedure } from './procedures/list-deliveries.ts';
import { listEndpointsProcedure } from './procedures/list-endpoints.ts';
import { replayDeliveryProcedure } from './procedures/replay-delivery.ts';
import { rotateSecretProcedure } from './procedures/rotate-secret.ts';
import { sendTestProcedure } from './procedures/send-test.ts';

/** The dashboard's webhook management (tRPC only; the CLI calls the same service functions). */
export const webhooksRouter = router({
  list: listEndpointsProcedure,
  create: createEndpointProcedure,
  delete: deleteEndpointProcedure,
  enable: enableEndpointProcedure,
  rotate: rotateSecretProcedure,
  test: sendTestProcedure,
  deliveries: listDeliveriesProcedure,
  replay: replayDeliveryProcedure,
});
