import { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * The one ZIP writer (decision 231): entries in, a stream of the archive out, built while it is read. The archive
 * is never held whole: at any time only the entry being written (or, for one given as chunks, its current chunk)
 * and the compressed bytes not yet read are in memory, and the next entry is fetched only once the reader asked for
 * more, so a slow download holds back the reading of the file store. fflate writes it (streaming, no dependencies,
 * and the same library reads it back in the tests).
 */
export interface ZipEntry {
  /** The path inside the archive, `/`-separated (UTF-8; the flag for it is set). */
  name: string;
  /** The bytes, or chunks of them (a large file read piece by piece). */
  content: Uint8Array | AsyncIterable<Uint8Array>;
  /** When it was last changed (the archive's date of the entry); default now. */
  modified?: Date;
  /** false: stored as it is (images, PDFs and other ZIPs gain nothing from compression). Default true. */
  compress?: boolean;
}

/** Streams the ZIP of `entries`, in their order. */
export function zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): Readable {
  return Readable.from(zipChunks(entries), { objectMode: false });
}

async function* zipChunks(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  // fflate's synchronous writers call back during push(): each chunk lands in `ready` and is handed on at once.
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (ready.length) yield ready.shift()!;
  };
  for await (const entry of entries) {
    const file =
      entry.compress === false ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level: 6 });
    file.mtime = entry.modified ?? new Date();
    zip.add(file);
    if (entry.content instanceof Uint8Array) {
      file.push(entry.content, true);
      yield* drain();
    } else {
      for await (const chunk of entry.content) {
        file.push(chunk);
        yield* drain();
      }
      file.push(new Uint8Array(0), true);
      yield* drain();
    }
  }
  zip.end();
  yield* drain();
}
