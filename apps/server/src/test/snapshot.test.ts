import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotSources } from './snapshot.ts';

describe('the test database snapshot', () => {
  it('is keyed by every source the seed imports, not only db/ (a changed money rule makes a new one)', () => {
    const sources = snapshotSources().map((file) => file.split(path.sep).join('/'));
    expect(sources).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/apps\/server\/src\/demo\/seed\.ts$/),
        expect.stringMatching(/apps\/server\/src\/demo\/lessons\.ts$/),
        expect.stringMatching(/apps\/server\/src\/demo\/billing\.ts$/),
        expect.stringMatching(/apps\/server\/src\/db\/migrations\/001-portal\.sql$/),
        expect.stringMatching(/apps\/server\/src\/invoicing\/money\.ts$/),
        expect.stringMatching(/packages\/contract\/src\/common\.ts$/),
      ]),
    );
    expect(sources.filter((file) => file.endsWith('.test.ts'))).toEqual([]);
  });
});
