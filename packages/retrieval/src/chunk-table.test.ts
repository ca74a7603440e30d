import { describe, expect, it } from 'vitest';
import { ChunkTable, type FilterMask } from './chunk-table.js';

const fields = (version: string) => ({ version, document: `d-${version}`, collection: 'c1', page: null, len: 3 });

describe('ChunkTable filter masks', () => {
  it('keeps the mask of a repeated version filter, and builds it anew once a version of the list becomes known', () => {
    const table = new ChunkTable();
    table.add(1, fields('v1'));
    const first = table.mask({ versionIds: ['v1', 'v2'] }) as FilterMask;
    expect(table.accepts(1, first)).toBe(true);
    expect((table.mask({ versionIds: ['v1', 'v2'] }) as FilterMask).version).toBe(first.version);
    // v2 is indexed after the first mask: the same list must now accept its chunk
    table.add(2, fields('v2'));
    const again = table.mask({ versionIds: ['v1', 'v2'] }) as FilterMask;
    expect(again.version).not.toBe(first.version);
    expect([table.accepts(1, again), table.accepts(2, again)]).toEqual([true, true]);
    // another list, another mask
    const onlyV2 = table.mask({ versionIds: ['v2'] }) as FilterMask;
    expect([table.accepts(1, onlyV2), table.accepts(2, onlyV2)]).toEqual([false, true]);
    expect(table.mask({ versionIds: [] })).toBe('none');
  });
});
