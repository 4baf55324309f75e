import { type Catalog, checkName } from './catalog';
import { malformed, objectAt, onlyKeys, SearchError, unsupported } from './search-error';

/**
 * Aliases: POST /_aliases (add and remove actions, applied all or none, so that a swap of an
 * alias from one index to another is never seen half done), PUT and DELETE of one alias, and
 * the GET and HEAD forms of _alias.
 */
type Action = { kind: 'add' | 'remove'; indices: string[]; aliases: string[] };

function namesOf(object: Record<string, unknown>, one: string, many: string): string[] {
  const single = object[one];
  const list = object[many];
  if (single !== undefined && list !== undefined) throw malformed(`[${one}] and [${many}] are exclusive`);
  const names = single !== undefined ? [single] : Array.isArray(list) ? list : list === undefined ? [] : [list];
  if (!names.length || !names.every((name) => typeof name === 'string')) throw malformed(`an alias action requires [${one}] or [${many}]`);
  return names;
}

function parseActions(raw: unknown): Action[] {
  const body = objectAt(raw, '_aliases request');
  onlyKeys(body, ['actions'], 'the _aliases request');
  if (!Array.isArray(body.actions)) throw malformed('[actions] must be an array');
  return body.actions.map((entry) => {
    const action = objectAt(entry, 'actions');
    const kinds = Object.keys(action);
    if (kinds.length !== 1) throw malformed('an alias action names one of [add, remove]');
    const kind = kinds[0];
    if (kind !== 'add' && kind !== 'remove') throw unsupported(`the alias action [${kind}]`);
    const options = objectAt(action[kind], kind);
    onlyKeys(options, ['index', 'indices', 'alias', 'aliases'], `the [${kind}] alias action`);
    return { kind, indices: namesOf(options, 'index', 'indices'), aliases: namesOf(options, 'alias', 'aliases') };
  });
}

/**
 * Applies the actions to a copy of every index's alias list, and only when all of them apply,
 * to the indices, saving the catalog once.
 */
export function updateAliases(catalog: Catalog, raw: unknown): Record<string, unknown> {
  const actions = parseActions(raw);
  const next = new Map([...catalog.indices].map(([name, index]) => [name, new Set(index.meta.aliases)]));
  for (const action of actions) {
    const targets = action.indices.flatMap((name) => catalog.resolve(name)).map((index) => index.name);
    for (const alias of action.aliases) {
      if (action.kind === 'add') {
        checkName(alias, 'alias');
        if (catalog.indices.has(alias))
          throw new SearchError(
            400,
            'invalid_alias_name_exception',
            `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
          );
        targets.forEach((name) => next.get(name)?.add(alias));
      } else {
        for (const name of targets)
          if (!next.get(name)?.delete(alias))
            throw new SearchError(404, 'aliases_not_found_exception', `aliases [${alias}] missing`, {
              'resource.type': 'aliases',
              'resource.id': alias,
            });
      }
    }
  }
  for (const [name, aliases] of next) {
    const index = catalog.indices.get(name);
    if (index) index.meta.aliases = [...aliases];
  }
  catalog.save([]);
  return { acknowledged: true };
}

export function putAlias(catalog: Catalog, index: string, alias: string, body: unknown): Record<string, unknown> {
  if (Object.keys(objectAt(body ?? {}, 'alias request')).length) throw unsupported('options of an alias (filter, routing, is_write_index)');
  return updateAliases(catalog, { actions: [{ add: { index, alias } }] });
}

export function deleteAlias(catalog: Catalog, index: string, alias: string): Record<string, unknown> {
  return updateAliases(catalog, { actions: [{ remove: { index, alias } }] });
}

/**
 * GET /_alias/{name}, /{index}/_alias/{name}, /{index}/_alias: the indices with their matching
 * aliases, or a 404 in OpenSearch's short shape when a named alias is on none of them.
 */
export function getAliases(
  catalog: Catalog,
  indexExpression: string | undefined,
  names: string | undefined,
): { status: number; body: unknown } {
  const wanted = names === undefined || names === '_all' || names === '*' ? undefined : names.split(',');
  if (wanted?.some((name) => name.includes('*'))) throw unsupported('alias name patterns');
  const body: Record<string, { aliases: Record<string, object> }> = {};
  for (const index of catalog.resolve(indexExpression)) {
    const aliases = index.meta.aliases.filter((alias) => !wanted || wanted.includes(alias));
    if (aliases.length || !wanted) body[index.name] = { aliases: Object.fromEntries(aliases.map((alias) => [alias, {}])) };
  }
  const missing = wanted?.filter((name) => !Object.values(body).some((entry) => name in entry.aliases)) ?? [];
  if (missing.length === wanted?.length && missing.length)
    return { status: 404, body: { error: `alias [${missing.join(',')}] missing`, status: 404 } };
  if (missing.length) return { status: 404, body: { error: `alias [${missing.join(',')}] missing`, status: 404, ...body } };
  return { status: 200, body };
}
