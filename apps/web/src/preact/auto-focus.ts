import { options, type Ref } from 'preact';

// The one React behaviour Preact's compat layer leaves out that the app relies on (decision 263); compat.js, what
// `react` and `react-dom` resolve to, installs it.
//
// `autoFocus`: ReactDOM focuses a button, input, select or textarea with it when the element is mounted (a dialog's safe button, the field of
// a form that just opened). Preact only writes the `autofocus` attribute, which browsers honour on page load alone,
// so a confirmation opened with the focus nowhere (journey keyboard.spec.ts). Here every element rendered with
// `autoFocus` gets a ref that focuses it once, when it is attached, as ReactDOM does; a ref of its own still gets
// the element. The composed ref is made once per ref, so Preact does not detach and attach it on every render.
type ElementRef = Exclude<Ref<HTMLElement>, null>;

/** Elements already focused for their `autoFocus`: ReactDOM focuses one when it is mounted, never again. */
const focusedOnce = new WeakSet<HTMLElement>();

function focusOnMount(element: HTMLElement | null): void {
  if (!element || focusedOnce.has(element)) return;
  focusedOnce.add(element);
  element.focus();
}

/** The elements ReactDOM focuses for `autoFocus` (`shouldAutoFocusHostComponent`); on others it does nothing. */
const FOCUSED_ON_MOUNT = new Set(['button', 'input', 'select', 'textarea']);

const withFocus = new WeakMap<ElementRef, (element: HTMLElement | null) => unknown>();

function focusing(ref: ElementRef): (element: HTMLElement | null) => unknown {
  let composed = withFocus.get(ref);
  if (!composed) {
    composed = (element) => {
      focusOnMount(element);
      if (typeof ref === 'function') return ref(element);
      ref.current = element;
      return undefined;
    };
    withFocus.set(ref, composed);
  }
  return composed;
}

const previousVNodeHook = options.vnode;
options.vnode = (vnode) => {
  const props = vnode.props as { autoFocus?: unknown };
  if (typeof vnode.type === 'string' && FOCUSED_ON_MOUNT.has(vnode.type) && props.autoFocus) {
    const ref = vnode.ref as ElementRef | null | undefined;
    vnode.ref = ref ? focusing(ref) : focusOnMount;
  }
  previousVNodeHook?.(vnode);
};
