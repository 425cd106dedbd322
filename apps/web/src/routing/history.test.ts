import { describe, expect, it, vi } from 'vitest';
import { createBrowserHistory, createMemoryHistory, createPath, parsePath } from './history.ts';

describe('paths', () => {
  it('splits and joins a path, a lone "?" or "#" empty', () => {
    expect(parsePath('/a?b=1#c')).toEqual({ pathname: '/a', search: '?b=1', hash: '#c' });
    expect(parsePath('?')).toEqual({ search: '' });
    expect(createPath({ pathname: '/a', search: '?', hash: '#' })).toBe('/a');
  });
});

describe('createBrowserHistory', () => {
  it("keeps an entry's state and key as React Router's history did, and tells the listener of back and forward", () => {
    window.history.replaceState(null, '', '/start');
    const history = createBrowserHistory();
    expect(history.location).toMatchObject({ pathname: '/start', key: 'default', state: null });
    history.push('/next?x=1', { from: 'test' });
    expect(window.history.state).toMatchObject({ usr: { from: 'test' }, idx: 1 });
    expect(history.location).toMatchObject({ pathname: '/next', search: '?x=1', state: { from: 'test' } });
    expect(history.location.key).not.toBe('default');
    history.replace({ pathname: '/other', search: '', hash: '' });
    expect(window.location.pathname).toBe('/other');
    expect(window.history.state).toMatchObject({ usr: null, idx: 1 });
    const listener = vi.fn();
    const unlisten = history.listen(listener);
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(listener).toHaveBeenCalledWith({ location: expect.objectContaining({ pathname: '/other' }) });
    unlisten();
    expect(history.createURL('/a b ').href).toBe(`${window.location.origin}/a%20b%20`);
  });
});

describe('createMemoryHistory', () => {
  it('pushes over the entries ahead, replaces in place and goes within bounds, telling the listener', () => {
    const history = createMemoryHistory({ initialEntries: ['/a', '/b'], initialIndex: 0 });
    expect(history.location).toMatchObject({ pathname: '/a', key: 'default' });
    history.push('/c', 1);
    expect(history.index).toBe(1);
    const listener = vi.fn();
    history.listen(listener);
    history.go(5);
    expect(history.location.pathname).toBe('/c');
    history.go(-1);
    expect(listener).toHaveBeenLastCalledWith({ location: expect.objectContaining({ pathname: '/a' }) });
    history.replace('?q=1');
    expect(history.location).toMatchObject({ pathname: '/a', search: '?q=1' });
  });
});
