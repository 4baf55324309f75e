import { PassThrough, Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';

/** One file of the ZIP: its path inside the archive and its content, read once, in order. */
export interface ZipEntry {
  name: string;
  /** The content, or how to open it when its turn comes (a recorded file: undefined when it is gone, and the entry is left out). */
  content: Readable | (() => Promise<Readable | undefined>);
  /** Audio is already compressed: stored as is, which costs no CPU. */
  compress: boolean;
  /** Told once the entry was written whole. */
  written?: () => void;
}

/** A JSON document as a ZIP entry (pretty-printed: people read these files). */
export function jsonEntry(name: string, value: unknown): ZipEntry {
  return { name, content: Readable.from([Buffer.from(`${JSON.stringify(value, null, 2)}\n`)]), compress: true };
}

/** A text file as a ZIP entry. */
export function textEntry(name: string, text: string): ZipEntry {
  return { name, content: Readable.from([Buffer.from(text)]), compress: true };
}

/**
 * A JSON array written as its items come, a page at a time: a list of any length (audit
 * entries, assigned action items) never sits whole in memory.
 */
export function jsonArrayEntry(name: string, pages: AsyncIterable<unknown[]>): ZipEntry {
  async function* text() {
    let first = true;
    yield '[';
    for await (const page of pages) {
      for (const item of page) {
        yield `${first ? '\n' : ',\n'}${JSON.stringify(item, null, 2).replace(/^/gm, '  ')}`;
        first = false;
      }
    }
    yield first ? ']\n' : '\n]\n';
  }
  return { name, content: Readable.from(text()), compress: true };
}

/**
 * Writes entries into a ZIP streamed to `sink` (the multipart upload), one entry at a time:
 * the next entry is taken from `entries` only once the previous one was read whole, so memory
 * holds one entry's stream, what `entries` prepares ahead, and the sink's parts. Answers the
 * ZIP's size. A failure of the entries or of the sink fails both: the sink aborts its upload.
 */
export async function writeZip(entries: AsyncIterable<ZipEntry>, sink: (zip: Readable) => Promise<void>): Promise<number> {
  const zip = new ZipFile();
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(null, chunk);
    },
  });
  const output = zip.outputStream.pipe(counted).pipe(new PassThrough());
  const uploaded = sink(output);
  // A sink that failed early must stop the entries at once, not after the last one.
  let sinkFailure: Error | undefined;
  const sinkFailed = uploaded.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => {
      sinkFailure = error instanceof Error ? error : new Error(String(error));
      throw sinkFailure;
    },
  );
  // Raced below; never an unhandled rejection when the entries fail first.
  sinkFailed.catch(() => undefined);
  try {
    const mtime = new Date();
    for await (const entry of entries) {
      if (sinkFailure) throw sinkFailure;
      const content = typeof entry.content === 'function' ? await entry.content() : entry.content;
      if (!content) continue;
      const read = new Promise<void>((resolve, reject) => {
        content.once('end', resolve);
        content.once('error', reject);
      });
      zip.addReadStreamLazy(entry.name, { compress: entry.compress, mtime }, (callback) => callback(null, content));
      await Promise.race([read, sinkFailed]);
      entry.written?.();
    }
    zip.end();
    await uploaded;
    return size;
  } catch (error) {
    // The sink may have stopped reading already: the failure is this function's to report, not an unhandled 'error' event.
    output.on('error', () => undefined);
    output.destroy(error instanceof Error ? error : new Error(String(error)));
    await uploaded.catch(() => undefined);
    throw error;
  }
}
