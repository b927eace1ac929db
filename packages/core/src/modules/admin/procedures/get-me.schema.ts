import { z } from 'zod';
import { ZAdminTenant, ZAdminUser } from '../admin.schema.ts';

export const ZGetMeInput = z.void();
export const ZGetMeOutput = z.object({ user: ZAdminUser, tenant: ZAdminTenant });
export type TGetMeOutput = z.infer<typeof ZGetMeOutput>;
