/**
 * An error answered in OpenSearch's shape (`{error: {root_cause, type, reason, ...}, status}`), so
 * that the real client raises the ResponseError it raises against a cluster, with the same status
 * and type for the adapter to act on.
 */
export class SearchError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(reason);
  }

  body(): Record<string, unknown> {
    const cause = { type: this.type, reason: this.reason, ...this.fields };
    return { error: { root_cause: [cause], ...cause }, status: this.status };
  }
}

/** Something OpenSearch does that the stand-in does not: refused loudly rather than answered wrongly. */
export function unsupported(what: string): SearchError {
  return new SearchError(400, 'parsing_exception', `${what} is not supported by the local OpenSearch stand-in`);
}

/** A malformed request, in the type OpenSearch gives to request bodies it cannot parse. */
export function malformed(reason: string): SearchError {
  return new SearchError(400, 'parsing_exception', reason);
}

export function illegalArgument(reason: string): SearchError {
  return new SearchError(400, 'illegal_argument_exception', reason);
}

export function indexNotFound(name: string): SearchError {
  return new SearchError(404, 'index_not_found_exception', `no such index [${name}]`, {
    index: name,
    'resource.id': name,
    'resource.type': 'index_or_alias',
    index_uuid: '_na_',
  });
}

/** Refuses keys of a request object that the stand-in does not act on, naming the first one. */
export function onlyKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) throw unsupported(`[${key}] in ${where}`);
}

/** A plain JSON object (not an array, not null), or a 400 naming what it should have been. */
export function objectAt(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed(`[${where}] must be an object`);
  return value as Record<string, unknown>;
}

/** A request value as text for a message or a comparison: strings as they are, anything else as JSON. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : String(JSON.stringify(value));
}
