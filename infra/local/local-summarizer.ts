import winkNLP, { type ItemSentence, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import type { DraftActionItem, SummarySection } from '../../shared/summarization/summary-engine';
import { actionItemOf, clausesOf } from './local-action-items';
import { apertiumModes, apertiumTranslate } from './apertium';

/**
 * The local summary engine behind the Bedrock stand-in (bedrock-emulator.ts): deterministic and
 * extractive, with wink-nlp's English model (no language model ships in any package reachable
 * here). Per section, the transcript sentences most related to the section's title and prompt,
 * in transcript order; a section about action items, tasks or next steps lists the action items
 * found by rules (local-action-items.ts). It writes English; another language is translated with
 * Apertium when the pair is installed, else the summary stays English and says so
 * (docs/summaries.md, "The local engine").
 */
export interface LocalLine {
  start: number;
  speaker: string;
  text: string;
}

export interface LocalSummaryRequest {
  sections: SummarySection[];
  language: string;
  /** The recording's day, YYYY-MM-DD: relative deadlines resolve against it. */
  day: string;
  lines: LocalLine[];
}

export interface LocalSummary {
  language: string;
  sections: { title: string; markdown: string }[];
  action_items: DraftActionItem[];
}

let nlp: WinkMethods | undefined;
const loaded = () => (nlp ??= winkNLP(model));

/** A collection's tokens as text, or one property of each (its.pos, its.lemma…): wink's typings do not cover `out(its.x)` well. */
type Tokens = { out: (...args: unknown[]) => unknown };
// eslint-disable-next-line @typescript-eslint/unbound-method -- wink's `its` helpers are plain functions, made to be passed as they are.
const field = <T>(tokens: Tokens, name: 'pos' | 'lemma' | 'stopWordFlag') => tokens.out(loaded().its[name]) as T[];

interface Sentence {
  index: number;
  text: string;
  start: number;
  lemmas: string[];
}

/** Words of templates' prompts that say how to write, not what about. */
const PROMPT_WORDS = new Set(
  'bullet bulleted list short brief main point points key summary summarize conversation meeting discuss discussed say said sentence sentence two three four take part outcome important first what who whom when where how record recorded write none none were was there one section markdown'.split(
    ' ',
  ),
);
/** What a section's words are about, widened a little: "Decisions" is about what was agreed or approved. */
const RELATED: [RegExp, string[]][] = [
  [/^decision|^decide|^agree|^approv/, ['decide', 'decision', 'agree', 'approve', 'choose', 'settle', 'confirm', 'final', 'go']],
  [/^risk|^issue|^problem|^concern|^blocker/, ['risk', 'issue', 'problem', 'concern', 'blocker', 'delay', 'block', 'worry']],
  [/^question/, ['question', 'ask', 'unclear', 'wonder']],
  [/^budget|^cost|^price/, ['budget', 'cost', 'price', 'spend', 'money', 'dollar']],
];
const ACTION_SECTION = /action|task|to-?do|next step|follow[- ]?up/i;
const PARAGRAPH_SECTION = /overview|summary|gist|tl;?dr|abstract/i;

export function summarizeTranscript(request: LocalSummaryRequest): LocalSummary {
  const wink = loaded();
  const sentences: Sentence[] = [];
  const actionItems: DraftActionItem[] = [];

  for (const line of request.lines) {
    wink
      .readDoc(line.text)
      .sentences()
      .each((sentence: ItemSentence) => {
        const text = sentence.out().trim();
        const tokens = sentence.tokens() as unknown as Tokens;
        const words = tokens.out() as string[];
        const pos = field<string>(tokens, 'pos');
        const lemmas = field<string>(tokens, 'lemma');
        const stop = field<boolean>(tokens, 'stopWordFlag');
        const posOf = (word: string) => pos[words.findIndex((token) => token.toLowerCase() === word.toLowerCase())];
        // The local speech engine's sentences are lower case but their first letter: names there are not capitalized.
        const caseless = text.slice(1) === text.slice(1).toLowerCase();
        for (const clause of clausesOf(text)) {
          const item = actionItemOf(clause, {
            speaker: line.speaker,
            day: request.day,
            isVerb: (word) => posOf(word) === 'VERB',
            isName: (word) => posOf(word) === 'PROPN' || (caseless && posOf(word) === 'NOUN'),
          });
          // A task said again later (a recap) is the same task: its first mention is kept.
          if (
            item &&
            !actionItems.some((other) => other.text.toLowerCase() === item.text.toLowerCase() && other.assignee === item.assignee)
          ) {
            actionItems.push({ ...item, timestamp: Math.floor(line.start) });
          }
        }
        const content = lemmas.filter((lemma, index) => !stop[index] && /^\p{L}{2,}$/u.test(lemma)).map((lemma) => lemma.toLowerCase());
        if (words.length >= 4) sentences.push({ index: sentences.length, text, start: line.start, lemmas: content });
      });
  }

  // How central a sentence is: how often the transcript repeats its words.
  const frequency = new Map<string, number>();
  for (const sentence of sentences) for (const lemma of new Set(sentence.lemmas)) frequency.set(lemma, (frequency.get(lemma) ?? 0) + 1);
  const centrality = (sentence: Sentence) =>
    sentence.lemmas.length ? sentence.lemmas.reduce((sum, lemma) => sum + (frequency.get(lemma) ?? 0), 0) / sentence.lemmas.length : 0;
  const topCentrality = Math.max(1, ...sentences.map(centrality));

  /** Sentences earlier sections took: later sections prefer others (so do they near-repeats). */
  const used: Sentence[] = [];
  const isUsed = (sentence: Sentence) =>
    used.some((other) => other.index === sentence.index || overlap(other.lemmas, sentence.lemmas) >= 0.6);
  const sections = request.sections.map((section) => {
    const about = `${section.title} ${section.prompt}`;
    if (ACTION_SECTION.test(section.title) || (ACTION_SECTION.test(section.prompt) && !/decision/i.test(section.title))) {
      return {
        title: section.title,
        markdown: actionItems.length ? actionItems.map(actionItemLine).join('\n') : '- No action items were recorded.',
      };
    }
    const paragraph = PARAGRAPH_SECTION.test(section.title);
    // An overview is about the whole conversation: its words say how to write, so only centrality counts.
    const keywords = paragraph ? new Set<string>() : keywordsOf(wink, about);
    const scored = sentences
      .map((sentence) => {
        const matches = sentence.lemmas.filter((lemma) => keywords.has(lemma)).length;
        return { sentence, matches, score: 3 * matches + centrality(sentence) / topCentrality - (isUsed(sentence) ? 2 : 0) };
      })
      .filter(({ matches }) => !keywords.size || matches > 0)
      .sort((a, b) => b.score - a.score || a.sentence.index - b.sentence.index);
    const chosen: Sentence[] = [];
    for (const { sentence } of scored) {
      // The same thing said twice ("Maria will send the contract", then "okay so Maria will send the contract") is one point.
      if (chosen.some((other) => overlap(other.lemmas, sentence.lemmas) >= 0.6)) continue;
      chosen.push(sentence);
      if (chosen.length === (paragraph ? 3 : 5)) break;
    }
    chosen.sort((a, b) => a.index - b.index);
    used.push(...chosen);
    if (!chosen.length) return { title: section.title, markdown: '- Nothing was said about this.' };
    const texts = chosen.map((sentence) => asSentence(sentence.text));
    return { title: section.title, markdown: paragraph ? texts.join(' ') : texts.map((text) => `- ${text}`).join('\n') };
  });
  return { language: 'English', sections, action_items: actionItems };
}

/** Jaccard similarity of two sentences' words. */
function overlap(a: string[], b: string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  const shared = [...left].filter((word) => right.has(word)).length;
  return shared / Math.max(1, left.size + right.size - shared);
}

function keywordsOf(wink: WinkMethods, text: string): Set<string> {
  const tokens = wink.readDoc(text.toLowerCase()).tokens() as unknown as Tokens;
  const lemmas = field<string>(tokens, 'lemma');
  const stop = field<boolean>(tokens, 'stopWordFlag');
  const keywords = new Set(lemmas.filter((lemma, index) => !stop[index] && /^\p{L}{2,}$/u.test(lemma) && !PROMPT_WORDS.has(lemma)));
  for (const word of [...keywords])
    for (const [pattern, related] of RELATED) if (pattern.test(word)) related.forEach((lemma) => keywords.add(lemma));
  return keywords;
}

/** A sentence as a bullet: capitalized, ended, and cut at 40 words (unpunctuated speech makes very long ones). */
const asSentence = (text: string) => {
  const words = text.trim().split(/\s+/);
  const trimmed = words.length > 40 ? `${words.slice(0, 40).join(' ')}…` : words.join(' ');
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
};

function actionItemLine(item: DraftActionItem): string {
  const details = [item.assignee, item.due_date ? `due ${item.due_date}` : null].filter(Boolean).join(', ');
  return `- ${item.text}${details ? ` (${details})` : ''}`;
}

/** Apertium modes for the conversation languages it can write from English (`apertium -l` lists the installed ones). */
export const APERTIUM_MODES: Record<string, string> = {
  Spanish: 'eng-spa',
  Catalan: 'eng-cat',
  French: 'eng-fra',
  Italian: 'eng-ita',
  Portuguese: 'eng-por',
  Galician: 'eng-glg',
};

/** The languages the local engine writes: English, and those Apertium has the pair for (npm start's banner). */
export async function localSummaryLanguages(): Promise<string[]> {
  const modes = await apertiumModes();
  return [
    'English',
    ...Object.entries(APERTIUM_MODES)
      .filter(([, mode]) => modes.has(mode))
      .map(([language]) => language),
  ];
}

/** The language the local engine writes when asked for `language`: it, when Apertium has the pair from English; else English. */
export async function localOutputLanguage(language: string): Promise<string> {
  const mode = APERTIUM_MODES[language];
  return mode && (await apertiumModes()).has(mode) ? language : 'English';
}

/** The summary in the language asked for when Apertium has the pair; else as it is, in English. */
export async function summarizeLocally(request: LocalSummaryRequest): Promise<LocalSummary> {
  const summary = summarizeTranscript(request);
  if ((await localOutputLanguage(request.language)) === 'English') return summary;
  const mode = APERTIUM_MODES[request.language];
  // One call for every line: Apertium keeps lines apart (-u: unknown words unmarked).
  const lines = [...summary.sections.map((section) => section.markdown), ...summary.action_items.map((item) => item.text)].flatMap((text) =>
    text.split('\n'),
  );
  const translated = (await apertiumTranslate(mode, `${lines.join('\n')}\n`)).split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
  if (translated.length < lines.length) return summary;
  let next = 0;
  const take = (text: string) =>
    text
      .split('\n')
      .map(() => translated[next++])
      .join('\n');
  return {
    language: request.language,
    sections: summary.sections.map((section) => ({ title: section.title, markdown: take(section.markdown) })),
    action_items: summary.action_items.map((item) => ({ ...item, text: take(item.text) })),
  };
}
