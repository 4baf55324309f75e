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

/**
 * The local answerer: the best passages, quoted and cited, best first. A passage whose words
 * another chosen one already holds (a summary repeating the transcript) is skipped, and what
 * was said (with its time) comes before what was written about it.
 */
export const extractiveAnswerer = (count = 3): Answerer => ({
  answer(_question, sources) {
    const wordsOf = (text: string) =>
      text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    const said = [...sources].sort((a, b) => Number(b.start_time !== null) - Number(a.start_time !== null));
    const quoted: AnswerSource[] = [];
    for (const source of said) {
      const words = wordsOf(source.text);
      if (quoted.some((chosen) => wordsOf(chosen.text).includes(words) || words.includes(wordsOf(chosen.text)))) continue;
      quoted.push(source);
      if (quoted.length === count) break;
    }
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
