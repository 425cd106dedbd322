import { i18n } from '@/i18n/i18n.ts';
import { config } from '@/config.ts';
import { IGNORE_MAINTENANCE_KEY, MAINTENANCE_RETURN_KEY } from './guard.ts';
import { matchRoute } from './navigation-rules.ts';
import type { Navigation } from '@/routing/navigation.ts';
import { getVersionState, subscribeVersion } from './version-check.ts';
import { href } from './href.ts';

// The unread notifications of the current account, shown before the title: "(3) Inbox | Portal".
let unreadInTitle = 0;
let updateTitle: (() => void) | null = null;

/** Sets the unread count the document title shows (0 shows none); the shell passes the server's count. */
export function setUnreadInTitle(count: number): void {
  if (count === unreadInTitle) return;
  unreadInTitle = count;
  updateTitle?.();
}

/**
 * The document title "{page} | {product}" from the route table, updated on navigation and language, with the
 * unread notifications in front when there are any.
 */
export function syncDocumentTitle(navigation: Navigation): () => void {
  const update = () => {
    const entry = matchRoute(navigation.state.location.pathname)?.entry;
    const product = config().productName;
    const title = entry ? `${i18n.t(entry.titleKey)} | ${product}` : product;
    document.title = unreadInTitle > 0 ? `(${unreadInTitle}) ${title}` : title;
  };
  updateTitle = update;
  update();
  const unsubscribe = navigation.subscribe(update);
  i18n.on('languageChanged', update);
  i18n.on('loaded', update);
  return () => {
    if (updateTitle === update) updateTitle = null;
    unsubscribe();
    i18n.off('languageChanged', update);
    i18n.off('loaded', update);
  };
}

/**
 * Maintenance from the version check: on → /maintenance (unless the session ignores it),
 * off again → back to where the user was, or the dashboard. The state at subscription time counts too: the
 * first check may have answered before the navigation existed (e.g. a reload of /maintenance after it ended).
 */
export function followMaintenance(navigation: Navigation): () => void {
  const follow = () => {
    const { maintenance, checked } = getVersionState();
    const { pathname, search } = navigation.state.location;
    const onMaintenancePage = pathname === href('maintenance');
    if (maintenance && !onMaintenancePage && sessionStorage.getItem(IGNORE_MAINTENANCE_KEY) !== '1') {
      sessionStorage.setItem(MAINTENANCE_RETURN_KEY, `${pathname}${search}`);
      void navigation.navigate(href('maintenance'), { replace: true });
    } else if (!maintenance && checked && onMaintenancePage) {
      const back = sessionStorage.getItem(MAINTENANCE_RETURN_KEY) ?? href('dashboard');
      sessionStorage.removeItem(MAINTENANCE_RETURN_KEY);
      void navigation.navigate(back, { replace: true });
    }
  };
  follow();
  return subscribeVersion(follow);
}
