import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryHistory } from './history.ts';
import { RENDER, createNavigation, type GuardOutcome } from './navigation.ts';
import {
  AppRouter,
  Link,
  Route,
  RouteBoundary,
  Switch,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
  useNavigationPending,
  useRevalidate,
  useRouteError,
} from './navigation-view.tsx';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** Awaits the app's navigate, as a form does after saving. */
function GoTwo() {
  const navigate = useNavigate();
  const [arrived, setArrived] = useState(false);
  return (
    <button type="button" onClick={() => void navigate('/two').then(() => setArrived(true))}>
      {arrived ? 'arrived' : 'go two'}
    </button>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const pending = useNavigationPending();
  return (
    <div>
      {pending && <p>loading</p>}
      <GoTwo />
      <Link to="/two">two</Link> <Link to="/flaky?fail">fail</Link> <Link to="/flaky">flaky</Link>{' '}
      <Link to="/item/7?tab=a">item</Link>
      {children}
    </div>
  );
}

function RootError() {
  const retry = useRevalidate();
  return (
    <button type="button" onClick={() => void retry()}>
      retry {String(useRouteError())}
    </button>
  );
}

function PageError() {
  return <p>page failed: {String(useRouteError())}</p>;
}

/** Fails to render while the query says so. */
function Flaky() {
  if (useLocation().search === '?fail') throw new Error('render');
  return <h1>flaky</h1>;
}

function Page({ name }: { name: string }) {
  return <h1>{`${name} ${useLocation().pathname}`}</h1>;
}

/** Its parameter and the query, and a button that sets the query (replacing the entry). */
function Item() {
  const { id } = useParams();
  const [query, setQuery] = useSearchParams();
  return (
    <>
      <h1>{`item ${id} ${query.get('tab') ?? '-'}`}</h1>
      <button
        type="button"
        onClick={() =>
          setQuery((current) => ({ ...Object.fromEntries(current), tab: 'b' }), { replace: true })
        }
      >
        tab b
      </button>
    </>
  );
}

const bounded = (element: React.ReactNode) => {
  function Bounded() {
    return (
      <RouteBoundary fallback={PageError} resetKey={useLocation().key}>
        {element}
      </RouteBoundary>
    );
  }
  return <Bounded />;
};

const routes = (
  <Shell>
    <Switch>
      <Route path="/">{bounded(<Page name="one" />)}</Route>
      <Route path="/two">{bounded(<Page name="two" />)}</Route>
      <Route path="/flaky">{bounded(<Flaky />)}</Route>
      <Route path="/item/:id">{bounded(<Item />)}</Route>
    </Switch>
  </Shell>
);

function setup() {
  const answers: ReturnType<typeof deferred<GuardOutcome>>[] = [];
  const failures: unknown[] = [];
  const guard = async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    const answer = deferred<GuardOutcome>();
    answers.push(answer);
    return answer.promise;
  };
  const history = createMemoryHistory({ initialEntries: ['/'] });
  const navigation = createNavigation({ history, guard });
  render(
    <AppRouter navigation={navigation} loading={<p>first load</p>} rootError={RootError}>
      {routes}
    </AppRouter>,
  );
  // The guard answers; the navigation commits a few promise steps later, still inside `act`.
  const answer = async () =>
    act(async () => {
      answers.shift()!.resolve(RENDER);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  return { navigation, history, answer, failures, answers };
}

describe('AppRouter', () => {
  it("leaves the browser's history unpatched (wouter's own location hooks are a stand-in, vite.config.ts)", () => {
    expect(Object.getOwnPropertySymbols(window)).not.toContain(Symbol.for('wouter_v3'));
  });

  it('shows the loader until the first navigation passed, then keeps the page while the next one runs', async () => {
    const { answer } = setup();
    expect(screen.getByText('first load')).toBeTruthy();
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('one /');

    await userEvent.click(screen.getByRole('link', { name: 'two' }));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('one /');
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('two /two');
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('shows a failed guard with a retry in place of the shell, and the page again once the retry passes', async () => {
    const { failures, answer } = setup();
    await answer();
    // The guard of the next navigation fails.
    failures.push(new Error('down'));
    expect(screen.getByRole('heading').textContent).toBe('one /');
    await userEvent.click(screen.getByRole('link', { name: 'two' }));
    expect(screen.getByRole('button').textContent).toBe('retry Error: down');
    expect(screen.queryByRole('heading')).toBeNull();
    await userEvent.click(screen.getByRole('button'));
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('two /two');
  });

  it('shows a page that fails to render in its place, in the shell, until the next navigation', async () => {
    const { answer } = setup();
    await answer();
    await userEvent.click(screen.getByRole('link', { name: 'fail' }));
    await answer();
    expect(screen.getByText('page failed: Error: render')).toBeTruthy();
    // The same route at another location renders again.
    await userEvent.click(screen.getByRole('link', { name: 'flaky' }));
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('flaky');
  });

  it('runs the guard for a link and for the query setter; a link to the location shown replaces it', async () => {
    const { history, answer, answers } = setup();
    await answer();
    await userEvent.click(screen.getByRole('link', { name: 'item' }));
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('item 7 a');
    expect(history.index).toBe(1);

    // The same location again: the entry is replaced.
    await userEvent.click(screen.getByRole('link', { name: 'item' }));
    await answer();
    expect(history.index).toBe(1);

    await userEvent.click(screen.getByRole('button', { name: 'tab b' }));
    expect(answers).toHaveLength(1);
    expect(screen.getByText('loading')).toBeTruthy();
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('item 7 b');
    expect(history.location).toMatchObject({ pathname: '/item/7', search: '?tab=b' });
    expect(history.index).toBe(1);
    // A click with a modifier key is the browser's (a new tab): no navigation.
    fireEvent.click(screen.getByRole('link', { name: 'two' }), { ctrlKey: true });
    expect(answers).toHaveLength(0);
  });

  it('hands a page its parameters decoded once and its query as React Router did', async () => {
    const navigation = createNavigation({
      history: createMemoryHistory({ initialEntries: ['/item/caf%C3%A9?tab=50%2520%C3%A4'] }),
    });
    render(
      <AppRouter navigation={navigation} rootError={RootError}>
        {routes}
      </AppRouter>,
    );
    expect(screen.getByRole('heading').textContent).toBe('item café 50%20ä');
  });

  it("settles the app's navigate once the next page shows, not when it starts", async () => {
    const { answer } = setup();
    await answer();
    await userEvent.click(screen.getByRole('button', { name: 'go two' }));
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'arrived' })).toBeNull();
    await answer();
    expect(screen.getByRole('heading').textContent).toBe('two /two');
    expect(await screen.findByRole('button', { name: 'arrived' })).toBeTruthy();
  });
});
