import { QueryCache, QueryClient, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { errorStatus, trpc } from './trpc.ts';

type TInput<T extends (input: never) => unknown> = Parameters<T>[0];

export const queryKeys = {
  me: ['admin', 'me'] as const,
  keys: ['admin', 'keys'] as const,
  overview: ['admin', 'overview'] as const,
  webhooks: ['admin', 'webhooks'] as const,
  deliveries: (endpointId: number) => ['admin', 'webhooks', 'deliveries', endpointId] as const,
  privacy: ['admin', 'privacy'] as const,
  person: (email: string) => ['admin', 'privacy', 'find', email] as const,
  audit: ['admin', 'audit'] as const,
};

/** Entries per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A session that ends (expiry, sign-out elsewhere) sends the user back to sign-in.
      onError: (error, query) => {
        if (errorStatus(error) === 401 && query.queryKey[1] !== 'me') void client.invalidateQueries({ queryKey: queryKeys.me });
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

export function useMe() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => trpc.admin.me.query(), retry: false, staleTime: 60_000 });
}

export function useKeys() {
  return useQuery({ queryKey: queryKeys.keys, queryFn: () => trpc.admin.keys.list.query() });
}

export function useOverview() {
  return useQuery({ queryKey: queryKeys.overview, queryFn: () => trpc.admin.overview.query(), refetchInterval: 30_000 });
}

export function useSignIn() {
  return useMutation({ mutationFn: (input: TInput<typeof trpc.admin.signIn.mutate>) => trpc.admin.signIn.mutate(input) });
}

export function useSignOut() {
  return useMutation({ mutationFn: () => trpc.admin.signOut.mutate() });
}

export function useCreateKey() {
  return useMutation({ mutationFn: (input: TInput<typeof trpc.admin.keys.create.mutate>) => trpc.admin.keys.create.mutate(input) });
}

export function useRevokeKey() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.keys.revoke.mutate({ id }) });
}

export function useSetApiAccess() {
  return useMutation({ mutationFn: (enabled: boolean) => trpc.admin.tenant.setApiAccess.mutate({ enabled }) });
}

export function useWebhooks() {
  return useQuery({ queryKey: queryKeys.webhooks, queryFn: () => trpc.admin.webhooks.list.query() });
}

/** Deliveries change as the worker sends them: refreshed every few seconds while shown. */
export function useDeliveries(endpointId: number) {
  return useQuery({
    queryKey: queryKeys.deliveries(endpointId),
    queryFn: () => trpc.admin.webhooks.deliveries.query({ endpoint_id: endpointId }),
    refetchInterval: 2_000,
  });
}

export function useCreateWebhook() {
  return useMutation({ mutationFn: (input: TInput<typeof trpc.admin.webhooks.create.mutate>) => trpc.admin.webhooks.create.mutate(input) });
}

export function useDeleteWebhook() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.webhooks.delete.mutate({ id }) });
}

export function useRotateWebhookSecret() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.webhooks.rotate.mutate({ id }) });
}

export function useSendTestWebhook() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.webhooks.test.mutate({ id }) });
}

export function useReplayDelivery() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.webhooks.replay.mutate({ id }) });
}

export function useEnableWebhook() {
  return useMutation({ mutationFn: (id: number) => trpc.admin.webhooks.enable.mutate({ id }) });
}

/** What is held about the person of this email; nothing is asked until an email is given. */
export function usePerson(email: string | undefined) {
  return useQuery({
    queryKey: queryKeys.person(email ?? ''),
    queryFn: () => trpc.admin.privacy.find.query({ email: email ?? '' }),
    enabled: email !== undefined,
    // Personal data: not kept around once the page no longer shows it.
    gcTime: 0,
  });
}

export function useExportPerson() {
  return useMutation({ mutationFn: (candidateId: number) => trpc.admin.privacy.export.mutate({ candidate_id: candidateId }) });
}

export function useErasePerson() {
  return useMutation({ mutationFn: (candidateId: number) => trpc.admin.privacy.erase.mutate({ candidate_id: candidateId }) });
}

/** The tenant's audit log, newest first; each further page holds older entries (`next_before`). */
export function useAuditLog() {
  return useInfiniteQuery({
    queryKey: queryKeys.audit,
    queryFn: ({ pageParam }) => trpc.admin.audit.list.query(pageParam === undefined ? { limit: AUDIT_PAGE_SIZE } : { before: pageParam, limit: AUDIT_PAGE_SIZE }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
  });
}
