import { router } from '../../trpc/init.ts';
import { createCandidateProcedure } from './procedures/create-candidate.ts';
import { getCandidateProcedure } from './procedures/get-candidate.ts';
import { getProcessingProcedure } from './procedures/get-processing.ts';
import { listCandidatesProcedure } from './procedures/list-candidates.ts';
import { eraseCandidateProcedure } from './procedures/erase-candidate.ts';
import { exportCandidateProcedure } from './procedures/export-candidate.ts';

export const candidatesRouter = router({
  list: listCandidatesProcedure,
  create: createCandidateProcedure,
  get: getCandidateProcedure,
  getProcessing: getProcessingProcedure,
  erase: eraseCandidateProcedure,
  export: exportCandidateProcedure,
});
