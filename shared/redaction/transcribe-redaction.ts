import type { PiiEntityType } from '../core/pii-entity-types';
import { PII_MARK, findScoredPii, replaceSpans, type RedactionOptions } from './pii-search';
import type { ScoredSpan } from './scored-span';

/**
 * A Transcribe batch output file redacted as Transcribe writes it with ContentRedaction
 * (RedactionOutput `redacted`): each entity's words become one pronunciation item "[PII]" from
 * the first word's start to the last word's end, whose alternative carries
 * `redactions: [{ confidence, type, category: 'PII' }]` and no ASR confidence; the transcript
 * reads "[PII]" in their place, and the file says `isRedacted: true`. Entities are found on the
 * whole transcript (context words may precede a number by a few words), then mapped to items.
 * Every other text the file holds (audio_segments, speaker and channel item lists, alternatives)
 * is redacted too: nothing of an entity survives anywhere in the returned object.
 */

interface Alternative {
  content: string;
  confidence?: string;
  redactions?: { confidence: string; type: PiiEntityType; category: 'PII' }[];
}
type Time = string | number;
interface Item {
  id?: number;
  type?: string;
  start_time?: Time;
  end_time?: Time;
  speaker_label?: string;
  alternatives?: Alternative[];
  /** Items of alternative transcripts (ShowAlternatives) hold their content directly. */
  content?: string;
  [key: string]: unknown;
}
type Json = Record<string, unknown>;

interface RedactedItems {
  items: Item[];
  text: string;
  /** Old item id → the id of the item that now holds it (itself, or the [PII] item it merged into). */
  ids: Map<number, number | undefined>;
  /** "start/end" of each merged word → the [PII] item's times. */
  times: Map<string, { start_time?: Time; end_time?: Time }>;
  /** The entities' original text, to catch copies elsewhere in the file. */
  originals: string[];
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const contentOf = (item: Item) => item.alternatives?.[0]?.content ?? item.content ?? '';
const timeKey = (start: unknown, end: unknown) => `${String(start)}/${String(end)}`;

function isItemList(value: unknown): value is Item[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (item) =>
        isObject(item) &&
        ((Array.isArray(item.alternatives) && isObject(item.alternatives[0]) && typeof item.alternatives[0].content === 'string') ||
          (typeof item.content === 'string' && ('start_time' in item || 'type' in item))),
    )
  );
}

/** The items as text (words spaced, punctuation attached), redacted, and the items rebuilt around the entities. */
function redactItems(items: readonly Item[], types: readonly PiiEntityType[], options: RedactionOptions): RedactedItems {
  let text = '';
  const ranges = items.map((item) => {
    const content = contentOf(item);
    if (item.type !== 'punctuation' && text && content) text += ' ';
    const start = text.length;
    text += content;
    return { start, end: text.length };
  });
  const spans = findScoredPii(text, types, options);
  const result: RedactedItems = {
    items: [],
    text: '',
    ids: new Map(),
    times: new Map(),
    originals: spans.map((s) => text.slice(s.start, s.end)),
  };
  let open: { span: ScoredSpan; item: Item } | undefined;
  items.forEach((item, index) => {
    const { start, end } = ranges[index];
    const span = start < end ? spans.find((s) => s.start < end && start < s.end) : undefined;
    if (!span) {
      open = undefined;
      result.items.push(item);
      if (item.id !== undefined) result.ids.set(item.id, item.id);
      return;
    }
    if (open?.span === span) {
      if (item.end_time !== undefined) open.item.end_time = item.end_time;
    } else {
      const { alternatives: _alternatives, content: _content, confidence: _confidence, ...rest } = item;
      const redaction = { confidence: span.score.toFixed(4), type: span.type, category: 'PII' as const };
      const mark: Item =
        item.alternatives !== undefined
          ? { ...rest, type: 'pronunciation', alternatives: [{ content: PII_MARK, redactions: [redaction] }] }
          : { ...rest, type: 'pronunciation', content: PII_MARK, redactions: [redaction] };
      open = { span, item: mark };
      result.items.push(mark);
    }
    if (item.id !== undefined) result.ids.set(item.id, open.item.id);
    if (item.start_time !== undefined) result.times.set(timeKey(item.start_time, item.end_time), open.item);
  });
  result.text = textOf(result.items);
  return result;
}

function textOf(items: readonly Item[]): string {
  let text = '';
  for (const item of items) {
    const content = contentOf(item);
    if (item.type !== 'punctuation' && text && content) text += ' ';
    text += content;
  }
  return text;
}

export function redactTranscribeOutput<T>(output: T, types: readonly PiiEntityType[], options: RedactionOptions = {}): T {
  const copy = structuredClone(output) as unknown;
  if (!isObject(copy) || !isObject(copy.results) || types.length === 0) return copy as T;
  const results = copy.results;
  const originals: string[] = [];
  const redactString = (text: string) => {
    const spans = findScoredPii(text, types, options);
    originals.push(...spans.map((s) => text.slice(s.start, s.end)));
    return replaceSpans(text, spans);
  };

  const handled = new Set<unknown>();
  if (isItemList(results.items)) {
    const redacted = redactItems(results.items, types, options);
    originals.push(...redacted.originals);
    results.items = redacted.items;
    handled.add(redacted.items);
    if (Array.isArray(results.transcripts)) {
      results.transcripts.forEach((entry: unknown, index) => {
        if (isObject(entry) && typeof entry.transcript === 'string')
          entry.transcript = index === 0 ? redacted.text : redactString(entry.transcript);
      });
      handled.add(results.transcripts);
    }
    if (Array.isArray(results.audio_segments)) handled.add(redactAudioSegments(results.audio_segments, redacted, redactString));
    if (isObject(results.speaker_labels) && Array.isArray(results.speaker_labels.segments))
      handled.add(mergeSegmentItems(results.speaker_labels.segments, redacted));
  }
  redactRest(results, handled, types, options, redactString, originals);
  copy.isRedacted = true;
  replaceCopies(copy, originals);
  return copy as T;
}

/** Audio segments list item ids and a transcript: the ids of merged items become the [PII] item's, the transcript is rebuilt. */
function redactAudioSegments(segments: unknown[], redacted: RedactedItems, redactString: (text: string) => string): unknown[] {
  const byId = new Map(redacted.items.filter((item) => item.id !== undefined).map((item) => [item.id, item]));
  for (const segment of segments) {
    if (!isObject(segment)) continue;
    const ids = Array.isArray(segment.items) ? segment.items.filter((id): id is number => typeof id === 'number') : [];
    if (ids.length > 0 && ids.every((id) => redacted.ids.has(id))) {
      const kept = [...new Set(ids.map((id) => redacted.ids.get(id)))].filter((id): id is number => id !== undefined);
      segment.items = kept;
      segment.transcript = textOf(kept.map((id) => byId.get(id)).filter((item): item is Item => item !== undefined));
    } else if (typeof segment.transcript === 'string') segment.transcript = redactString(segment.transcript);
  }
  return segments;
}

/** Speaker segments list each word's times: the words of one [PII] become one entry with its times. */
function mergeSegmentItems(segments: unknown[], redacted: RedactedItems): unknown[] {
  for (const segment of segments) {
    if (!isObject(segment) || !Array.isArray(segment.items)) continue;
    const merged: unknown[] = [];
    let previous: unknown;
    for (const entry of segment.items as unknown[]) {
      const mark = isObject(entry) ? redacted.times.get(timeKey(entry.start_time, entry.end_time)) : undefined;
      if (mark && mark === previous) continue;
      previous = mark;
      merged.push(mark && isObject(entry) ? { ...entry, start_time: mark.start_time, end_time: mark.end_time } : entry);
    }
    segment.items = merged;
  }
  return segments;
}

/** Any other list of items (channel labels, alternatives) and any other transcript in the file. */
function redactRest(
  value: unknown,
  handled: Set<unknown>,
  types: readonly PiiEntityType[],
  options: RedactionOptions,
  redactString: (text: string) => string,
  originals: string[],
): void {
  if (handled.has(value) || typeof value !== 'object' || value === null) return;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  for (const [key, child] of entries) {
    const target = value as Record<string | number, unknown>;
    if (isItemList(child) && !handled.has(child)) {
      const redacted = redactItems(child, types, options);
      originals.push(...redacted.originals);
      target[key] = redacted.items;
    } else if (key === 'transcript' && typeof child === 'string') target[key] = redactString(child);
    else redactRest(child, handled, types, options, redactString, originals);
  }
}

/** Last guard: any copy of an entity's text left in another field (a job name, a custom field) becomes [PII]. */
function replaceCopies(value: unknown, originals: readonly string[]): void {
  const phrases = [...new Set(originals.filter((text) => text.trim().length > 0))].sort((a, b) => b.length - a.length);
  if (phrases.length === 0) return;
  const escaped = phrases.map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const target = node as Record<string, unknown>;
    for (const key of Object.keys(target)) {
      const child = target[key];
      if (typeof child === 'string') target[key] = child.replace(pattern, PII_MARK);
      else walk(child);
    }
  };
  walk(value);
}
