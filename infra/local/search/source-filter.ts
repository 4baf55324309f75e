import { malformed } from './search-error';

/**
 * The `_source` option of a search: false (no _source), or fields to include and to exclude, by
 * dotted path with `*` wildcards. Including an object includes all below it.
 */
export type SourceFilter = false | { includes: RegExp[]; excludes: RegExp[]; topLevel?: { includes: string[]; excludes: string[] } };

function patterns(raw: unknown, key: string): RegExp[] {
  if (raw === undefined) return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string'))
    throw malformed(`[_source.${key}] must be a string or strings`);
  return list.map((pattern) => new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`));
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

export function parseSourceFilter(raw: unknown): SourceFilter {
  if (raw === undefined || raw === true) return { includes: [], excludes: [] };
  if (raw === false) return false;
  if (typeof raw === 'string' || Array.isArray(raw)) return { includes: patterns(raw, 'includes'), excludes: [] };
  if (typeof raw !== 'object' || raw === null) throw malformed('[_source] must be a boolean, a string, strings or an object');
  const { includes, include, excludes, exclude, ...rest } = raw as Record<string, unknown>;
  if (Object.keys(rest).length) throw malformed(`unknown key [${Object.keys(rest)[0]}] in [_source]`);
  const filter = { includes: patterns(includes ?? include, 'includes'), excludes: patterns(excludes ?? exclude, 'excludes') };
  return { ...filter, topLevel: topLevelNames(includes ?? include, excludes ?? exclude) };
}

/** The names, when every pattern is a plain top-level field name: the common case, filtered without walking the document. */
function topLevelNames(includes: unknown, excludes: unknown): { includes: string[]; excludes: string[] } | undefined {
  const names = (raw: unknown) => (raw === undefined ? [] : typeof raw === 'string' ? [raw] : (raw as string[]));
  const lists = { includes: names(includes), excludes: names(excludes) };
  return [...lists.includes, ...lists.excludes].every((name) => !/[.*]/.test(name)) ? lists : undefined;
}

export function filterSource(source: Record<string, unknown>, filter: SourceFilter): Record<string, unknown> | undefined {
  if (filter === false) return undefined;
  if (!filter.includes.length && !filter.excludes.length) return source;
  if (filter.topLevel) {
    const { includes, excludes } = filter.topLevel;
    const out: Record<string, unknown> = {};
    for (const key in source) if ((!includes.length || includes.includes(key)) && !excludes.includes(key)) out[key] = source[key];
    return out;
  }
  const matches = (list: RegExp[], path: string) => list.some((pattern) => pattern.test(path));
  // An include pattern may still match below a path it does not match itself ("speaker.*" below "speaker").
  const mayMatchBelow = (path: string) =>
    filter.includes.some((pattern) => pattern.source.startsWith(`^${escape(path)}\\.`) || pattern.source.includes('.*'));
  const walk = (object: Record<string, unknown>, prefix: string, included: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (matches(filter.excludes, path)) continue;
      const inside = included || !filter.includes.length || matches(filter.includes, path);
      const objects = (Array.isArray(value) ? value : [value]).every((item) => typeof item === 'object' && item !== null);
      if (objects && (inside || mayMatchBelow(path))) {
        const filtered = (item: unknown) => walk(item as Record<string, unknown>, path, inside);
        const result = Array.isArray(value) ? value.map(filtered) : filtered(value);
        if (inside || (Array.isArray(result) ? result.some((item) => Object.keys(item).length) : Object.keys(result).length))
          out[key] = result;
      } else if (inside) {
        out[key] = value;
      }
    }
    return out;
  };
  return walk(source, '', false);
}
