import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('lesson Markdown', () => {
  it('renders headings (from h3 on), lists, code, keyboard hints and tables', () => {
    const html = renderMarkdown(
      [
        '# Start',
        '## Steps',
        '',
        '1. One',
        '2. Two',
        '',
        '- a **bold** and *em* word',
        '',
        'Press <kbd>Ctrl</kbd> + <kbd>K</kbd> or run `npm test`.',
        '',
        '```',
        'code block',
        '```',
        '',
        '| A | B |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    );
    expect(html).toContain('<h3>Start</h3>');
    expect(html).toContain('<h3>Steps</h3>');
    expect(html).toMatch(/<ol>\s*<li>One<\/li>/);
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<kbd>Ctrl</kbd>');
    expect(html).toContain('<code>npm test</code>');
    expect(html).toContain('<pre><code>code block');
    expect(html).toContain('<td>1</td>');
    expect(html).not.toMatch(/<h[12][\s>]/);
  });

  it('removes scripts with their content', () => {
    const html = renderMarkdown(
      'Hello <script>alert("x")</script>\n\n<script src="https://evil.test/x.js"></script>',
    );
    expect(html).not.toMatch(/script/i);
    expect(html).not.toContain('alert');
    expect(html).toContain('Hello');
  });

  it('removes event-handler attributes', () => {
    const html = renderMarkdown(
      '<p onclick="alert(1)">Click</p>\n\n<a href="https://example.com" onmouseover="alert(2)">x</a>\n\n<img src=x onerror="alert(3)">\n\n<svg onload="alert(4)"></svg>',
    );
    expect(html).not.toMatch(/on(click|mouseover|error|load)/i);
    expect(html).not.toContain('alert');
    expect(html).not.toMatch(/<(img|svg)/i);
    expect(html).toContain('Click');
  });

  it('drops javascript:, data: and vbscript: links but keeps their text', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:msgbox(1)',
    ]) {
      const md = renderMarkdown(`[click me](${href})`);
      const raw = renderMarkdown(`<a href="${href}">click me</a>`);
      for (const html of [md, raw]) {
        expect(html).toContain('click me');
        expect(html).not.toMatch(/href=/i);
        expect(html).not.toMatch(/javascript|vbscript|data:/i);
      }
    }
    // An entity-encoded scheme is decoded by the parser before the check.
    expect(renderMarkdown('<a href="&#106;avascript:alert(1)">x</a>')).not.toMatch(/href|javascript/i);
  });

  it('opens web links in a new tab that cannot reach back, without referrer', () => {
    const html = renderMarkdown(
      '[Portal](https://portal.example.com/help "Help") and <a href="mailto:help@example.com" target="_self" rel="opener">mail</a>',
    );
    expect(html).toContain(
      '<a href="https://portal.example.com/help" title="Help" target="_blank" rel="noopener noreferrer">Portal</a>',
    );
    expect(html).toContain(
      '<a href="mailto:help@example.com" target="_blank" rel="noopener noreferrer">mail</a>',
    );
  });

  it('removes iframes, objects, forms, styles, meta refreshes and base tags', () => {
    const html = renderMarkdown(
      [
        '<iframe src="https://evil.test"></iframe>',
        '<object data="x.swf"></object><embed src="x.swf">',
        '<form action="https://evil.test"><input name="password"><button>Send</button></form>',
        '<style>body { display: none }</style>',
        '<p style="position:fixed;inset:0;background:url(https://evil.test/track)">styled</p>',
        '<meta http-equiv="refresh" content="0;url=https://evil.test">',
        '<base href="https://evil.test/">',
        '<link rel="stylesheet" href="https://evil.test/x.css">',
      ].join('\n\n'),
    );
    expect(html).not.toMatch(/<(iframe|object|embed|form|input|button|style|meta|base|link)/i);
    expect(html).not.toMatch(/style=|evil\.test|display: none/i);
    expect(html).toContain('styled');
  });

  it('shows no images, neither Markdown nor HTML ones', () => {
    const html = renderMarkdown(
      '![logo](https://example.com/logo.png)\n\n<img src="https://example.com/a.png" alt="a">',
    );
    expect(html).not.toMatch(/<img|example\.com/i);
  });

  it('keeps code that shows markup as text', () => {
    const html = renderMarkdown('`<script>alert(1)</script>`');
    expect(html).toContain('<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>');
  });
});
