// Shop configuration: an account's online shop, its API key and synchronisation. Filled by the shop area.

export const shopRoutes = {};
