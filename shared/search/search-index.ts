import type { SearchField, SearchMode } from '../core/search-fields';
import type { Passage } from './passages';

export type { SearchMode } from '../core/search-fields';

/**
 * A search as the domain asks it of the index. The organization comes from the caller, never
 * from the request; a personal key's search carries its owner in `recordedBy`.
 */
export interface PassageQuery {
  orgId: string;
  /** The words to find, all of them (or, with anyWord, any of them, the passages with more first), in any case and inflection. */
  words: string;
  anyWord?: boolean;
  /** Phrases that must appear as written (the quoted parts of `q`). */
  phrases: string[];
  mode: SearchMode;
  fields: readonly SearchField[];
  recordedBy?: string;
  /** ISO 8601 bounds on the recording's `created_at`, inclusive. */
  from?: string;
  to?: string;
  language?: string;
  /** How many passages to consider, best first. */
  size: number;
  /** Rank only: the passages come without their text and highlights, which `show` gives for the few a page shows. */
  light?: boolean;
}

/** A passage that matched, with where in its text: `[start, end)` character offsets. */
export interface PassageHit {
  passage: Passage;
  score: number;
  highlights: [number, number][];
  /** The index's own id of the passage's document: what `show` takes. */
  ref: string;
}

/**
 * The search index's port: the domain plans, the adapter (OpenSearch in AWS, the local
 * stand-in of its REST API under `npm start`) stores and finds.
 */
export interface SearchIndex {
  /** Whether the deployment has an embedding model (semantic and hybrid search; semantic is 409 while its index has no vectors yet). */
  readonly semantic: boolean;
  /** Makes the index hold exactly these passages for the recording: writes them, then removes older generations. */
  replaceRecording(orgId: string, recordingId: string, passages: Passage[], generation: number): Promise<void>;
  /** Removes every passage of the recording. */
  removeRecording(orgId: string, recordingId: string): Promise<void>;
  search(query: PassageQuery): Promise<PassageHit[]>;
  /** The passages of these refs (from a light search), with their text and the query's highlights; one gone meanwhile is left out. */
  show(query: PassageQuery, refs: readonly string[]): Promise<PassageHit[]>;
}
