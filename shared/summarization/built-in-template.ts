import type { SummarySection } from './summary-engine';

/**
 * The template used when the organization has no default one ("a built-in template
 * (Overview, Key points, Decisions, Action items) is used and named as such").
 */
export const BUILT_IN_TEMPLATE: { name: string; sections: SummarySection[] } = {
  name: 'Standard summary',
  sections: [
    { title: 'Overview', prompt: 'In two to four sentences: what the conversation was about, who took part and its outcome.' },
    { title: 'Key points', prompt: 'The main points discussed, as a short bulleted list, most important first.' },
    {
      title: 'Decisions',
      prompt: 'The decisions that were made or agreed, as a bulleted list; say "No decisions were recorded." when there were none.',
    },
    {
      title: 'Action items',
      prompt: 'The tasks, next steps and follow-ups agreed, as a bulleted list: who does what, and by when if it was said.',
    },
  ],
};
