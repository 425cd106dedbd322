/** What can take the keyboard's focus inside a row. */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The last control focused inside `root`, and where it sat: its table row or list item, and its place there. */
interface Place {
  element: HTMLElement;
  /** The rows' parent (a `tbody`, a list) and the row's index in it, when the control sits in a row. */
  rows: Element | null;
  row: number;
  /** Its index among the row's focusable controls. */
  slot: number;
  /** The first control after its rows (or after it), for when the rows go with it (the last file of a list). */
  beyond: HTMLElement | null;
}

/** The first focusable control that follows `node` in the document and is not inside it. */
function firstAfter(node: Element): HTMLElement | null {
  for (const candidate of node.ownerDocument.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (
      node.compareDocumentPosition(candidate) & Node.DOCUMENT_POSITION_FOLLOWING &&
      !node.contains(candidate)
    )
      return candidate;
  }
  return null;
}

function placeOf(element: HTMLElement): Place {
  const row = element.closest('tr, li');
  const rows = row?.parentElement ?? null;
  return {
    element,
    rows,
    row: rows ? Array.prototype.indexOf.call(rows.children, row) : -1,
    slot: row ? [...row.querySelectorAll(FOCUSABLE)].indexOf(element) : -1,
    beyond: firstAfter(rows ?? element),
  };
}

/**
 * Keeps the keyboard's place when the focused control goes away (issue 23 item 13, decision 216). A browser drops
 * the focus to the page's body when the focused button is disabled (a button waits for its action: a download, a
 * save, "mark as read" say `disabled={isPending}`) or removed (an archived notification's row, a member removed by
 * the row menu, the page a menu item left): the next Tab starts over from the top, a screen reader loses its place
 * and Enter does nothing.
 * - A control disabled while focused gets the focus back when it is enabled again, if nothing took it meanwhile.
 * - A focused control removed with its table row or list item: the focus goes to the same control of the row that
 *   took its place (or of the last row); without one (the list went with its last row, or the control sat in no
 *   row), to the first control that followed the rows (or the control) if it is still there ("choose files" after
 *   the last chosen file), else to `fallback()` (the shell's main region, which shows no ring: another page).
 * Returns the function that stops it.
 */
export function keepFocus(root: HTMLElement, fallback: () => HTMLElement | null): () => void {
  const document = root.ownerDocument;
  let place: Place | null = null;
  /** The control that was disabled while it had the focus. */
  let waiting: HTMLElement | null = null;
  const lost = () => document.activeElement === null || document.activeElement === document.body;

  const onFocusIn = (event: FocusEvent) => {
    waiting = null;
    place = event.target instanceof HTMLElement ? placeOf(event.target) : null;
  };
  // Focus the person moved away (a click beside any control, another window) is not to be kept.
  const onFocusOut = (event: FocusEvent) => {
    const left = event.target;
    setTimeout(() => {
      const { element } = place ?? {};
      if (element === left && element.isConnected && !element.hasAttribute('disabled') && lost())
        place = null;
    });
  };

  const observer = new MutationObserver((records) => {
    if (!place) return;
    const { element } = place;
    if (records.some((record) => record.type === 'attributes' && record.target === element)) {
      if (element.hasAttribute('disabled')) {
        if (document.activeElement === element || lost()) waiting = element;
      } else if (waiting === element) {
        waiting = null;
        if (lost()) element.focus();
      }
    }
    if (element.isConnected || !lost()) return;
    const { rows, row, slot, beyond } = place;
    place = null;
    waiting = null;
    const taken = rows?.isConnected ? rows.children[Math.min(row, rows.children.length - 1)] : undefined;
    const controls = taken ? [...taken.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
    const next = controls[slot] ?? controls[0] ?? (beyond?.isConnected ? beyond : undefined);
    if (next) next.focus();
    else fallback()?.focus({ preventScroll: true });
  });

  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('focusout', onFocusOut);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  return () => {
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('focusout', onFocusOut);
    observer.disconnect();
  };
}
