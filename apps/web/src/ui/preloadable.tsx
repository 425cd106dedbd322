import { lazy, useState, type ComponentType } from 'react';

/**
 * A lazily loaded component whose chunk can be started before it first renders (`preload`). Once the chunk is in,
 * a new instance renders at once instead of suspending: React reveals a suspended boundary's content no sooner than
 * about 300 ms after its fallback, which would hold back a part whose chunk and data arrived long before. An
 * instance keeps the way it started, so a render never swaps the lazy wrapper for the loaded component (a remount).
 */
export function preloadable<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): { Component: ComponentType<P>; preload: () => Promise<unknown> } {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  function Component(props: P) {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Component, preload };
}
