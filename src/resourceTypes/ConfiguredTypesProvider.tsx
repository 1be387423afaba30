// Hands the configured types (./configuredTypesStore) to the console: the resources App.tsx registers,
// the sidebar's menu, and a refresh for the type editor. Refreshes when a path that may be a configured
// type's is opened (a type created elsewhere is served without a reload) and every 30 s while the page is
// visible; an old `/custom/<name>` address is sent to the type's route under its menu parent.
// Outside the provider (tests, public pages) the hooks answer the code-declared resources only.
import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { ConfiguredTypesStore, RuntimeSnapshot } from './configuredTypesStore';
import { mayBeConfiguredRoute, movedConfiguredRoute, runtimeResources } from './runtime';

export const POLL_INTERVAL_MS = 30_000;

interface ConfiguredTypesScope {
  snapshot: RuntimeSnapshot;
  refresh: () => Promise<void>;
}

const STATIC_SCOPE: ConfiguredTypesScope = { snapshot: { ...runtimeResources([]), loaded: true }, refresh: async () => undefined };

const ConfiguredTypesContext = createContext<ConfiguredTypesScope>(STATIC_SCOPE);

/** The current declarations and menu (code-declared plus configured). */
export const useRuntimeResources = (): RuntimeSnapshot => useContext(ConfiguredTypesContext).snapshot;

/** Refetches the configured types now (after the type editor saved, deleted or imported). */
export const useRefreshConfiguredTypes = () => useContext(ConfiguredTypesContext).refresh;

const useRefreshTriggers = (store: ConfiguredTypesStore) => {
  const { pathname } = useLocation();
  const onCustomRoute = mayBeConfiguredRoute(pathname);
  useEffect(() => {
    if (onCustomRoute) void store.refresh();
  }, [store, onCustomRoute, pathname]);
  useEffect(() => {
    void store.refresh();
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void store.refresh();
    }, POLL_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void store.refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [store]);
};

export const ConfiguredTypesProvider = ({ store, children }: { store: ConfiguredTypesStore; children: ReactNode }) => {
  const snapshot = useSyncExternalStore(store.subscribe, store.snapshot);
  useRefreshTriggers(store);
  const { pathname } = useLocation();
  const scope = useMemo(() => ({ snapshot, refresh: store.refresh }), [snapshot, store]);
  // A configured type's route opened before the first answer would fall to the catch-all (404): wait
  // for it there only, other screens do not pay the round trip.
  if (!snapshot.loaded && mayBeConfiguredRoute(pathname)) return <div aria-busy="true" style={{ minHeight: '100vh' }} />;
  // an old `/custom/<name>` address (a bookmark) goes where the type's screens are now
  const moved = snapshot.loaded ? movedConfiguredRoute(pathname, snapshot.types) : undefined;
  if (moved) return <Navigate to={moved} replace />;
  return <ConfiguredTypesContext.Provider value={scope}>{children}</ConfiguredTypesContext.Provider>;
};
