import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseMappings } from './mapping';
import { type IndexMeta, type JournalEntry, SearchIndex, type StoredDocument } from './search-index';
import { illegalArgument, indexNotFound, objectAt, onlyKeys, SearchError, unsupported } from './search-error';

/**
 * The indices and their aliases, kept in `<dataDir>`: `catalog.json` holds every index's
 * settings, mappings and aliases (one file, so that an alias swap across indices is saved at
 * once), `indices/<uuid>.json` each index's documents as of its last compaction, and
 * `indices/<uuid>.log` the writes since, one JSON line each, appended before a write is answered
 * (rewriting every document at each write made indexing slower the bigger the index). Whole
 * files are written to a temporary name and renamed; a journal's torn last line, from a stop in
 * the middle of an append, is ignored at load, so a stop at any moment loses no answered write.
 */
interface CatalogFile {
  format: 1;
  indices: IndexMeta[];
}

interface DocumentsFile {
  seqNo: number;
  documents: StoredDocument[];
}

let temporaryCount = 0;

/** A journal shorter than this is never compacted: small indices append instead of rewriting. */
const COMPACT_AT_BYTES = 1 << 20;

/** A journal's entries in order, up to a torn last line. */
function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  const entries: JournalEntry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      break;
    }
  }
  return entries;
}

function writeAtomically(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${++temporaryCount}.tmp`;
  writeFileSync(temporary, JSON.stringify(value));
  renameSync(temporary, file);
}

/** OpenSearch's rules for index (and alias) names. */
export function checkName(name: string, what: 'index' | 'alias'): void {
  const invalid = (reason: string) =>
    new SearchError(
      400,
      what === 'index' ? 'invalid_index_name_exception' : 'invalid_alias_name_exception',
      `Invalid ${what} name [${name}], ${reason}`,
      {
        index: name,
        index_uuid: '_na_',
      },
    );
  if (!name || name === '.' || name === '..') throw invalid('must not be empty, "." or ".."');
  if (name !== name.toLowerCase()) throw invalid('must be lowercase');
  if (/^[-_+]/.test(name)) throw invalid("must not start with '_', '-', or '+'");
  if (/[\\/*?"<>| ,#:]/.test(name)) throw invalid('must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?, #, :]');
  if (Buffer.byteLength(name) > 255) throw invalid('index name is too long');
}

export class Catalog {
  readonly indices = new Map<string, SearchIndex>();

  private constructor(private readonly dataDir: string) {}

  /** Reads the catalog and the documents back; a missing directory is an empty catalog. */
  static load(dataDir: string): Catalog {
    const catalog = new Catalog(dataDir);
    const file = path.join(dataDir, 'catalog.json');
    if (!existsSync(file)) return catalog;
    const saved = JSON.parse(readFileSync(file, 'utf8')) as CatalogFile;
    for (const meta of saved.indices) {
      const index = new SearchIndex(meta);
      const documentsFile = catalog.documentsFile(meta.uuid);
      const saved = existsSync(documentsFile)
        ? (JSON.parse(readFileSync(documentsFile, 'utf8')) as DocumentsFile)
        : { seqNo: -1, documents: [] };
      const documents = new Map(saved.documents.map((document) => [document._id, document]));
      let seqNo = saved.seqNo;
      for (const entry of readJournal(catalog.journalFile(meta.uuid))) {
        if ('put' in entry) {
          documents.delete(entry.put._id);
          documents.set(entry.put._id, entry.put);
          seqNo = Math.max(seqNo, entry.put._seq_no);
        } else {
          documents.delete(entry.remove);
          seqNo = Math.max(seqNo, entry.seqNo);
        }
      }
      if (documents.size || seqNo >= 0) index.restore([...documents.values()], seqNo);
      catalog.indices.set(meta.name, index);
    }
    return catalog;
  }

  /**
   * Saves the writes of the given indices (appended to their journals; a journal grown past its
   * index's size is compacted into the documents file), then the catalog (whose mappings the
   * documents may have extended).
   */
  save(changed: Iterable<SearchIndex>, catalogToo = true): void {
    for (const index of changed) {
      const entries = index.unsaved.splice(0);
      const journal = this.journalFile(index.meta.uuid);
      const lines = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      const journalBytes = existsSync(journal) ? statSync(journal).size : 0;
      const documentsFile = this.documentsFile(index.meta.uuid);
      const documentsBytes = existsSync(documentsFile) ? statSync(documentsFile).size : 0;
      if (!existsSync(documentsFile) || journalBytes + lines.length > Math.max(COMPACT_AT_BYTES, documentsBytes)) {
        writeAtomically(documentsFile, { seqNo: index.seqNo, documents: [...index.docs.values()] });
        rmSync(journal, { force: true });
      } else if (lines) {
        mkdirSync(path.dirname(journal), { recursive: true });
        appendFileSync(journal, lines);
      }
    }
    if (catalogToo)
      writeAtomically(path.join(this.dataDir, 'catalog.json'), {
        format: 1,
        indices: [...this.indices.values()].map((index) => index.meta),
      });
  }

  /** The indices an expression names: index names, aliases, comma-separated, or `_all` / nothing for all. */
  resolve(expression: string | undefined): SearchIndex[] {
    if (expression === undefined || expression === '_all' || expression === '*') return [...this.indices.values()];
    const found = new Set<SearchIndex>();
    for (const name of expression.split(',')) {
      if (name.includes('*') || name.startsWith('-')) throw unsupported(`the index pattern [${name}]`);
      const index = this.indices.get(name);
      const aliased = [...this.indices.values()].filter((candidate) => candidate.meta.aliases.includes(name));
      if (!index && !aliased.length) throw indexNotFound(name);
      (index ? [index] : aliased).forEach((each) => found.add(each));
    }
    return [...found];
  }

  /** The one index a write goes to: an index name, or an alias of exactly one index. */
  writeTarget(name: string): SearchIndex {
    const indices = this.resolve(name);
    if (indices.length !== 1)
      throw illegalArgument(
        `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
      );
    return indices[0];
  }

  exists(expression: string): boolean {
    try {
      return this.resolve(expression).length > 0;
    } catch (error) {
      if (error instanceof SearchError && error.status === 404) return false;
      throw error;
    }
  }

  create(name: string, rawBody: unknown): Record<string, unknown> {
    checkName(name, 'index');
    const existing = this.indices.get(name);
    if (existing)
      throw new SearchError(400, 'resource_already_exists_exception', `index [${name}/${existing.meta.uuid}] already exists`, {
        index: name,
        index_uuid: existing.meta.uuid,
      });
    if (this.aliasExists(name))
      throw new SearchError(400, 'invalid_index_name_exception', `Invalid index name [${name}], already exists as alias`);
    const body = objectAt(rawBody ?? {}, 'create index request');
    onlyKeys(body, ['settings', 'mappings', 'aliases'], 'the create index request');
    const aliases = Object.entries(objectAt(body.aliases ?? {}, 'aliases')).map(([alias, options]) => {
      checkName(alias, 'alias');
      if (Object.keys(objectAt(options ?? {}, `aliases.${alias}`)).length) throw unsupported(`options of the alias [${alias}]`);
      if (this.indices.has(alias))
        throw new SearchError(
          400,
          'invalid_alias_name_exception',
          `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
        );
      return alias;
    });
    const meta: IndexMeta = {
      name,
      uuid: randomUUID().replace(/-/g, '').slice(0, 22),
      creationDate: Date.now(),
      settings: settingsOf(body.settings),
      mappings: parseMappings(body.mappings),
      aliases,
    };
    const index = new SearchIndex(meta);
    this.indices.set(name, index);
    this.save([index]);
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  /** Deletes indices by name: like OpenSearch, an alias is refused here rather than deleting what it points at. */
  delete(expression: string): Record<string, unknown> {
    const names = expression.split(',');
    for (const name of names) {
      if (name.includes('*') || name === '_all') throw unsupported(`deleting by the pattern [${name}]`);
      if (!this.indices.has(name)) {
        if (this.aliasExists(name))
          throw illegalArgument(`The provided expression [${name}] matches an alias, specify the corresponding concrete indices instead.`);
        throw indexNotFound(name);
      }
    }
    const removed = names.map((name) => this.indices.get(name) as SearchIndex);
    names.forEach((name) => this.indices.delete(name));
    this.save([]);
    for (const index of removed) {
      rmSync(this.documentsFile(index.meta.uuid), { force: true });
      rmSync(this.journalFile(index.meta.uuid), { force: true });
    }
    return { acknowledged: true };
  }

  aliasExists(alias: string): boolean {
    return [...this.indices.values()].some((index) => index.meta.aliases.includes(alias));
  }

  private documentsFile(uuid: string): string {
    return path.join(this.dataDir, 'indices', `${uuid}.json`);
  }

  private journalFile(uuid: string): string {
    return path.join(this.dataDir, 'indices', `${uuid}.log`);
  }
}

/** Index settings, flattened to `index.*` keys; custom analysis is refused (the stand-in has only its own analyzers). */
function settingsOf(raw: unknown): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [key, child] of Object.entries(value)) walk(child, prefix ? `${prefix}.${key}` : key);
    else flat[prefix.startsWith('index.') ? prefix : `index.${prefix}`] = typeof value === 'string' ? value : JSON.stringify(value);
  };
  walk(objectAt(raw ?? {}, 'settings'), '');
  for (const key of Object.keys(flat)) if (key.startsWith('index.analysis')) throw unsupported(`the setting [${key}] (custom analysis)`);
  return flat;
}
