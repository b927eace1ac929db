/**
 * `@careers/core/contract`: facts of the interface every side shares, with no server dependency (the admin's
 * browser app and the CLI's usage text load it): scopes, what a publishable key may do, the error type.
 */
export { SCOPES, LEGACY_FULL_ACCESS, isKnownScope, type TScope } from './lib/scopes.ts';
export { PUBLISHABLE_SCOPES, isPublishableScope, normalizeOrigin } from './modules/api-keys/api-key.origins.ts';
export {
  AppError,
  isAppError,
  RETRY_AFTER_SECONDS,
  type TAppErrorCode,
  type TErrorBody,
  type TFieldErrors,
} from './lib/errors.ts';
