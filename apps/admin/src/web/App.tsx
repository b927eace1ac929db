import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, isSessionQuery, useMe, useSignOut } from './queries.ts';
import { errorMessage, errorStatus } from './trpc.ts';
import { pathOf, useRoute, type TRoute } from './router.ts';
import { SignInPage } from './pages/SignInPage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { OverviewPage } from './pages/OverviewPage.tsx';
import { WebhooksPage } from './pages/WebhooksPage.tsx';
import { PrivacyPage } from './pages/PrivacyPage.tsx';
import { AuditLogPage } from './pages/AuditLogPage.tsx';

const NAV: Array<{ route: TRoute; label: string }> = [
  { route: 'overview', label: 'Overview' },
  { route: 'keys', label: 'API keys' },
  { route: 'webhooks', label: 'Webhooks' },
  { route: 'privacy', label: 'Privacy' },
  { route: 'audit', label: 'Audit log' },
];

export function App() {
  const me = useMe();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const [route, navigate] = useRoute();

  useEffect(() => {
    document.title = `${NAV.find((item) => item.route === route)?.label ?? 'Overview'} · Careers Admin`;
  }, [route]);

  if (me.isPending) {
    return (
      <p className="empty" role="status">
        Loading…
      </p>
    );
  }
  if (me.isError) {
    if (errorStatus(me.error) === 401 || errorStatus(me.error) === 403) return <SignInPage />;
    return (
      <main className="sign-in">
        <div className="card sign-in-card">
          <p className="form-error" role="alert">
            {errorMessage(me.error)}
          </p>
          <button type="button" className="button" onClick={() => void me.refetch()}>
            Try again
          </button>
        </div>
      </main>
    );
  }

  const { user, tenant } = me.data;
  const doSignOut = () => {
    signOut.mutate(undefined, {
      onSettled: async () => {
        queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
        await queryClient.resetQueries({ queryKey: api.admin.me.queryKey() });
      },
    });
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              C
            </span>
            <span>Careers Admin</span>
            <span className="tenant" title={tenant.slug}>
              {tenant.name}
            </span>
          </div>
          <nav aria-label="Main">
            <ul className="nav">
              {NAV.map((item) => (
                <li key={item.route}>
                  <a
                    href={pathOf(item.route)}
                    className="nav-link"
                    aria-current={route === item.route ? 'page' : undefined}
                    onClick={(event) => {
                      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                      event.preventDefault();
                      navigate(item.route);
                    }}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="account">
            <span className="muted account-email" title={user.email}>
              {user.email}
            </span>
            <button type="button" className="button button-small" onClick={doSignOut} disabled={signOut.isPending}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="content" tabIndex={-1}>
        {route === 'keys' ? (
          <KeysPage apiEnabled={tenant.api_enabled} />
        ) : route === 'webhooks' ? (
          <WebhooksPage />
        ) : route === 'privacy' ? (
          <PrivacyPage />
        ) : route === 'audit' ? (
          <AuditLogPage />
        ) : (
          <OverviewPage onOpenKeys={() => navigate('keys')} />
        )}
      </main>
    </div>
  );
}
