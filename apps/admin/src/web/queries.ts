import {
  partialMatchKey,
  type QueryKey,
  QueryCache,
  QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
} from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import type { TAppRouter } from '@careers/core';
import { errorStatus, trpc } from './trpc.ts';

/** Entries per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A session that ends (expiry, sign-out elsewhere) sends the user back to sign-in.
      onError: (error, query) => {
        if (errorStatus(error) === 401 && !isSessionQuery(query))
          void client.invalidateQueries({ queryKey: api.admin.me.queryKey() });
      },
    }),
    defaultOptions: {
      queries: {
        retry: (count, error) => {
          const status = errorStatus(error);
          return status === undefined || status >= 500 ? count < 2 : false;
        },
        refetchOnWindowFocus: true,
      },
    },
  });
  return client;
}

/** The dashboard's one query cache (a single-page app: one per page load). */
export const queryClient = createQueryClient();

/**
 * Query and mutation options (keys, fetchers) of core's procedures, derived by @trpc/tanstack-react-query; invalidate
 * with `api.admin.<router>.pathKey()` or `.queryKey(input)`.
 */
export const api = createTRPCOptionsProxy<TAppRouter>({ client: trpc, queryClient });

/** The signed-in user's query (kept when the rest of the cache is dropped at sign-in and sign-out). */
export const isSessionQuery = (query: { queryKey: QueryKey }): boolean =>
  partialMatchKey(query.queryKey, api.admin.me.pathKey());

export const useMe = () => useQuery({ ...api.admin.me.queryOptions(), retry: false, staleTime: 60_000 });
export const useKeys = () => useQuery(api.admin.keys.list.queryOptions());
export const useOverview = () => useQuery({ ...api.admin.overview.queryOptions(), refetchInterval: 30_000 });
export const useWebhooks = () => useQuery(api.admin.webhooks.list.queryOptions());
/** Deliveries change as the worker sends them: refreshed every few seconds while shown. */
export const useDeliveries = (endpointId: number) =>
  useQuery({ ...api.admin.webhooks.deliveries.queryOptions({ endpoint_id: endpointId }), refetchInterval: 2_000 });

/** What is held about the person of this email; nothing is asked until an email is given. */
export function usePerson(email: string | undefined) {
  return useQuery({
    ...api.admin.privacy.find.queryOptions({ email: email ?? '' }),
    enabled: email !== undefined,
    // Personal data: not kept around once the page no longer shows it.
    gcTime: 0,
  });
}

/**
 * The tenant's audit log, newest first; each further page holds older entries (`next_before`). Its input pages by
 * `before`, not the `cursor` that `infiniteQueryOptions` needs, so it fetches its pages itself under the library's key.
 */
export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: api.admin.audit.list.pathKey(),
    queryFn: ({ pageParam }) =>
      trpc.admin.audit.list.query(
        pageParam === undefined ? { limit: AUDIT_PAGE_SIZE } : { before: pageParam, limit: AUDIT_PAGE_SIZE },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
}

export const useSignIn = () => useMutation(api.admin.signIn.mutationOptions());
export const useSignOut = () => useMutation(api.admin.signOut.mutationOptions());
export const useCreateKey = () => useMutation(api.admin.keys.create.mutationOptions());
export const useRevokeKey = () => useMutation(api.admin.keys.revoke.mutationOptions());
export const useSetApiAccess = () => useMutation(api.admin.tenant.setApiAccess.mutationOptions());
export const useCreateWebhook = () => useMutation(api.admin.webhooks.create.mutationOptions());
export const useDeleteWebhook = () => useMutation(api.admin.webhooks.delete.mutationOptions());
export const useRotateWebhookSecret = () => useMutation(api.admin.webhooks.rotate.mutationOptions());
export const useSendTestWebhook = () => useMutation(api.admin.webhooks.test.mutationOptions());
export const useReplayDelivery = () => useMutation(api.admin.webhooks.replay.mutationOptions());
export const useEnableWebhook = () => useMutation(api.admin.webhooks.enable.mutationOptions());
export const useExportPerson = () => useMutation(api.admin.privacy.export.mutationOptions());
export const useErasePerson = () => useMutation(api.admin.privacy.erase.mutationOptions());
