// Cloud connection: an account's OAuth 2.0 connection to the provider's cloud (SPEC §2, §4 "Cloud connect entry").
// Filled by the cloud area.

export const cloudRoutes = {};
