/* Contract stub (plan-30, helper E's names): replaced by the engines branch. */
export const BUILT_IN_TEMPLATE = {
  name: 'Standard summary',
  sections: [
    { title: 'Overview', prompt: 'What the conversation was about, in two or three sentences.' },
    { title: 'Key points', prompt: 'The main points discussed.' },
    { title: 'Decisions', prompt: 'The decisions taken.' },
    { title: 'Action items', prompt: 'The tasks agreed, with who does them and by when.' },
  ],
};
