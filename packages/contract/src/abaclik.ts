// AbaClik: pairing the mobile time-tracking app's devices with an account. Filled by the abaclik area.

export const abaclikRoutes = {};
