import createDOMPurify from 'dompurify';
import { createRequire } from 'node:module';
import type * as Jsdom from 'jsdom';

// One DOM for the sanitiser, made on first use (a few MB and a second of loading; most requests never need it).
let purifier: { purify: ReturnType<typeof createDOMPurify>; serialize: (node: Node) => string } | null = null;

function getPurifier() {
  if (!purifier) {
    // jsdom loads here, not at start: it was a sixth of the server's start-up time (decision 223).
    const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof Jsdom;
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    const serializer = new window.XMLSerializer();
    purifier = { purify, serialize: (node) => serializer.serializeToString(node) };
  }
  return purifier;
}

/** Text that is an SVG document: an optional BOM, XML declaration, comments and doctype, then an `<svg` root. */
export function looksLikeSvg(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .replace(/^\s*<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '');
  return /^\s*<svg[\s>]/i.test(head);
}

/**
 * An SVG without anything that can run or fetch: DOMPurify with its SVG profile keeps shapes, gradients, filters,
 * text and styles, and drops scripts, event handlers, `javascript:` links, foreignObject (HTML inside) and
 * entity tricks (the document is parsed as HTML, which expands no custom entities). Returns the cleaned document
 * as XML, or null when no `<svg>` root is left.
 */
export function sanitizeSvg(text: string): string | null {
  const { purify, serialize } = getPurifier();
  const body = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    RETURN_DOM: true,
  }) as HTMLElement;
  const root = body.firstElementChild;
  if (!root || root.localName !== 'svg' || body.childElementCount !== 1) return null;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialize(root)}`;
}
