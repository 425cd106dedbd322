import createDOMPurify, { type Config, type DOMPurify } from 'dompurify';
import { createRequire } from 'node:module';
import type * as Jsdom from 'jsdom';
import { Marked } from 'marked';
import { LESSON_IMAGE_PATH } from '@portal/contract/lesson-authoring';

// Texts people write in Markdown (a lesson, an announcement) are turned into HTML on the server and sanitised
// there, so a page inserts nothing it did not get from this one gate.

/** Markdown with GitHub's tables and strike-through; raw HTML is passed on to the sanitiser, which decides. */
const markdown = new Marked({
  gfm: true,
  async: false,
  walkTokens(token) {
    // The page's h1 is the page and its h2 the lesson's title: the text's headings start at h3.
    if (token.type === 'heading') token.depth = Math.min(6, Math.max(3, token.depth + 1));
  },
});

/** What a text may contain: text structure, code and keyboard hints, tables and links. No images, no media. */
const SANITIZE: Config = {
  ALLOWED_TAGS: [
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'em',
    'del',
    's',
    'code',
    'pre',
    'kbd',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  ALLOWED_ATTR: ['href', 'title', 'start'],
  // Only web and mail links; DOMPurify drops every other scheme (javascript:, data:, vbscript:).
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

/** A lesson's text also shows images, only from the lesson images' address (the hook below checks each). */
const SANITIZE_LESSON: Config = {
  ...SANITIZE,
  ALLOWED_TAGS: [...(SANITIZE.ALLOWED_TAGS as string[]), 'img'],
  ALLOWED_ATTR: [...(SANITIZE.ALLOWED_ATTR as string[]), 'src', 'alt'],
};

/** The address a lesson image's `src` must be exactly: the path and an image's uuid, nothing after it. */
const LESSON_IMAGE_SRC = new RegExp(
  `^${LESSON_IMAGE_PATH.replace(/[/.]/g, '\\$&')}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`,
  'i',
);

/** The attribute that names a lesson image in the HTML answered; the page loads it through its API client. */
export const LESSON_IMAGE_ATTRIBUTE = 'data-lesson-image';

let purify: DOMPurify | null = null;

/** How long after the server listens the sanitiser loads (`prepareSanitizerSoon`). */
const SANITIZER_DELAY_MS = 5_000;

/**
 * Makes the sanitiser a few seconds after the server listens. Loading jsdom holds the server's thread for about a
 * second (far longer on a loaded machine): at start that would delay readiness, on first use it delayed the first
 * lesson or announcement, with every request in flight behind it. The timer does not keep the process alive.
 */
export function prepareSanitizerSoon(): void {
  setTimeout(sanitizer, SANITIZER_DELAY_MS).unref();
}

/** The sanitiser with its own DOM, made on first use; its hook opens every link safely in a new tab. */
function sanitizer(): DOMPurify {
  if (purify) return purify;
  // jsdom loads here, not at start: it was a sixth of the server's start-up time (decision 223).
  const { JSDOM } = createRequire(import.meta.url)('jsdom') as typeof Jsdom;
  const instance = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0]);
  // A lesson image's relative address is no web link, which the URI rule would drop: kept here when it is exactly
  // the lesson images' address, and checked again below.
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    if (node.nodeName === 'IMG' && data.attrName === 'src' && LESSON_IMAGE_SRC.test(data.attrValue)) {
      data.forceKeepAttr = true;
    }
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'IMG') {
      // Only the lesson images' address: any other image goes whole. The address leaves the HTML (the browser
      // would load it without the caller's token) and becomes the image's uuid, which the page loads itself.
      const uuid = LESSON_IMAGE_SRC.exec(node.getAttribute('src') ?? '')?.[1];
      if (!uuid) {
        node.remove();
        return;
      }
      node.removeAttribute('src');
      node.setAttribute(LESSON_IMAGE_ATTRIBUTE, uuid.toLowerCase());
      return;
    }
    if (node.nodeName !== 'A') return;
    if (!node.getAttribute('href')) {
      node.removeAttribute('href');
      return;
    }
    // A lesson's link leaves the portal: a new tab that cannot reach back into this one, and sends no referrer.
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  });
  purify = instance;
  return instance;
}

/**
 * Markdown (a lesson's, an announcement's) as HTML that is safe to insert into the page. With `lessonImages`, images
 * from the lesson images' address stay, as `<img data-lesson-image="<uuid>" alt>`; every other image goes.
 */
export function renderMarkdown(source: string, { lessonImages = false } = {}): string {
  const html = markdown.parse(source) as string;
  return sanitizer().sanitize(html, lessonImages ? SANITIZE_LESSON : SANITIZE);
}
