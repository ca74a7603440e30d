import { describe, expect, it } from 'vitest';
import { chooseCollection } from './collectionChoice.js';

const col = (id: string, name: string, created_at: string) => ({ collection_id: id, name, created_at });
const team = col('col_b', 'team', '2026-12-01T10:00:00Z');
const first = col('col_a', 'default', '2026-12-01T09:00:00Z');

describe('chooseCollection', () => {
  it('keeps the picked collection, whatever its name', () => {
    expect(chooseCollection([first, team], 'col_b')).toBe(team);
  });
  it('falls back to the oldest when nothing was picked or the pick is gone', () => {
    expect(chooseCollection([team, first], null)).toBe(first);
    expect(chooseCollection([team, first], 'col_deleted')).toBe(first);
    expect(chooseCollection([], 'col_b')).toBeNull();
  });
});
