/** What a search looks in: the `in` values of Search, and each passage's `field`. */
export const SEARCH_FIELDS = ['transcript', 'summary', 'action_items', 'title'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** How a search matches: by words, by meaning (with an embedding model), or both. */
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
