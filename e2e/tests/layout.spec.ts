import type { Page } from '@playwright/test';
import { ROUTES, pathPatternOf, type RouteEntry } from '../../apps/web/src/app/route-table.ts';
import { DEMO, expect, expectNoSeriousViolations, signIn, test, watchNetwork } from '../fixtures.ts';

// Every route of the web route table the owner may open, once each, on one signed-in page (no reload): at 1280, 375
// and 320 px no sideways scroll (WCAG 1.4.10) and every button of a table row inside what shows of the page; axe once
// per route, the theme alternating by route; and the keyboard focus indicator of every element the Tab key reaches
// on the dashboard measured against what it sits on (WCAG 2.4.11, at least 3:1), in both themes.

const WIDTHS = [1280, 375, 320] as const;

/** Routes the owner cannot open as such: sign-in returns, a page without its token, staff pages, redirects only. */
function skipReason(route: RouteEntry): string | undefined {
  if (route.access.public) return 'public page outside the sign-in';
  if (route.access.minUserRole) return 'a user role the owner lacks';
  if (route.access.refuseWithAccount) return 'only for a user without an account';
  if (['oauthcb', 'signup', 'deepcloud-connect', 'invite-verify'].includes(route.name)) {
    return 'a sign-in or connection return, or a link with a token';
  }
  return undefined;
}

/** The route's path as a regular expression (`:name` one segment, `:name?` an optional one). */
function patternOf(route: RouteEntry): RegExp {
  const source = pathPatternOf(route)
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? segment.endsWith('?')
          ? '(?:/[^/]+)?'
          : '/[^/]+'
        : segment === ''
          ? ''
          : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  return new RegExp(`^${source || '/'}$`);
}

const hasParams = (route: RouteEntry) => /:[^/?]+(?!\?)(\/|$)/.test(route.path);

/** An in-app navigation (no reload): the router follows the history like a link click. */
async function open(page: Page, pathname: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
}

interface Fit {
  scrollWidth: number;
  innerWidth: number;
  /** Buttons of table rows (or their parts) outside the viewport. */
  cutOff: string[];
}

async function measure(page: Page): Promise<Fit> {
  return page.evaluate(async () => {
    // Media queries answered in React (the drawer, full-screen dialogs) render a frame later.
    for (let frame = 0; frame < 2; frame++) await new Promise((done) => requestAnimationFrame(done));
    const cutOff: string[] = [];
    for (const button of document.querySelectorAll<HTMLElement>(
      'tr button, [role="row"] button, tr [role="button"]',
    )) {
      if (!button.checkVisibility()) continue;
      const box = button.getBoundingClientRect();
      // What shows of it: the viewport, narrowed by every box around it that clips or scrolls sideways.
      let [left, right] = [0, window.innerWidth];
      for (let box = button.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX === 'visible') continue;
        const clip = box.getBoundingClientRect();
        [left, right] = [Math.max(left, clip.left), Math.min(right, clip.right)];
      }
      if (box.left < left - 0.5 || box.right > right + 0.5) {
        cutOff.push(
          `${button.getAttribute('aria-label') ?? button.textContent?.trim()} at ${Math.round(box.left)}–${Math.round(box.right)} of ${Math.round(left)}–${Math.round(right)}`,
        );
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, cutOff };
  });
}

/** The theme follows the system's colour scheme ("auto"): switch it and wait until the colours' transitions end. */
async function useScheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => !(animation instanceof CSSTransition) || animation.playState !== 'running'),
  );
}

/**
 * Tabs through the page from its start, at most `stops` times (until the focus comes round again), and measures each focused element's indicator: an outline of
 * at least 2 px (a field: its border) whose colour reaches 3:1 against what it is drawn on (the surroundings for a
 * ring outside the element, the element's own background for one inside). Answers the problems found.
 */
async function focusIndicatorProblems(page: Page, stops: number): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let stop = 0; stop < stops; stop++) {
    await page.keyboard.press('Tab');
    const [where, problem] = await page.evaluate(() => {
      type Rgba = [number, number, number, number];
      const parse = (colour: string): Rgba => {
        const [r = 0, g = 0, b = 0, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
        return colour.startsWith('rgba') || (colour.match(/[\d.]+/g) ?? []).length === 4
          ? [r, g, b, a]
          : [r, g, b, 1];
      };
      /** The opaque colour an element shows behind its content: its background over its ancestors'. */
      const backdrop = (from: Element | null): Rgba => {
        const layers: Rgba[] = [];
        for (let element = from; element; element = element.parentElement) {
          const colour = parse(getComputedStyle(element).backgroundColor);
          if (colour[3] > 0) layers.push(colour);
          if (colour[3] >= 1) break;
        }
        let result: Rgba = [255, 255, 255, 1];
        for (const [r, g, b, a] of layers.reverse()) {
          result = [r * a + result[0] * (1 - a), g * a + result[1] * (1 - a), b * a + result[2] * (1 - a), 1];
        }
        return result;
      };
      const luminance = ([r, g, b]: Rgba) =>
        [r, g, b]
          .map((value) => value / 255)
          .map((value) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4))
          .reduce((sum, value, index) => sum + value * [0.2126, 0.7152, 0.0722][index]!, 0);
      const contrast = (a: Rgba, b: Rgba) => {
        const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
        return (light + 0.05) / (dark + 0.05);
      };
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return ['body', null];
      const box = element.getBoundingClientRect();
      const where = `${element.tagName} ${Math.round(box.x)},${Math.round(box.y + window.scrollY)}`;
      const name = `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`;
      const field = element
        .closest('.MuiOutlinedInput-root')
        ?.querySelector('.MuiOutlinedInput-notchedOutline');
      const style = getComputedStyle(field ?? element);
      const [width, colour, inside] = field
        ? [parseFloat(style.borderTopWidth), style.borderTopColor, false]
        : [
            style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
            style.outlineColor,
            parseFloat(style.outlineOffset) < 0,
          ];
      if (width < 2) return [where, `${name}: no focus indicator (${width}px)`];
      const against = backdrop(inside ? element : element.parentElement);
      const ratio = contrast(parse(colour), against);
      return [where, ratio < 3 ? `${name}: focus indicator ${colour} reaches ${ratio.toFixed(2)}:1` : null];
    });
    if (seen.has(where)) break;
    seen.add(where);
    if (problem) problems.push(problem);
  }
  return problems;
}

test('every route fits 1280, 375 and 320 px, with axe once per route and the focus indicators measured', async ({
  page,
  server,
}) => {
  // About 30 routes, each with three widths and axe.
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, server, DEMO.owner.email);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const network = watchNetwork(page);
  await network.quiet();

  // The dashboard's Tab stops (skip link, app bar, side navigation, the page) in both themes.
  for (const colorScheme of ['dark', 'light'] as const) {
    await useScheme(page, colorScheme);
    const problems = await focusIndicatorProblems(page, 40);
    expect(problems, `focus indicators in the ${colorScheme} theme`).toEqual([]);
  }

  const report: string[] = [];
  const problems: string[] = [];
  const visited = new Set<string>();
  const seenLinks = new Set<string>();
  const routes = ROUTES.filter((route) => !skipReason(route));
  // Routes with an id last: their address comes from a link a page before showed.
  const ordered = [...routes.filter((route) => !hasParams(route)), ...routes.filter(hasParams)];

  for (const route of ordered) {
    let target = route.path.replace(/\/:[^/]+\?$/, '');
    if (hasParams(route)) {
      const link = [...seenLinks].find((pathname) => patternOf(route).test(pathname));
      if (!link) {
        report.push(`${route.name}: no link to it on the pages before`);
        continue;
      }
      target = link.slice(1);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // One axe pass per route (below), in the light and the dark theme in turn.
    await useScheme(page, visited.size % 2 ? 'dark' : 'light');
    await open(page, `/${target}`);
    await network.quiet();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const landed = new URL(page.url()).pathname;
    if (visited.has(landed)) {
      report.push(`${route.name}: sent on to ${landed}, seen already`);
      continue;
    }
    visited.add(landed);
    for (const href of await page.evaluate(() =>
      [...document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]')].map((a) => new URL(a.href).pathname),
    )) {
      seenLinks.add(href);
    }
    await test.step(`axe on ${landed}`, () => expectNoSeriousViolations(page));

    const widths: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const fit = await measure(page);
      widths.push(`${width}: ${fit.scrollWidth}`);
      if (fit.scrollWidth > fit.innerWidth)
        problems.push(`${landed} at ${width} px is ${fit.scrollWidth} px wide`);
      for (const button of fit.cutOff) problems.push(`${landed} at ${width} px: row button ${button}`);
    }
    report.push(`${route.name} ${landed} ${widths.join(', ')}`);
  }
  console.log(report.join('\n'));
  expect(problems).toEqual([]);
  // The walk reached the routes (a route table or a sign-in that changed would show here).
  expect(visited.size).toBeGreaterThan(20);
});
