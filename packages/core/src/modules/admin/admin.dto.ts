import { iso } from '../../lib/dates.ts';
import type { TAdminTenant, TAdminUser } from './admin.schema.ts';
import type { TProcessingFailure } from './admin-overview.repository.ts';
import type { TProcessingFailureDto } from './procedures/get-overview.schema.ts';

export function toAdminUser(user: { id: number; name: string; email: string; role: string }): TAdminUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role };
}

export function toAdminTenant(tenant: {
  id: number;
  slug: string;
  name: string;
  default_language: string;
  api_enabled: boolean;
}): TAdminTenant {
  return {
    id: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    default_language: tenant.default_language,
    api_enabled: tenant.api_enabled,
  };
}

export function toProcessingFailure(failure: TProcessingFailure): TProcessingFailureDto {
  return {
    processing_id: failure.id,
    filename: failure.filename,
    error: failure.error,
    attempts: failure.attempts,
    created_at: iso(failure.createdAt),
    failed_at: iso(failure.updatedAt),
  };
}
