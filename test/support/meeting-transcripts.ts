import type { TranscriptSegment } from '../../shared/storage/recording-part-items';

/**
 * Realistic meeting transcripts of a given length, deterministic: sentences of a planning meeting
 * (updates, numbers, decisions, tasks with deadlines, small talk) said in turn by four speakers at
 * 150 words a minute, about the pace of conversation. For the summary figures and timings.
 */
const BANK = [
  'Good morning everyone, thanks for joining the weekly planning meeting.',
  'Let us start with the status of the mobile release.',
  'The beta went out on Monday and we have about four hundred testers so far.',
  'Crash reports are down by thirty percent since the last build.',
  'The biggest complaint is still the slow login on older Android phones.',
  'I looked into it and the token refresh runs twice on a cold start.',
  'That should be an easy fix once the new authentication library lands.',
  'We decided to move the public launch to the second week of March.',
  'Marketing needs the final screenshots two weeks before that date.',
  'Maria will send the contract to the agency by Friday.',
  'Tom to review the budget for the new office by next week.',
  'The budget for the new office is approved, with a ceiling of two hundred thousand.',
  'Facilities asked whether we want the open plan or the smaller rooms.',
  'Most of the team prefers a mix, with two quiet rooms for calls.',
  'I will book the workshop room for the design review on Thursday.',
  'The risk is that the vendor delays the delivery of the new laptops.',
  'If that happens the onboarding of the three new engineers slips too.',
  'We agreed to order from the second supplier as a fallback.',
  'Support tickets are stable at around sixty a day.',
  'Most of them are about password resets and billing questions.',
  'We should add a self service page for invoices this quarter.',
  'Priya will draft the customer survey by the end of the month.',
  'The survey goes to the hundred largest accounts first.',
  'Does anyone have questions about the hiring plan?',
  'We have two open roles in data engineering and one in design.',
  'The design candidate from last week was very strong.',
  'Sam will schedule the final interview for tomorrow afternoon.',
  'Finance wants the forecast for next year before the board meeting.',
  'We decided to keep the current pricing until the summer.',
  'Let us revisit the enterprise tier after the launch.',
  'The partner integration is almost done, only the webhooks are missing.',
  'Alex will finish the webhook retries by Wednesday.',
  'Security review found two medium issues and no critical ones.',
  'Both medium issues are fixed in the branch that ships next week.',
  'Okay, that covers the agenda for today.',
  'Thanks everyone, see you next week.',
];
const SPEAKERS = ['spk_0', 'spk_1', 'spk_2', 'spk_3'];
export const WORDS_PER_MINUTE = 150;

/** A transcript of about `minutes` minutes: one segment per sentence, the bank repeated in a shifted order. */
export function meetingTranscript(minutes: number): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let at = 0;
  for (let index = 0; at < minutes * 60; index++) {
    const round = Math.floor(index / BANK.length);
    const text = BANK[(index + round * 7) % BANK.length];
    const seconds = (text.split(' ').length / WORDS_PER_MINUTE) * 60;
    segments.push({
      speaker: SPEAKERS[(index + round) % SPEAKERS.length],
      text,
      start: Math.round(at * 100) / 100,
      end: Math.round((at + seconds) * 100) / 100,
    });
    at += seconds + 0.4;
  }
  return segments;
}
