/**
 * What the web build hands the server besides the app: `route-preloads.json` in the build's folder (written by the
 * web build's `portal-route-preloads` plugin, read by the server's SPA plugin), and the cookie the app keeps its
 * language in for it.
 */

/** The app's language, as the last page shown used it; only picks which texts index.html hints at (decision 262). */
export const LANGUAGE_COOKIE = 'portal-language';

/** The files each route and each area of texts needs beyond the first load, as paths below the build's folder. */
export interface RoutePreloads {
  /** Each route with a page: its path (`:param`, `:param?`, `*`, '' the dashboard), its chunks, its areas of texts. */
  routes: { path: string; files: string[]; areas: string[] }[];
  /** By language, by area (`shell` and `validation` included): the files of its texts. */
  texts: Record<string, Record<string, string[]>>;
}
