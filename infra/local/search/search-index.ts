import MiniSearch from 'minisearch';
import { analyze, tokenize, type Token } from './analyzer';
import { type Comparable, docValues, type FieldSpec, textValues } from './field-values';
import { fieldsOf, mapDocument, type Mappings } from './mapping';
import { SearchError } from './search-error';

/**
 * One index: its mappings, its documents (by _id, with OpenSearch's _version and _seq_no) and a
 * MiniSearch index of its text fields, which scores text queries with BM25. The documents are the
 * record; the MiniSearch index is rebuilt from them whenever it is loaded or its fields change.
 */
export interface StoredDocument {
  _id: string;
  _version: number;
  _seq_no: number;
  _source: Record<string, unknown>;
}

/** One write, as the journal keeps it. */
export type JournalEntry = { put: StoredDocument } | { remove: string; seqNo: number };

export interface IndexMeta {
  name: string;
  uuid: string;
  creationDate: number;
  settings: Record<string, unknown>;
  mappings: Mappings;
  aliases: string[];
}

/** Lucene's BM25 (k1 1.2, b 0.75, no BM25+ term floor) rather than MiniSearch's defaults. */
const BM25 = { k: 1.2, b: 0.75, d: 0 };

export class SearchIndex {
  readonly docs = new Map<string, StoredDocument>();
  fields: Map<string, FieldSpec>;
  /** The last sequence number given; each write takes the next, as on a shard. */
  seqNo = -1;
  /** The writes since the catalog last saved this index (catalog.ts appends them to its journal). */
  readonly unsaved: JournalEntry[] = [];
  private engine: MiniSearch<StoredDocument>;
  private textFields: string[];
  /** Per exact-valued field (keyword, number, date, boolean): the documents holding each value, built on first use. */
  private valueIds = new Map<string, Map<Comparable, Set<string>>>();

  constructor(readonly meta: IndexMeta) {
    this.fields = fieldsOf(meta.mappings);
    this.textFields = this.textFieldNames();
    this.engine = this.newEngine();
  }

  get name(): string {
    return this.meta.name;
  }

  /** Stored documents, as read back from disk: checked against the mappings again (which they may extend). */
  restore(documents: StoredDocument[], seqNo: number): void {
    for (const document of documents) {
      try {
        this.meta.mappings = mapDocument(this.meta.mappings, document._id, document._source);
      } catch {
        // A document a cluster accepted stays searchable as far as it goes.
      }
      this.docs.set(document._id, document);
    }
    this.seqNo = Math.max(seqNo, ...documents.map((document) => document._seq_no));
    this.fields = fieldsOf(this.meta.mappings);
    this.textFields = this.textFieldNames();
    this.engine = this.newEngine();
    this.valueIds.clear();
  }

  /** The documents whose field holds one of the values exactly: from the field's value index, kept as documents change (read only). */
  idsWithValue(spec: FieldSpec, values: readonly Comparable[]): ReadonlySet<string> {
    const sets = this.setsWithValue(spec, values);
    if (sets.length === 1) return sets[0];
    const ids = new Set<string>();
    for (const set of sets) set.forEach((id) => ids.add(id));
    return ids;
  }

  /** The documents holding each of the values, one set per value (read only): counted or tested without building their union. */
  setsWithValue(spec: FieldSpec, values: readonly Comparable[]): ReadonlySet<string>[] {
    let byValue = this.valueIds.get(spec.path);
    if (!byValue) {
      byValue = new Map();
      this.valueIds.set(spec.path, byValue);
      for (const document of this.docs.values()) this.indexValues(spec.path, byValue, document, true);
    }
    const found = byValue;
    return values.map((value) => found.get(value) ?? new Set<string>());
  }

  private indexValues(path: string, byValue: Map<Comparable, Set<string>>, document: StoredDocument, add: boolean): void {
    const spec = this.fields.get(path);
    if (!spec) return;
    for (const value of docValues(document._source, spec)) {
      let ids = byValue.get(value);
      if (!ids) byValue.set(value, (ids = new Set()));
      if (add) ids.add(document._id);
      else ids.delete(document._id);
    }
  }

  private reindexValues(document: StoredDocument, add: boolean): void {
    for (const [path, byValue] of this.valueIds) this.indexValues(path, byValue, document, add);
  }

  /** Indexes a document (replacing one with its _id); `create` refuses an existing _id. Answers whether the mappings grew. */
  put(
    id: string,
    source: Record<string, unknown>,
    create = false,
  ): { document: StoredDocument; created: boolean; mappingsChanged: boolean } {
    const previous = this.docs.get(id);
    if (previous && create)
      throw new SearchError(
        409,
        'version_conflict_engine_exception',
        `[${id}]: version conflict, document already exists (current version [${previous._version}])`,
        {
          index: this.name,
          shard: '0',
          index_uuid: this.meta.uuid,
        },
      );
    const mappings = mapDocument(this.meta.mappings, id, source);
    const document: StoredDocument = { _id: id, _version: (previous?._version ?? 0) + 1, _seq_no: ++this.seqNo, _source: source };
    // A re-indexed document moves to the end, as a new Lucene document does.
    this.docs.delete(id);
    this.docs.set(id, document);
    this.unsaved.push({ put: document });
    const mappingsChanged = mappings !== this.meta.mappings;
    if (mappingsChanged) this.meta.mappings = mappings;
    this.fields = mappingsChanged ? fieldsOf(mappings) : this.fields;
    if (mappingsChanged) this.valueIds.clear();
    else {
      if (previous) this.reindexValues(previous, false);
      this.reindexValues(document, true);
    }
    const textFields = this.textFieldNames();
    if (textFields.join('\n') !== this.textFields.join('\n')) {
      this.textFields = textFields;
      this.engine = this.newEngine();
    } else {
      if (previous) this.engine.remove(previous);
      this.engine.add(document);
    }
    return { document, created: !previous, mappingsChanged };
  }

  remove(id: string): StoredDocument | undefined {
    const previous = this.docs.get(id);
    if (!previous) return undefined;
    this.docs.delete(id);
    this.engine.remove(previous);
    this.reindexValues(previous, false);
    this.seqNo++;
    this.unsaved.push({ remove: id, seqNo: this.seqNo });
    return { ...previous, _version: previous._version + 1, _seq_no: this.seqNo };
  }

  /**
   * BM25 scores of the documents whose text field holds the query's terms (any of them, or all
   * with `and`). MiniSearch multiplies a document's score by the number of query terms it holds;
   * that factor is taken out so that the score is the sum over terms, as Lucene's is.
   */
  textScores(field: string, query: string, and: boolean): Map<string, number> {
    const spec = this.fields.get(field);
    if (!spec || spec.type !== 'text') return new Map();
    const results = this.engine.search(query, {
      fields: [field],
      combineWith: and ? 'AND' : 'OR',
      tokenize: (text) => analyze(text, spec.analyzer),
      processTerm: (term) => term,
      prefix: false,
      fuzzy: false,
      bm25: BM25,
    });
    return new Map(results.map((result) => [String(result.id), result.score / Math.max(1, result.queryTerms.length)]));
  }

  /** The words of each value of a document's text field, for phrases and highlights. */
  tokensOf(source: unknown, spec: FieldSpec): { text: string; tokens: Token[] }[] {
    return textValues(source, spec).map((text) => ({ text, tokens: tokenize(text, spec.analyzer) }));
  }

  private textFieldNames(): string[] {
    return [...this.fields.values()].filter((spec) => spec.type === 'text').map((spec) => spec.path);
  }

  private newEngine(): MiniSearch<StoredDocument> {
    const engine = new MiniSearch<StoredDocument>({
      idField: '_id',
      fields: this.textFields,
      extractField: (document, field) => {
        if (field === '_id') return document._id;
        const spec = this.fields.get(field);
        const values = spec ? textValues(document._source, spec) : [];
        return values.length ? values.join('\n') : undefined;
      },
      tokenize: (text, field) => analyze(text, this.fields.get(field ?? '')?.analyzer ?? 'english'),
      processTerm: (term) => term,
      autoVacuum: false,
    });
    engine.addAll([...this.docs.values()]);
    return engine;
  }
}
