import { describe, expect, it } from 'vitest';
import { diffLines, diffStat, editDiff } from './line-diff.js';

describe('diffLines', () => {
  it('diffs lines with context', () => {
    expect(diffLines('a\nb\nc', 'a\nB\nc')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'B' },
      { op: ' ', text: 'c' },
    ]);
  });
  it('handles insertions, deletions and empty sides', () => {
    expect(diffLines('', 'x\ny')).toEqual([
      { op: '+', text: 'x' },
      { op: '+', text: 'y' },
    ]);
    expect(diffLines('x', '')).toEqual([{ op: '-', text: 'x' }]);
    expect(
      diffLines('a\nc', 'a\nb\nc')
        .map((l) => l.op)
        .join(''),
    ).toBe(' + ');
  });
  it('degrades to remove-all/add-all past the size bound', () => {
    const d = diffLines('a\nb\nc', 'x\ny\nz', 4);
    expect(d.map((l) => l.op).join('')).toBe('---+++');
  });
});

describe('editDiff', () => {
  it('reads Edit, MultiEdit, Write', () => {
    expect(editDiff('Edit', { file_path: '/a.ts', old_string: 'x', new_string: 'y' })).toEqual({
      path: '/a.ts',
      hunks: [
        [
          { op: '-', text: 'x' },
          { op: '+', text: 'y' },
        ],
      ],
    });
    const multi = editDiff('MultiEdit', {
      file_path: '/a.ts',
      edits: [{ old_string: 'a', new_string: 'b' }, null, { old_string: 'c', new_string: 'c\nd' }],
    });
    expect(multi?.hunks).toHaveLength(2);
    expect(diffStat(multi!.hunks)).toEqual({ added: 2, removed: 1 });
    expect(editDiff('Write', { file_path: '/n.txt', content: 'one\ntwo' })?.hunks[0]).toHaveLength(2);
  });
  it('ignores other tools and odd inputs', () => {
    expect(editDiff('Bash', { command: 'ls' })).toBeUndefined();
    expect(editDiff('Edit', { old_string: 1 })).toBeUndefined();
    expect(editDiff('Edit', null)).toBeUndefined();
    expect(editDiff('MultiEdit', { edits: 'nope' })).toBeUndefined();
  });
});
