import { useEffect, useState } from 'react';

export type TRoute = 'overview' | 'keys' | 'webhooks' | 'privacy' | 'audit';

const PATHS: Record<TRoute, string> = {
  overview: '/',
  keys: '/keys',
  webhooks: '/webhooks',
  privacy: '/privacy',
  audit: '/audit',
};

function routeOf(pathname: string): TRoute {
  const path = pathname.replace(/\/+$/, '');
  return (Object.keys(PATHS) as TRoute[]).find((route) => route !== 'overview' && PATHS[route] === path) ?? 'overview';
}

export function pathOf(route: TRoute): string {
  return PATHS[route];
}

/** A few pages need no router library: the path picks the page, history keeps back/forward working. */
export function useRoute(): [TRoute, (route: TRoute) => void] {
  const [route, setRoute] = useState<TRoute>(() => routeOf(window.location.pathname));
  useEffect(() => {
    const onPop = () => setRoute(routeOf(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = (next: TRoute) => {
    if (routeOf(window.location.pathname) !== next) window.history.pushState(null, '', PATHS[next]);
    setRoute(next);
  };
  return [route, navigate];
}
