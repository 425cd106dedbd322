import { useEffect, useRef, useState, type ReactNode } from 'react';
import TableContainer from '@mui/material/TableContainer';

/**
 * The box of a table without controls of its own (invoice lines, response times): it scrolls sideways when the table
 * is wider than its place, and while it does, it is a named region the Tab key reaches, so a keyboard can scroll it
 * too (WCAG 2.1.1; axe's scrollable-region-focusable). A table that fits is no tab stop. Tables with a row action
 * scroll in a plain `TableContainer`: their buttons take the focus.
 */
export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <TableContainer ref={box} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}>
      {children}
    </TableContainer>
  );
}
