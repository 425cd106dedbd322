import { Suspense, type ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { preloadable } from './preloadable.tsx';

const part = () => preloadable(() => Promise.resolve({ default: () => <p>geladen</p> }));
const inBoundary = (Component: ComponentType) => (
  <Suspense fallback={<p>wartet</p>}>
    <Component />
  </Suspense>
);

describe('a preloadable part', () => {
  it('renders at once, without its fallback, when its chunk was started before', async () => {
    const { Component, preload } = part();
    await preload();
    render(inBoundary(Component));
    expect(screen.queryByText('wartet')).toBeNull();
    expect(screen.getByText('geladen')).toBeTruthy();
  });

  it('suspends like a lazy component when it was not', async () => {
    const { Component } = part();
    render(inBoundary(Component));
    expect(screen.getByText('wartet')).toBeTruthy();
    expect(await screen.findByText('geladen')).toBeTruthy();
  });
});
