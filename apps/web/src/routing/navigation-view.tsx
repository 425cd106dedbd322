import {
  Component,
  createContext,
  useContext,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import { Router, useRoutes, type RouteObject } from 'react-router';
import type { Navigation, NavigationState } from './navigation.ts';

const NavigationContext = createContext<Navigation | null>(null);
const RouteErrorContext = createContext<unknown>(undefined);

function useNavigationController(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('outside <AppRouter>');
  return navigation;
}

function useNavigationState(navigation: Navigation): NavigationState {
  return useSyncExternalStore(navigation.subscribe, () => navigation.state);
}

/** A navigation runs (the guard or the next page loads): the shell shows its progress bar. */
export function useNavigationPending(): boolean {
  return useNavigationState(useNavigationController()).pending;
}

/** Runs the guard and the page's load again for the location shown (the first load's retry). */
export function useRevalidate(): () => Promise<void> {
  return useNavigationController().revalidate;
}

/**
 * Navigates within the app to one of its paths (`href`), or through the history by a number. The promise settles
 * once the navigation is done, the guard and the page in (or once a later one replaced it), so a form that awaits it
 * stays busy until the next page shows; React Router's own `useNavigate` returns at once outside its data router.
 */
export function useNavigate(): Navigation['navigate'] {
  return useNavigationController().navigate;
}

/** The error an error boundary's fallback shows. */
export function useRouteError(): unknown {
  return useContext(RouteErrorContext);
}

interface BoundaryProps {
  fallback: ComponentType;
  /** A new location clears an error caught while rendering (the next page may render). */
  resetKey: string;
  /** An error to show without rendering the children (a failed navigation). */
  error?: unknown;
  children: ReactNode;
}

/** An error boundary of a route: shows `fallback` for an error thrown while rendering, or the one it is given. */
export class RouteBoundary extends Component<
  BoundaryProps,
  { caught: { error: unknown } | null; resetKey: string }
> {
  override state = { caught: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { caught: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { caught: null, resetKey: props.resetKey };
  }

  override render() {
    const { caught } = this.state as { caught: { error: unknown } | null };
    const shown = caught ?? (this.props.error === undefined ? null : { error: this.props.error });
    if (!shown) return this.props.children;
    const Fallback = this.props.fallback;
    return (
      <RouteErrorContext.Provider value={shown.error}>
        <Fallback />
      </RouteErrorContext.Provider>
    );
  }
}

/** The page of a route whose load failed (its chunk or texts): thrown, so its boundary shows the error. */
export function usePageLoadError(): void {
  const navigation = useNavigationController();
  const { error } = useNavigationState(navigation);
  if (error?.at === 'page') throw error.error;
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/**
 * Renders the location `navigation` committed with React Router's declarative `<Router>` (so Link, useNavigate,
 * useSearchParams and useParams work as before), `loading` until the first navigation settled and `rootError` for
 * a navigation the guard failed or an error no page boundary caught.
 */
export function AppRouter({
  navigation,
  routes,
  loading = null,
  rootError,
}: {
  navigation: Navigation;
  routes: RouteObject[];
  loading?: ReactNode;
  rootError: ComponentType;
}) {
  const state = useNavigationState(navigation);
  if (!state.initialized) return loading;
  return (
    <NavigationContext.Provider value={navigation}>
      <Router location={state.location} navigationType={state.historyAction} navigator={navigation.navigator}>
        <RouteBoundary
          fallback={rootError}
          resetKey={state.location.key}
          error={state.error?.at === 'root' ? state.error.error : undefined}
        >
          <Routes routes={routes} />
        </RouteBoundary>
      </Router>
    </NavigationContext.Provider>
  );
}
