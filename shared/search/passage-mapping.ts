/**
 * The passages' index: its mapping, its version and its name. Reads go to the alias; the index
 * behind it is named after the mapping (its version, and its vector size when the deployment has
 * an embedding model), so a new mapping is built beside the old one and the alias swapped to it
 * once it is complete (`search rebuild`, docs/search.md).
 */

/** Bumped with every change of the mapping below. */
export const MAPPING_VERSION = 1;
export const PASSAGES_ALIAS = 'passages';

/** The embedding model's vectors, when the deployment has one. */
export interface VectorSettings {
  dimensions: number;
}

export function passagesIndexName(vectors?: VectorSettings, version = MAPPING_VERSION): string {
  return `${PASSAGES_ALIAS}-v${version}${vectors ? `-knn${vectors.dimensions}` : ''}`;
}

/** Whether an index of ours holds vectors, read from its name. */
export function holdsVectors(indexName: string): boolean {
  return /-knn\d+$/.test(indexName);
}

const keyword = { type: 'keyword' } as const;
/** Text analyzed as English: lower case, stop words out, stems, so "approve" finds "approved". */
const englishText = { type: 'text', analyzer: 'english' } as const;

const PASSAGE_PROPERTIES = {
  id: keyword,
  org_id: keyword,
  recording_id: keyword,
  recorded_by: keyword,
  created_at: { type: 'date' },
  language: keyword,
  title: { type: 'text', analyzer: 'english', fields: { raw: keyword } },
  field: keyword,
  text: englishText,
  start_time: { type: 'float' },
  end_time: { type: 'float' },
  speaker: keyword,
  summary_id: keyword,
  action_item_id: keyword,
  generation: { type: 'long' },
} as const;

/**
 * The create-index body. Vectors are normalized by the model, so the inner product is the cosine;
 * Faiss's HNSW is what OpenSearch Serverless's vector collections run, and it filters while it searches.
 */
export function passageIndexBody(vectors?: VectorSettings): Record<string, unknown> {
  const properties = vectors
    ? {
        ...PASSAGE_PROPERTIES,
        embedding: {
          type: 'knn_vector',
          dimension: vectors.dimensions,
          method: { name: 'hnsw', engine: 'faiss', space_type: 'innerproduct' },
        },
      }
    : PASSAGE_PROPERTIES;
  return { ...(vectors && { settings: { 'index.knn': true } }), mappings: { dynamic: 'strict', properties } };
}
