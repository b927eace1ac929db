import { useEffect, useState } from 'react';

export type TRoute = 'overview' | 'keys';

const PATHS: Record<TRoute, string> = { overview: '/', keys: '/keys' };

function routeOf(pathname: string): TRoute {
  return pathname.replace(/\/+$/, '') === '/keys' ? 'keys' : 'overview';
}

export function pathOf(route: TRoute): string {
  return PATHS[route];
}

/** The two pages need no router library: the path picks the page, history keeps back/forward working. */
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
