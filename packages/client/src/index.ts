export {
  createCareersClient,
  toBase64,
  type TCareersClient,
  type TCareersClientOptions,
  type TData,
  type TErrorOf,
} from './client.ts';
export { CareersApiError, isCareersApiError, type TErrorBody, type TErrorCode } from './errors.ts';
export type { components, operations, paths } from './generated/api.d.ts';
