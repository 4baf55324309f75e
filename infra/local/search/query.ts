import { analyze, type PhraseTerm, phraseOf, phraseStarts, tokenize } from './analyzer';
import { comparable, type Comparable, docValues, type FieldSpec, textValues, valuesAt } from './field-values';
import { costOf, minimumShould } from './clause-cost';
import type { SearchIndex } from './search-index';
import { malformed, objectAt, onlyKeys, SearchError, textOf, unsupported } from './search-error';

/**
 * The query DSL subset, evaluated over one index: each clause answers the documents it matches
 * with their scores (BM25 from MiniSearch for text clauses, 1 for the others, as constant-score
 * queries have; a bool sums the scores of its must and should clauses and drops those of its
 * filters). Any clause or option outside the subset is refused with a 400 naming it, so that a
 * query is never answered as if part of it were not there.
 *
 * Text clauses outside must_not note their terms and phrases per field, for the highlighter.
 */
type Scores = Map<string, number>;

export interface HighlightTerms {
  /** Analyzed terms to mark wherever they occur. */
  terms: Set<string>;
  /** Phrases to mark where they occur. */
  phrases: PhraseTerm[][];
  /** Whole values of keyword, number and date fields that term queries asked for. */
  exact: Set<Comparable>;
}

export class QueryContext {
  readonly highlights = new Map<string, HighlightTerms>();
  /** Inside a bool, the documents its required clauses left so far: a scan needs to look at no other. */
  candidates: Set<string> | undefined;

  constructor(readonly index: SearchIndex) {}

  note(field: string): HighlightTerms {
    let terms = this.highlights.get(field);
    if (!terms) this.highlights.set(field, (terms = { terms: new Set(), phrases: [], exact: new Set() }));
    return terms;
  }

  scan(predicate: (source: Record<string, unknown>, id: string) => boolean): Scores {
    const scores: Scores = new Map();
    if (this.candidates) {
      for (const id of this.candidates) {
        const document = this.index.docs.get(id);
        if (document && predicate(document._source, id)) scores.set(id, 1);
      }
    } else for (const [id, document] of this.index.docs) if (predicate(document._source, id)) scores.set(id, 1);
    return scores;
  }
}

type Clause = (body: unknown, context: QueryContext, negated: boolean) => Scores;

/** Evaluates a query; `negated` inside must_not, where terms are not highlighted. */
export function evaluate(query: unknown, context: QueryContext, negated = false): Scores {
  const object = objectAt(query, 'query');
  const names = Object.keys(object);
  if (names.length !== 1) throw malformed(`a query holds exactly one clause, found [${names.join(', ')}]`);
  const name = names[0];
  const clause = Object.hasOwn(CLAUSES, name) ? CLAUSES[name] : undefined;
  if (!clause) throw unsupported(`the [${name}] query`);
  return clause(object[name], context, negated);
}

/** The single field of a field-level clause (`{term: {org_id: 'o1'}}`) and what it holds. */
function fieldOf(body: unknown, clause: string): [string, unknown] {
  const entries = Object.entries(objectAt(body, clause));
  if (entries.length !== 1) throw malformed(`[${clause}] query takes exactly one field, found [${entries.map(([key]) => key).join(', ')}]`);
  return entries[0];
}

/** The options of a clause given either as a bare value or as an object holding `valueKey`. */
function optionsOf(raw: unknown, valueKey: string, allowed: readonly string[], clause: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { [valueKey]: raw };
  const options = raw as Record<string, unknown>;
  onlyKeys(options, allowed, `the [${clause}] query`);
  return options;
}

function primitive(value: unknown, clause: string): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw malformed(`[${clause}] query expects a string, number or boolean value`);
}

function badValue(spec: FieldSpec, value: unknown): SearchError {
  return new SearchError(
    400,
    'query_shard_exception',
    `failed to create query: [${spec.path}] of type [${spec.type}] cannot hold ${JSON.stringify(value)}`,
  );
}

function isAnd(operator: unknown): boolean {
  if (operator === undefined) return false;
  const text = textOf(operator).toLowerCase();
  if (text !== 'and' && text !== 'or') throw malformed(`[operator] must be "and" or "or", found [${textOf(operator)}]`);
  return text === 'and';
}

/** Documents holding one of `values` exactly: the term of a keyword field, an analyzed term of a text field, a number, a date. */
function exact(context: QueryContext, field: string, values: unknown[], clause: string, negated: boolean): Scores {
  const wanted = values.map((value) => primitive(value, clause));
  if (field === '_id') return context.scan((_source, id) => wanted.map(String).includes(id));
  const spec = context.index.fields.get(field);
  if (!spec || spec.type === 'object') return new Map();
  if (spec.type === 'text') {
    const terms = new Set(wanted.map(String));
    if (!negated) terms.forEach((term) => context.note(field).terms.add(term));
    return context.scan((source) => textValues(source, spec).some((text) => analyze(text, spec.analyzer).some((term) => terms.has(term))));
  }
  const converted = wanted.map((value) => comparable(spec, value) ?? throwError(badValue(spec, value)));
  if (!negated) converted.forEach((value) => context.note(field).exact.add(value));
  const sets = context.index.setsWithValue(spec, converted);
  const { candidates } = context;
  const held = sets.reduce((sum, set) => sum + set.size, 0);
  // Walk the smaller side: a term inside a narrowed bool costs what the bool has left, not what the field holds.
  const scores: Scores = new Map();
  if (candidates && candidates.size < held) {
    for (const id of candidates) if (sets.some((set) => set.has(id))) scores.set(id, 1);
  } else for (const id of context.index.idsWithValue(spec, converted)) if (!candidates || candidates.has(id)) scores.set(id, 1);
  return scores;
}

function throwError(error: Error): never {
  throw error;
}

function matchField(context: QueryContext, field: string, query: string, and: boolean, negated: boolean): Scores {
  const spec = context.index.fields.get(field);
  if (spec?.type !== 'text') return exact(context, field, [query], 'match', negated);
  if (!negated) analyze(query, spec.analyzer).forEach((term) => context.note(field).terms.add(term));
  return context.index.textScores(field, query, and);
}

/** Documents where the phrase's terms stand at the phrase's positions in one value of the field. */
function phraseField(context: QueryContext, field: string, query: string, negated: boolean): Scores {
  const spec = context.index.fields.get(field);
  if (spec?.type !== 'text') return exact(context, field, [query], 'match_phrase', negated);
  const phrase = phraseOf(query, spec.analyzer);
  if (!phrase.length) return new Map();
  if (!negated) context.note(field).phrases.push(phrase);
  const scores: Scores = new Map();
  for (const [id, score] of context.index.textScores(field, query, true)) {
    const source = context.index.docs.get(id)?._source;
    if (textValues(source, spec).some((text) => phraseStarts(tokenize(text, spec.analyzer), phrase).length)) scores.set(id, score);
  }
  return scores;
}

function bool(body: unknown, context: QueryContext, negated: boolean): Scores {
  const object = objectAt(body, 'bool');
  onlyKeys(object, ['must', 'filter', 'should', 'must_not', 'minimum_should_match'], 'the [bool] query');
  const list = (key: string): unknown[] => (object[key] === undefined ? [] : Array.isArray(object[key]) ? object[key] : [object[key]]);
  const outer = context.candidates;
  // Required clauses narrow the candidates as they are evaluated; a document outside them cannot match, whatever the rest says.
  const narrowed = (query: unknown) => {
    const scores = evaluate(query, context, negated);
    const { candidates } = context;
    context.candidates =
      candidates && candidates.size < scores.size
        ? new Set([...candidates].filter((id) => scores.has(id)))
        : new Set([...scores.keys()].filter((id) => !candidates || candidates.has(id)));
    return scores;
  };
  const requiredQueries = [
    ...list('must').map((query) => ({ query, must: true })),
    ...list('filter').map((query) => ({ query, must: false })),
  ];
  const costs = new Map(requiredQueries.map((clause) => [clause, costOf(clause.query, context.index)]));
  requiredQueries.sort((a, b) => {
    const [x, y] = [costs.get(a) as number, costs.get(b) as number];
    return x === y ? 0 : x < y ? -1 : 1;
  });
  const evaluated = requiredQueries.map(({ query, must }) => ({ must, scores: narrowed(query) }));
  const must = evaluated.filter((clause) => clause.must).map((clause) => clause.scores);
  const required = evaluated.map((clause) => clause.scores);
  const should = list('should').map((query) => evaluate(query, context, negated));
  const mustNot = list('must_not').map((query) => evaluate(query, context, !negated));
  const candidates = context.candidates;
  context.candidates = outer;
  const minimum = minimumShould(object.minimum_should_match, should.length) ?? (required.length || !should.length ? 0 : 1);
  // A bool of must_not clauses only, or of nothing, matches all other documents with score 1, as match_all.
  const base = required.length || should.length ? 0 : 1;
  const scores: Scores = new Map();
  for (const id of required.length ? (candidates ?? []) : (outer ?? context.index.docs.keys())) {
    // The candidates are the required clauses' intersection already: only must_not is left to test.
    if (mustNot.some((clause) => clause.has(id))) continue;
    // No allocation per document where there are no should clauses (most filters).
    const matched = should.length ? should.filter((clause) => clause.has(id)) : should;
    if (matched.length < minimum) continue;
    let score = base;
    for (const clause of must) score += clause.get(id) ?? 0;
    for (const clause of matched) score += clause.get(id) ?? 0;
    scores.set(id, score);
  }
  return scores;
}

function range(body: unknown, context: QueryContext): Scores {
  const [field, raw] = fieldOf(body, 'range');
  const bounds = objectAt(raw, `range.${field}`);
  onlyKeys(bounds, ['gte', 'gt', 'lte', 'lt'], 'the [range] query');
  const spec = context.index.fields.get(field);
  if (!spec || spec.type === 'object') return new Map();
  if (spec.type === 'text' || spec.type === 'boolean') throw unsupported(`[range] on the ${spec.type} field [${field}]`);
  const limits: [string, Comparable][] = [];
  for (const [key, value] of Object.entries(bounds)) {
    if (value === null || value === undefined) continue;
    if (spec.type === 'date' && typeof value === 'string' && (value.startsWith('now') || value.includes('||')))
      throw unsupported(`date math [${value}] in [range]`);
    const converted = comparable(spec, value);
    if (converted === undefined)
      throw spec.type === 'date'
        ? new SearchError(
            400,
            'parse_exception',
            `failed to parse date field [${textOf(value)}] with format [strict_date_optional_time||epoch_millis]`,
          )
        : badValue(spec, value);
    limits.push([key, converted]);
  }
  const inside = (value: Comparable) =>
    limits.every(([key, limit]) =>
      key === 'gte' ? value >= limit : key === 'gt' ? value > limit : key === 'lte' ? value <= limit : value < limit,
    );
  return context.scan((source) => docValues(source, spec).some(inside));
}

const CLAUSES: Record<string, Clause> = {
  bool,
  range: (body, context) => range(body, context),
  match_all(body, context) {
    onlyKeys(objectAt(body, 'match_all'), [], 'the [match_all] query');
    return context.scan(() => true);
  },
  term(body, context, negated) {
    const [field, raw] = fieldOf(body, 'term');
    return exact(context, field, [optionsOf(raw, 'value', ['value'], 'term').value], 'term', negated);
  },
  terms(body, context, negated) {
    const [field, values] = fieldOf(body, 'terms');
    if (!Array.isArray(values)) throw unsupported(`[terms] with a lookup or a non-array value for [${field}]`);
    return exact(context, field, values, 'terms', negated);
  },
  ids(body, context) {
    const object = objectAt(body, 'ids');
    onlyKeys(object, ['values'], 'the [ids] query');
    if (!Array.isArray(object.values)) throw malformed('[ids] query expects [values] as an array');
    const { candidates, index } = context;
    const scores: Scores = new Map();
    for (const id of new Set(object.values.map(String))) if (index.docs.has(id) && (!candidates || candidates.has(id))) scores.set(id, 1);
    return scores;
  },
  exists(body, context) {
    const object = objectAt(body, 'exists');
    onlyKeys(object, ['field'], 'the [exists] query');
    const field = String(primitive(object.field, 'exists'));
    if (field === '_id') return context.scan(() => true);
    const spec = context.index.fields.get(field);
    if (!spec) return new Map();
    if (spec.type === 'object') return context.scan((source) => valuesAt(source, field).length > 0);
    if (spec.type === 'text') return context.scan((source) => textValues(source, spec).length > 0);
    return context.scan((source) => docValues(source, spec).length > 0);
  },
  match(body, context, negated) {
    const [field, raw] = fieldOf(body, 'match');
    const options = optionsOf(raw, 'query', ['query', 'operator'], 'match');
    return matchField(context, field, String(primitive(options.query, 'match')), isAnd(options.operator), negated);
  },
  match_phrase(body, context, negated) {
    const [field, raw] = fieldOf(body, 'match_phrase');
    const options = optionsOf(raw, 'query', ['query', 'slop'], 'match_phrase');
    if (options.slop !== undefined && options.slop !== 0) throw unsupported('[slop] other than 0 in [match_phrase]');
    return phraseField(context, field, String(primitive(options.query, 'match_phrase')), negated);
  },
  multi_match(body, context, negated) {
    const options = objectAt(body, 'multi_match');
    onlyKeys(options, ['query', 'fields', 'type', 'operator'], 'the [multi_match] query');
    const query = String(primitive(options.query, 'multi_match'));
    const type = options.type ?? 'best_fields';
    if (type !== 'best_fields' && type !== 'phrase') throw unsupported(`[multi_match] of type [${textOf(type)}]`);
    if (type === 'phrase' && options.operator !== undefined) throw unsupported('[operator] in a [multi_match] of type [phrase]');
    if (!Array.isArray(options.fields) || !options.fields.length) throw unsupported('[multi_match] without [fields]');
    const and = isAnd(options.operator);
    // best_fields and phrase both score a document by its best field (tie_breaker 0).
    const scores: Scores = new Map();
    for (const entry of options.fields) {
      const [field, boostText] = String(primitive(entry, 'multi_match')).split('^');
      if (field.includes('*')) throw unsupported(`the field pattern [${field}] in [multi_match]`);
      const boost = boostText === undefined ? 1 : Number(boostText);
      if (!Number.isFinite(boost)) throw malformed(`[multi_match] field boost of [${String(entry)}] is not a number`);
      const fieldScores = type === 'phrase' ? phraseField(context, field, query, negated) : matchField(context, field, query, and, negated);
      for (const [id, score] of fieldScores) scores.set(id, Math.max(scores.get(id) ?? 0, score * boost));
    }
    return scores;
  },
};
