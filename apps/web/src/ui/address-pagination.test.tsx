import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ServerPagination } from './address-pagination.tsx';

describe('ServerPagination', () => {
  it('shows the rows of the total and the arrows', () => {
    render(<ServerPagination total={3} page={1} pageSize={10} sizes={[10, 25]} onChange={() => {}} />);
    expect(screen.getByText('1–3 of 3')).toBeTruthy();
  });

  // An empty list shows its empty state alone, never "0–0 von 0" (issue 23 item 12).
  it('is left out for an empty list', () => {
    const { container } = render(
      <ServerPagination total={0} page={1} pageSize={10} sizes={[10, 25]} onChange={() => {}} />,
    );
    expect(container.textContent).toBe('');
    expect(screen.queryByText(/0–0/)).toBeNull();
  });
});
