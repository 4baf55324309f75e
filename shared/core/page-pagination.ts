/** Page-based pagination object of the spec. */
export interface PagePagination {
  page: number;
  limit: number;
  total: number;
  total_pages: number;
  has_more: boolean;
}

/** Builds the pagination object of a page-based list. */
export function pagePagination(page: number, limit: number, total: number): PagePagination {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, total_pages: totalPages, has_more: page < totalPages };
}
