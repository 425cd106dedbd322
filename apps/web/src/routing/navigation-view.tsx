import {
  Component,
  createContext,
  forwardRef,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Router, useParams as useWouterParams, type BaseLocationHook } from 'wouter';
import { createPath, parsePath, type Location } from './history.ts';
import type { Navigation, NavigationState } from './navigation.ts';
import { namedParams, parsePattern, type RouteParams } from './route-match.ts';

// The app's router: wouter's <Router>, <Switch>, <Route>, useParams and useSearchParams on the location the
// navigation controller committed (decision 267); links and useNavigate navigate through the controller, so the
// guard runs before every navigation. App code imports all of it from here (a lint rule refuses wouter elsewhere).
export { Route, Switch, useSearchParams } from 'wouter';

const NavigationContext = createContext<Navigation | null>(null);
const LocationContext = createContext<Location | null>(null);
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

/** The location shown: its path, query, fragment, the state it was reached with and its entry's key. */
export function useLocation(): Location {
  const location = useContext(LocationContext);
  if (!location) throw new Error('outside <AppRouter>');
  return location;
}

/** The named parameters of the innermost `<Route>`'s pattern. */
export function useParams(): RouteParams {
  const params = useWouterParams();
  return useMemo(() => namedParams(params), [params]);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path from the root ("/inbox?archived=1"). */
  to: string;
  replace?: boolean;
  state?: unknown;
};

/**
 * A link within the app, as React Router's: a plain click (no modifier key, the main button, no other target)
 * navigates through the controller, after the element's own onClick; a link to the location shown replaces it.
 */
export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, onClick, target, ...rest },
  ref,
) {
  const navigate = useNavigate();
  const location = useLocation();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    const same = createPath(location) === createPath({ pathname: location.pathname, ...parsePath(to) });
    void navigate(to, { replace: replace ?? same, state });
  };
  return <a {...rest} ref={ref} href={to} target={target} onClick={handleClick} />;
});

/** Navigates once rendered (React Router's `<Navigate>`). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }): null {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(to, { replace });
  }, [navigate, to, replace]);
  return null;
}

/**
 * Renders `children` (the app's `<Switch>` of routes) on the location `navigation` committed, through wouter's
 * `<Router>`, whose location hook reads it and navigates through the controller; `loading` until the first
 * navigation settled and `rootError` for a navigation the guard failed or an error no page boundary caught.
 */
export function AppRouter({
  navigation,
  children,
  loading = null,
  rootError,
}: {
  navigation: Navigation;
  children: ReactNode;
  loading?: ReactNode;
  rootError: ComponentType;
}) {
  const state = useNavigationState(navigation);
  if (!state.initialized) return loading;
  return (
    <NavigationContext.Provider value={navigation}>
      <LocationContext.Provider value={state.location}>
        <Router hook={useRouterLocation} searchHook={useRouterSearch} parser={parsePattern}>
          <RouteBoundary
            fallback={rootError}
            resetKey={state.location.key}
            error={state.error?.at === 'root' ? state.error.error : undefined}
          >
            {children}
          </RouteBoundary>
        </Router>
      </LocationContext.Provider>
    </NavigationContext.Provider>
  );
}

/**
 * wouter decodes the path and the query it is given (decodeURI) before matching and parsing them; React Router
 * matched the path decoded once (route-match.ts) and parsed the query as it is. A "%" given as "%25" comes back as
 * it was, so the path is decoded once, by the pattern, and `?q=50%2520` stays "50%20" as before.
 */
const undecoded = (part: string) => part.replace(/%/g, '%25');

/** wouter's location hook: the committed location (the one AppRouter renders), navigating through the controller. */
const useRouterLocation: BaseLocationHook = () => {
  const navigate = useNavigate();
  return [
    undecoded(useLocation().pathname),
    (to: string, options?: { replace?: boolean; state?: unknown }) =>
      void navigate(to, { replace: options?.replace, state: options?.state }),
  ];
};

const useRouterSearch = () => undecoded(useLocation().search);
