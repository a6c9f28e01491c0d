import { describe, expect, it } from 'vitest';
import {
  COLUMNS_KEY,
  DEFAULT_COLUMNS,
  DETAIL_FACTS,
  SESSION_FACTS,
  SORTED_FACT,
  forcedFact,
  hiddenCount,
  isDefaultColumns,
  moveFact,
  parseColumns,
  readColumns,
  rowFacts,
  serializeColumns,
  setFactShown,
  writeColumns,
} from './session-columns.js';

/** A storage holding one value, recording what was done to it. */
function memoryStorage(initial: string | null = null) {
  let value = initial;
  return {
    getItem: (k: string) => (k === COLUMNS_KEY ? value : null),
    setItem: (k: string, v: string) => {
      if (k === COLUMNS_KEY) value = v;
    },
    removeItem: (k: string) => {
      if (k === COLUMNS_KEY) value = null;
    },
    get value() {
      return value;
    },
  };
}

describe('session list columns', () => {
  it('shows every fact but the cost by default, in the order the row always had', () => {
    expect(rowFacts(DEFAULT_COLUMNS, 'lastActivity')).toEqual(SESSION_FACTS.filter((f) => f !== 'cost'));
    expect(DETAIL_FACTS).not.toContain('provenance');
    expect(DETAIL_FACTS.indexOf('cost')).toBe(DETAIL_FACTS.indexOf('tokens') + 1);
    expect(isDefaultColumns(DEFAULT_COLUMNS)).toBe(true);
    // Nothing the person hid: the cost, hidden by default, is not counted.
    expect(hiddenCount(DEFAULT_COLUMNS)).toBe(0);
  });

  it('shows the cost when ticked, after the tokens, and keeps that choice through its stored value', () => {
    const c = setFactShown(DEFAULT_COLUMNS, 'cost', true);
    expect(isDefaultColumns(c)).toBe(false);
    expect(hiddenCount(c)).toBe(0);
    const facts = rowFacts(c, 'lastActivity');
    expect(facts.indexOf('cost')).toBe(facts.indexOf('tokens') + 1);
    const back = parseColumns(serializeColumns(c));
    expect(back).toEqual(c);
    expect(back.shown.cost).toBe(true);
    // Hidden again it is the default again.
    expect(isDefaultColumns(setFactShown(back, 'cost', false))).toBe(true);
    // No order of the list forces it (the API has no cost order).
    expect(Object.values(SORTED_FACT)).not.toContain('cost');
    expect(hiddenCount(setFactShown(c, 'host', false))).toBe(1);
  });

  it('round-trips a choice through its stored value', () => {
    let c = setFactShown(DEFAULT_COLUMNS, 'host', false);
    c = setFactShown(c, 'provenance', false);
    c = moveFact(c, 'tokens', -1);
    const back = parseColumns(serializeColumns(c));
    expect(back).toEqual(c);
    expect(rowFacts(back, 'lastActivity')).toEqual([
      'project',
      'model',
      'lastActivity',
      'startedAt',
      'runtime',
      'tokens',
      'activeTime',
      'entries',
    ]);
  });

  it('reads a missing, corrupt or hostile value as the default', () => {
    for (const raw of [
      null,
      undefined,
      '',
      '{',
      'null',
      '42',
      '"tokens"',
      '[]',
      '["host"]',
      '{"order":"tokens","shown":[false]}',
      '{"__proto__":{"host":false},"shown":{"constructor":false}}',
      '{"shown":{"host":"no","model":0,"tokens":null}}',
    ])
      expect(parseColumns(raw), String(raw)).toBe(DEFAULT_COLUMNS);
  });

  it('ignores unknown and repeated names, keeping the rest of the choice', () => {
    const c = parseColumns(
      JSON.stringify({
        order: ['entries', 'price', 'entries', 42, 'provenance', 'project'],
        shown: { host: false, price: false, title: false, status: false },
      }),
    );
    expect(c.order.slice(0, 2)).toEqual(['entries', 'project']);
    expect([...c.order].sort()).toEqual([...DETAIL_FACTS].sort());
    expect(c.shown.host).toBe(false);
    expect(Object.keys(c.shown).sort()).toEqual([...SESSION_FACTS].sort());
  });

  it('gives a fact the value does not name its default visibility and place (a fact added later)', () => {
    // Written before `activeTime`, `provenance` and `cost` existed, with the order changed and the
    // host hidden.
    const c = parseColumns(
      JSON.stringify({
        order: ['tokens', 'project', 'model', 'host', 'lastActivity', 'startedAt', 'runtime', 'entries'],
        shown: {
          project: true,
          model: true,
          host: false,
          lastActivity: true,
          startedAt: true,
          runtime: true,
          tokens: true,
          entries: true,
        },
      }),
    );
    expect(c.shown.activeTime).toBe(true);
    expect(c.shown.provenance).toBe(true);
    expect(c.shown.cost).toBe(false);
    expect(c.order).toEqual([
      'tokens',
      'cost',
      'project',
      'model',
      'host',
      'lastActivity',
      'startedAt',
      'runtime',
      'activeTime',
      'entries',
    ]);
    // A fact whose predecessors are all missing goes first.
    expect(parseColumns('{"order":["entries"]}').order[0]).toBe('project');
  });

  it('always shows the fact the list is sorted by, at its place, and says which one it forces', () => {
    const c = setFactShown(setFactShown(DEFAULT_COLUMNS, 'tokens', false), 'model', false);
    expect(rowFacts(c, 'lastActivity')).not.toContain('tokens');
    expect(forcedFact(c, 'lastActivity')).toBeNull();
    expect(rowFacts(c, 'tokens')).toContain('tokens');
    expect(rowFacts(c, 'tokens').indexOf('tokens')).toBe(rowFacts(c, 'tokens').indexOf('entries') - 1);
    expect(forcedFact(c, 'tokens')).toBe('tokens');
    expect(forcedFact(DEFAULT_COLUMNS, 'tokens')).toBeNull();
    // A list with no order of its own forces nothing.
    const noLast = setFactShown(DEFAULT_COLUMNS, 'lastActivity', false);
    expect(rowFacts(noLast, null)).not.toContain('lastActivity');
    expect(forcedFact(noLast, null)).toBeNull();
  });

  it('moves a fact one place, staying put at either end', () => {
    expect(moveFact(DEFAULT_COLUMNS, 'project', -1)).toBe(DEFAULT_COLUMNS);
    expect(moveFact(DEFAULT_COLUMNS, 'entries', 1)).toBe(DEFAULT_COLUMNS);
    expect(moveFact(DEFAULT_COLUMNS, 'project', 1).order.slice(0, 2)).toEqual(['model', 'project']);
    expect(isDefaultColumns(moveFact(moveFact(DEFAULT_COLUMNS, 'host', 1), 'host', -1))).toBe(true);
  });

  it('stores a choice, forgets it when it is the default again, and tolerates a refusing storage', () => {
    const store = memoryStorage();
    const hidden = setFactShown(DEFAULT_COLUMNS, 'model', false);
    expect(writeColumns(store, hidden)).toBe(true);
    expect(store.value).not.toBeNull();
    expect(readColumns(store)).toEqual(hidden);
    expect(writeColumns(store, setFactShown(hidden, 'model', true))).toBe(true);
    expect(store.value).toBeNull();
    expect(readColumns(store)).toBe(DEFAULT_COLUMNS);

    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readColumns(refusing)).toBe(DEFAULT_COLUMNS);
    expect(writeColumns(refusing, hidden)).toBe(false);
    expect(writeColumns(undefined, hidden)).toBe(false);
    expect(readColumns(undefined)).toBe(DEFAULT_COLUMNS);
  });
});
