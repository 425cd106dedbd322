/** Leaves the portal for another site's page (e.g. the card provider's), which sends the admin back later. */
export function leavePageTo(url: string): void {
  window.location.assign(url);
}
