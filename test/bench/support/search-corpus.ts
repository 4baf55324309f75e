/**
 * The meetings the search benchmark (search.bench.ts) indexes and asks about: an organization's
 * transcribed recordings, the same for the same seed, each a title and a transcript of a few
 * speaker turns composed from one vocabulary. So a common word ("budget") is said in about a
 * fifth of the recordings, a customer's name ("Halvorsen") in one of 250, and the words of a
 * phrase ("contract renewal") also stand apart, where the phrase must not match.
 *
 * The recordings are fixture entries: the seed loads them as they are (the local deployment),
 * and fixtureRecording() with the storage layer's item builders gives the very items the seed
 * writes, for BatchWrite (the benchmark's own table).
 */
import type { Fixture } from '../../../shared/schemas/fixture';
import { fixtureRecording } from '../../../shared/operator-tasks/ensure-recording';
import { recordingItem } from '../../../shared/storage/recording-items';
import { partItems } from '../../../shared/storage/recording-part-items';
import { prng } from './bench-harness';

export type CorpusRecording = Fixture['recordings'][number] & { transcript: NonNullable<Fixture['recordings'][number]['transcript']> };

export interface Corpus {
  orgId: string;
  recorders: string[];
  recordings: CorpusRecording[];
}

const SUBJECTS = ['We', 'The team', 'Maria', 'Tom', 'Priya', 'Sam', 'Alex', 'Finance', 'Marketing', 'Support', 'Legal', 'The vendor'];
const VERBS = [
  'reviewed',
  'approved',
  'postponed',
  'discussed',
  'questioned',
  'finalized',
  'drafted',
  'rejected',
  'estimated',
  'shipped',
  'planned',
  'escalated',
  'renegotiated',
  'audited',
];
const OBJECTS = [
  'the budget for the new office',
  'the quarterly forecast',
  'the hiring plan',
  'the mobile release',
  'the pricing page',
  'the security review',
  'the customer survey',
  'the onboarding checklist',
  'the partner integration',
  'the spring campaign',
  'the support backlog',
  'the data migration',
  'the warehouse lease',
  'the travel policy',
  'the invoice template',
  'the launch timeline',
  'the analytics dashboard',
  'the contract renewal',
  'the supplier contract',
  'the training schedule',
];
const TAILS = [
  'by Friday',
  'before the board meeting',
  'for next quarter',
  'after the launch',
  'with two open questions',
  'in the last sprint',
  'for the European customers',
  'ahead of the audit',
  'with a ceiling of fifty thousand',
  'until the summer',
  'this morning',
  'before the renewal date',
  'without the legal sign-off',
  'during the offsite',
];
const REMARKS = [
  'Good morning everyone, thanks for joining.',
  'Can everyone hear me?',
  'Let us move to the next item.',
  'I will send the notes after the call.',
  'Any questions before we wrap up?',
  'That sounds reasonable to me.',
  'Let me share my screen.',
  'Could you repeat the last number?',
];
const TITLE_TOPICS = ['Budget', 'Pricing', 'Hiring', 'Launch', 'Security', 'Partner', 'Support', 'Marketing', 'Finance', 'Design'];
const TITLE_KINDS = ['review', 'sync', 'standup', 'planning', 'retro', 'call'];
const SPEAKERS = ['spk_0', 'spk_1', 'spk_2', 'spk_3'];
const RARE_TURN = 'Halvorsen Logistics asked for a discount on the pilot.';
/** One recording in RARE_EVERY says RARE_TURN (the 18th, the 268th...: the small organization has one). */
const RARE_EVERY = 250;
const WORDS_PER_SECOND = 2.5;
const FIRST_DAY = Date.parse('2026-03-01T00:00:00.000Z');
const DAYS = 60;

/** The words and phrase the benchmark searches for, and what each must find. */
export const SEARCHED = {
  common: { q: 'budget', pattern: /\bbudget\b/i },
  rare: { q: 'halvorsen', pattern: /\bhalvorsen\b/i },
  phrase: { q: '"contract renewal"', pattern: /\bcontract renewal\b/i },
} as const;

/**
 * `size` recordings of `orgId`, by `recorders` in turn at random: every title ends with
 * "meeting" (so that a title search finds them all), every transcript has 2 to 4 turns of one
 * or two sentences, most about a piece of work, some remarks.
 */
export function corpusOf(input: { orgId: string; size: number; recorders: string[]; seed: number; idPrefix: string }): Corpus {
  const pick = prng(input.seed);
  const one = <T>(list: readonly T[]) => list[pick(list.length)];
  const sentence = () => (pick(5) === 0 ? one(REMARKS) : `${one(SUBJECTS)} ${one(VERBS)} ${one(OBJECTS)} ${one(TAILS)}.`);
  const recordings: CorpusRecording[] = [];
  for (let index = 0; index < input.size; index++) {
    const texts = Array.from({ length: 2 + pick(3) }, () => (pick(2) ? `${sentence()} ${sentence()}` : sentence()));
    if (index % RARE_EVERY === 17) texts.splice(1, 0, RARE_TURN);
    let at = 0.5;
    const transcript = texts.map((text, turn) => {
      const seconds = Math.round((text.split(' ').length / WORDS_PER_SECOND) * 100) / 100;
      const segment = { speaker: SPEAKERS[(turn + index) % SPEAKERS.length], text, start: at, end: Math.round((at + seconds) * 100) / 100 };
      at = segment.end + 0.4;
      return segment;
    });
    // Seconds then milliseconds: the PRNG draws at most 2^24.
    const createdAt = new Date(FIRST_DAY + pick(DAYS) * 86_400_000 + pick(86_400) * 1000 + pick(1000)).toISOString();
    recordings.push({
      id: `rec_${input.idPrefix}_${index}`,
      org_id: input.orgId,
      recorded_by: input.recorders[pick(input.recorders.length)],
      title: `${one(TITLE_TOPICS)} ${one(TITLE_KINDS)} meeting ${index + 1}`,
      description: '',
      duration: Math.ceil(at),
      language: 'en-US',
      tags: [],
      folder_id: null,
      state: 'ready',
      created_at: createdAt,
      transcript,
    });
  }
  return { orgId: input.orgId, recorders: input.recorders, recordings };
}

/** The items the seed writes for each recording (the recording, its transcript's header and chunks), for BatchWrite. */
export function corpusItems(corpus: Corpus, now: Date): Record<string, unknown>[] {
  return corpus.recordings.flatMap((entry) => {
    const { recording, parts } = fixtureRecording(entry, now, 30);
    return [recordingItem(recording), ...partItems(recording.org_id, recording.id, parts)];
  });
}

/** The ids of the recordings whose title or transcript matches `pattern` (and, given, recorded by `recordedBy`). */
export function matchingIds(corpus: Corpus, pattern: RegExp, recordedBy?: string): Set<string> {
  return new Set(
    corpus.recordings
      .filter(
        (r) => (!recordedBy || r.recorded_by === recordedBy) && (pattern.test(r.title) || r.transcript.some((s) => pattern.test(s.text))),
      )
      .map((r) => r.id),
  );
}

/** The passages indexing the corpus makes: one per title and per speaker turn. */
export const passageCount = (corpus: Corpus): number => corpus.recordings.reduce((sum, r) => sum + 1 + r.transcript.length, 0);

/** `count` questions about the vocabulary's pieces of work, as a member would ask them. */
export function questions(count: number): string[] {
  const forms = [
    (object: string) => `What did we decide about ${object}?`,
    (object: string) => `Who approved ${object}?`,
    (object: string) => `When is ${object} due?`,
    (object: string) => `Why was ${object} postponed?`,
  ];
  return Array.from({ length: count }, (_, i) => forms[i % forms.length](OBJECTS[(i * 7) % OBJECTS.length]));
}
