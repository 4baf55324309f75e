import { phraseStarts } from './analyzer';
import { comparable, valuesAt } from './field-values';
import type { HighlightTerms } from './query';
import type { SearchIndex } from './search-index';
import { malformed, objectAt, onlyKeys, textOf, unsupported } from './search-error';

/**
 * The `highlight` part of a search, for whole fields (number_of_fragments 0): each value of a
 * field in which the query's terms occur, with the tags around each matching word as it is
 * written in the document (not its stem), and around each word of an occurrence of a queried
 * phrase. Fragments (any other number_of_fragments) are refused rather than approximated.
 */
interface FieldHighlight {
  field: string;
  pre: string;
  post: string;
  html: boolean;
  /** require_field_match false: the terms queried on any field mark this one. */
  anyField: boolean;
}

export type HighlightRequest = FieldHighlight[];

const OPTIONS = ['pre_tags', 'post_tags', 'number_of_fragments', 'fragment_size', 'require_field_match', 'encoder', 'type'];

function tagOf(value: unknown, fallback: string, key: string): string {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string') {
    if (Array.isArray(value) && value.length > 1) throw unsupported(`more than one of [${key}] in [highlight]`);
    throw malformed(`[highlight] expects [${key}] as an array of strings`);
  }
  return value[0];
}

function optionsOf(raw: Record<string, unknown>, inherited: FieldHighlight, field: string): FieldHighlight {
  const fragments = raw.number_of_fragments;
  if (fragments !== undefined && fragments !== 0) throw unsupported('[number_of_fragments] other than 0 (the whole field) in [highlight]');
  if (raw.type !== undefined && raw.type !== 'unified' && raw.type !== 'plain') throw unsupported(`the [${textOf(raw.type)}] highlighter`);
  if (raw.encoder !== undefined && raw.encoder !== 'default' && raw.encoder !== 'html')
    throw malformed(`unknown [encoder] ${textOf(raw.encoder)}`);
  if (raw.require_field_match !== undefined && typeof raw.require_field_match !== 'boolean')
    throw malformed('[require_field_match] must be a boolean');
  return {
    field,
    pre: tagOf(raw.pre_tags, inherited.pre, 'pre_tags'),
    post: tagOf(raw.post_tags, inherited.post, 'post_tags'),
    html: raw.encoder === undefined ? inherited.html : raw.encoder === 'html',
    anyField: raw.require_field_match === undefined ? inherited.anyField : !raw.require_field_match,
  };
}

export function parseHighlight(raw: unknown): HighlightRequest {
  const object = objectAt(raw, 'highlight');
  onlyKeys(object, [...OPTIONS, 'fields'], '[highlight]');
  const fieldsRaw = object.fields;
  // A field's own number_of_fragments overrides the top-level one, so the top-level 5 is only refused when a field inherits it.
  const top = optionsOf(
    { ...object, fields: undefined, number_of_fragments: 0 },
    { field: '', pre: '<em>', post: '</em>', html: false, anyField: false },
    '',
  );
  const entries: [string, unknown][] = Array.isArray(fieldsRaw)
    ? fieldsRaw.flatMap((entry) => Object.entries(objectAt(entry, 'highlight.fields')))
    : Object.entries(objectAt(fieldsRaw ?? {}, 'highlight.fields'));
  if (!entries.length) throw malformed('[highlight] requires [fields]');
  return entries.map(([field, options]) => {
    if (field.includes('*')) throw unsupported(`the field pattern [${field}] in [highlight]`);
    const own = objectAt(options ?? {}, `highlight.fields.${field}`);
    onlyKeys(own, OPTIONS, `[highlight.fields.${field}]`);
    const fragments = own.number_of_fragments ?? object.number_of_fragments ?? 5;
    return optionsOf({ ...own, number_of_fragments: fragments }, top, field);
  });
}

/** What the html encoder (Lucene's SimpleHTMLEncoder) replaces. */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '/': '&#x2F;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"'/]/g, (c) => HTML_ENTITIES[c]);
}

/** What marks a field: its own notes, or every field's when require_field_match is false. */
function notesFor(request: FieldHighlight, notes: Map<string, HighlightTerms>): HighlightTerms | undefined {
  if (!request.anyField) return notes.get(request.field);
  const merged: HighlightTerms = { terms: new Set(), phrases: [], exact: new Set() };
  for (const note of notes.values()) {
    note.terms.forEach((term) => merged.terms.add(term));
    merged.phrases.push(...note.phrases);
    note.exact.forEach((value) => merged.exact.add(value));
  }
  return merged;
}

/** The highlight of one hit, or undefined when none of its highlighted fields holds a queried term. */
export function highlightHit(
  index: SearchIndex,
  source: Record<string, unknown>,
  request: HighlightRequest,
  notes: Map<string, HighlightTerms>,
): Record<string, string[]> | undefined {
  const out: Record<string, string[]> = {};
  for (const field of request) {
    const spec = index.fields.get(field.field);
    const note = notesFor(field, notes);
    if (!spec || !note) continue;
    const encode = field.html ? escapeHtml : (text: string) => text;
    const values: string[] = [];
    if (spec.type === 'text') {
      for (const { text, tokens } of index.tokensOf(source, spec)) {
        const marked = new Set<number>();
        tokens.forEach((token, i) => token.term !== undefined && note.terms.has(token.term) && marked.add(i));
        for (const phrase of note.phrases)
          for (const start of phraseStarts(tokens, phrase)) phrase.forEach(({ offset }) => marked.add(start + offset));
        if (!marked.size) continue;
        let result = '';
        let at = 0;
        for (const i of [...marked].sort((a, b) => a - b)) {
          const { start, end } = tokens[i];
          result += encode(text.slice(at, start)) + field.pre + encode(text.slice(start, end)) + field.post;
          at = end;
        }
        values.push(result + encode(text.slice(at)));
      }
    } else if (spec.type !== 'object') {
      for (const value of valuesAt(source, spec.sourcePath)) {
        const converted = comparable(spec, value);
        if (converted !== undefined && note.exact.has(converted)) values.push(field.pre + encode(textOf(value)) + field.post);
      }
    }
    if (values.length) out[field.field] = values;
  }
  return Object.keys(out).length ? out : undefined;
}
