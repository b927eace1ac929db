import { router } from '../../trpc/init.ts';
import { erasePersonProcedure } from './procedures/erase-person.ts';
import { exportPersonProcedure } from './procedures/export-person.ts';
import { findPersonProcedure } from './procedures/find-person.ts';
import { listAuditLogProcedure } from './procedures/list-audit-log.ts';

/** The dashboard's Privacy and Audit log pages (tRPC only). */
export const privacyRouter = router({
  find: findPersonProcedure,
  export: exportPersonProcedure,
  erase: erasePersonProcedure,
});

export const auditRouter = router({
  list: listAuditLogProcedure,
});
