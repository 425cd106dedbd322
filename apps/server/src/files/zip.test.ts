import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipStream, type ZipEntry } from './zip.ts';

async function bytes(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

describe('zipStream', () => {
  it('writes the entries in order, a file given in chunks whole, names in UTF-8', async () => {
    async function* pieces() {
      yield new TextEncoder().encode('Grüezi ');
      yield new TextEncoder().encode('mitenand');
    }
    const big = new Uint8Array(200_000).map((_, i) => i % 251);
    const entries: ZipEntry[] = [
      { name: 'README.txt', content: new TextEncoder().encode('Hallo') },
      { name: 'anhänge/gruss.txt', content: pieces() },
      { name: 'bild.bin', content: big, compress: false },
    ];
    const files = unzipSync(await bytes(zipStream(entries)));
    expect(Object.keys(files)).toEqual(['README.txt', 'anhänge/gruss.txt', 'bild.bin']);
    expect(strFromU8(files['README.txt']!)).toBe('Hallo');
    expect(strFromU8(files['anhänge/gruss.txt']!)).toBe('Grüezi mitenand');
    expect(Buffer.from(files['bild.bin']!).equals(Buffer.from(big))).toBe(true);
  });

  it('asks for the next entry only when the reader wants more', async () => {
    let fetched = 0;
    async function* lazy(): AsyncGenerator<ZipEntry> {
      for (let i = 0; i < 50; i++) {
        fetched++;
        yield { name: `f${i}.bin`, content: new Uint8Array(64 * 1024).fill(i), compress: false };
      }
    }
    const stream = zipStream(lazy());
    // Reading one chunk must not pull all 50 entries (3.2 MB) into memory.
    for await (const chunk of stream) {
      expect(chunk).toBeDefined();
      break;
    }
    expect(fetched).toBeLessThan(50);
  });
});
