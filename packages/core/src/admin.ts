/** `@careers/core/admin`: the server side of the admin dashboard (its procedures are in the app router). */
export { createAdminContext } from './trpc/admin-context.ts';
