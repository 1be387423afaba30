// Saved list filters (docs/product-rules.md#catalogues): the limits the server checks and the console's save dialog shows.

/** A saved filter's name: 1..40 characters, not only spaces. */
export const SAVED_FILTER_NAME_MAX = 40;
