/** A passage handed to the answerer, numbered as the answer cites it (`[1]`). */
export interface AnswerSource {
  n: number;
  recording_id: string;
  title: string;
  start_time: number | null;
  end_time: number | null;
  speaker: string | null;
  /** The passage, cut around what matched (at most 300 characters): untrusted text. */
  text: string;
}

export interface Answer {
  /** Markdown citing sources as `[n]`. */
  answer: string;
  /** The numbers of the sources the answer cites. */
  cited: number[];
  model: string;
}

/** Writes an answer from retrieved passages only: Bedrock's Converse in AWS, an extractive answer locally. */
export interface Answerer {
  answer(question: string, sources: AnswerSource[]): Promise<Answer>;
}

/** The local answerer: the best passages, quoted and cited, best first. */
export const extractiveAnswerer = (count = 3): Answerer => ({
  answer(_question, sources) {
    const quoted = sources.slice(0, count);
    const lines = quoted.map(
      (source) => `- ${source.speaker ? `${source.speaker}: ` : ''}"${source.text.replace(/\s+/g, ' ').trim()}" [${source.n}]`,
    );
    return Promise.resolve({
      answer: ['What was said in your recordings:', '', ...lines].join('\n'),
      cited: quoted.map((source) => source.n),
      model: 'local-extractive',
    });
  },
});
