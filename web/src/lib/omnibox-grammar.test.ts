import { describe, expect, it } from 'vitest';
import { matchDatePhrase } from './date-phrases.js';
import {
  formatFilters,
  isEmptyQuery,
  looksLikeIdPrefix,
  parseOmnibox,
  tokenize,
  type OmniboxQuery,
} from './omnibox-grammar.js';

// Wednesday 11 March 2026, 09:00 UTC.
const NOW = Date.parse('2026-03-11T09:00:00Z');

function query(input: string): OmniboxQuery {
  const r = parseOmnibox(input, NOW);
  if (r.kind !== 'query') throw new Error(`expected a query for ${input}`);
  return r;
}

describe('omnibox: free text', () => {
  it('keeps plain words as text', () => {
    expect(query('deploy failed')).toMatchObject({ text: 'deploy failed', filters: {}, problems: [] });
  });
  it('keeps search syntax: quoted phrases and prefixes', () => {
    expect(query('"connection refused" deploy*').text).toBe('"connection refused" deploy*');
  });
  it('closes an unterminated quote', () => {
    expect(query('"connection refused').text).toBe('"connection refused"');
  });
  it('treats unknown operators and URLs as text', () => {
    expect(query('foo:bar http://x.test/a').text).toBe('foo:bar http://x.test/a');
    expect(query('foo:bar').filters).toEqual({});
  });
  it('is empty for empty or blank input', () => {
    expect(isEmptyQuery(query(''))).toBe(true);
    expect(isEmptyQuery(query('   \t '))).toBe(true);
  });
});

describe('omnibox: operators', () => {
  it('reads project:, host:, model:, source:', () => {
    expect(query('project:happy host:vm model:opus source:backfill').filters).toEqual({
      project: 'happy',
      hostname: 'vm',
      model: 'opus',
      source: 'backfill',
    });
  });
  it('reads agent:, and writes it back', () => {
    expect(query('agent:gemini refactor').filters).toEqual({ agent: 'gemini' });
    expect(formatFilters({ agent: 'claude-code', model: 'opus' })).toBe('model:opus agent:claude-code');
  });
  it('accepts aliases, any case, and quoted values', () => {
    expect(query('HOSTNAME:box Project:"my app" cwd:/tmp/x').filters).toEqual({
      hostname: 'box',
      project: 'my app',
      cwd: '/tmp/x',
    });
  });
  it('mixes operators, text and dates in any order', () => {
    expect(query('model:opus deploy last week error')).toMatchObject({
      text: 'deploy error',
      filters: { model: 'opus', from: '2026-03-02', to: '2026-03-08' },
      dates: ['last week'],
    });
  });
  it('reports an operator without a value and ignores it', () => {
    const q = query('model: deploy');
    expect(q.filters).toEqual({});
    expect(q.text).toBe('deploy');
    expect(q.problems[0]).toMatch(/model: needs a value/);
  });
  it('reports an operator given twice and keeps the last', () => {
    const q = query('model:a model:b');
    expect(q.filters.model).toBe('b');
    expect(q.problems[0]).toMatch(/given twice/);
  });
  it('reads id: as an id prefix', () => {
    expect(query('id:rate-limit').idPrefix).toBe('rate-limit');
    expect(query('id:<script>').problems[0]).toMatch(/not a session id prefix/);
  });
});

describe('omnibox: date phrases', () => {
  const cases: Array<[string, { from?: string; to?: string }]> = [
    ['today', { from: '2026-03-11', to: '2026-03-11' }],
    ['yesterday', { from: '2026-03-10', to: '2026-03-10' }],
    ['this week', { from: '2026-03-09', to: '2026-03-15' }],
    ['last week', { from: '2026-03-02', to: '2026-03-08' }],
    ['this month', { from: '2026-03-01', to: '2026-03-31' }],
    ['last month', { from: '2026-02-01', to: '2026-02-28' }],
    ['last 7 days', { from: '2026-03-05', to: '2026-03-11' }],
    ['past 1 day', { from: '2026-03-11', to: '2026-03-11' }],
    ['last 2 weeks', { from: '2026-02-26', to: '2026-03-11' }],
    ['2026-03-05', { from: '2026-03-05', to: '2026-03-05' }],
    ['2026-03', { from: '2026-03-01', to: '2026-03-31' }],
    ['2024-02', { from: '2024-02-01', to: '2024-02-29' }],
    ['mar 2026', { from: '2026-03-01', to: '2026-03-31' }],
    ['March 2025', { from: '2025-03-01', to: '2025-03-31' }],
    ['Sept 2025', { from: '2025-09-01', to: '2025-09-30' }],
    ['2026-03-01..2026-03-09', { from: '2026-03-01', to: '2026-03-09' }],
    ['since 2026-03', { from: '2026-03-01' }],
    ['since yesterday', { from: '2026-03-10' }],
    ['since last week', { from: '2026-03-02' }],
    ['before 2026-03-05', { to: '2026-03-04' }],
    ['before mar 2026', { to: '2026-02-28' }],
    ['after 2026-03', { from: '2026-04-01' }],
  ];
  for (const [input, range] of cases)
    it(`"${input}"`, () => {
      const q = query(input);
      expect(q.filters).toEqual(range);
      expect(q.text).toBe('');
      expect(q.problems).toEqual([]);
      expect(q.dates).toHaveLength(1);
    });

  it('crosses a year boundary for last month in January', () => {
    expect(matchDatePhrase(['last', 'month'], Date.parse('2026-01-15T00:00:00Z'))).toMatchObject({
      range: { from: '2025-12-01', to: '2025-12-31' },
    });
  });
  it('treats the week of a Sunday as the week that started the Monday before', () => {
    expect(matchDatePhrase(['this', 'week'], Date.parse('2026-03-15T23:00:00Z'))).toMatchObject({
      range: { from: '2026-03-09', to: '2026-03-15' },
    });
  });
  it('combines since and before into one range', () => {
    expect(query('since 2026-01 before 2026-03').filters).toEqual({ from: '2026-01-01', to: '2026-02-28' });
  });
  it('reports a range that ends before it starts and drops it', () => {
    const q = query('since 2026-05 before 2026-03');
    expect(q.filters).toEqual({});
    expect(q.problems[0]).toMatch(/end .* before they start/);
  });
  it('reports two full ranges and keeps the last', () => {
    const q = query('today 2026-03');
    expect(q.filters).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(q.problems[0]).toMatch(/two date ranges/);
  });
  it('leaves "since"/"before" followed by words as text', () => {
    expect(query('broken since the refactor')).toMatchObject({
      text: 'broken since the refactor',
      filters: {},
    });
    expect(query('before')).toMatchObject({ text: 'before', filters: {} });
  });
  it('does not read dates inside quotes', () => {
    expect(query('"last week"')).toMatchObject({ text: '"last week"', filters: {} });
  });
});

describe('omnibox: id prefix', () => {
  it('takes a lone hex token with a digit as an id prefix', () => {
    expect(query('cc1df109')).toMatchObject({ idPrefix: 'cc1df109', text: '' });
    expect(query('5C0375B4-57a5')).toMatchObject({ idPrefix: '5c0375b4-57a5' });
    expect(query(' 5c0375b4-57a5-4f26-b12d-d022ee4e51b7 ').idPrefix).toBe(
      '5c0375b4-57a5-4f26-b12d-d022ee4e51b7',
    );
  });
  it('does not take words, short tokens, months or several tokens', () => {
    expect(query('facade').idPrefix).toBeUndefined();
    expect(query('abc12').idPrefix).toBeUndefined();
    expect(query('2026-03').idPrefix).toBeUndefined();
    expect(query('cc1df109 error').idPrefix).toBeUndefined();
    expect(looksLikeIdPrefix('zz1234')).toBe(false);
  });
});

describe('omnibox: commands', () => {
  it('recognises each command and its aliases', () => {
    expect(parseOmnibox('>list', NOW)).toMatchObject({ kind: 'command', name: 'list' });
    expect(parseOmnibox('> sessions', NOW)).toMatchObject({ name: 'list' });
    expect(parseOmnibox('>calendar 2026-03', NOW)).toMatchObject({
      name: 'calendar',
      arg: '2026-03',
      problems: [],
    });
    expect(parseOmnibox('>search deploy error', NOW)).toMatchObject({ name: 'search', arg: 'deploy error' });
    expect(parseOmnibox('>open cc1df109', NOW)).toMatchObject({ name: 'open', arg: 'cc1df109' });
    expect(parseOmnibox('>shortcuts', NOW)).toMatchObject({ name: 'shortcuts' });
    expect(parseOmnibox('>help', NOW)).toMatchObject({ name: 'shortcuts' });
  });
  it('accepts a unique prefix', () => {
    expect(parseOmnibox('>cal', NOW)).toMatchObject({ name: 'calendar' });
    expect(parseOmnibox('>op 5c03', NOW)).toMatchObject({ name: 'open', arg: '5c03' });
  });
  it('lists every command for a bare >', () => {
    expect(parseOmnibox('>', NOW)).toMatchObject({
      name: null,
      suggestions: ['list', 'calendar', 'turns', 'search', 'open', 'shortcuts'],
    });
  });
  it('explains an ambiguous prefix', () => {
    const c = parseOmnibox('>s', NOW);
    expect(c).toMatchObject({ kind: 'command', name: null, suggestions: ['search', 'shortcuts'] });
    if (c.kind === 'command') expect(c.problems[0]).toBe('">s" could be >search or >shortcuts');
    // A command's own name wins over another's alias ("se" starts "sessions", an alias of >list).
    expect(parseOmnibox('>se', NOW)).toMatchObject({ name: 'search' });
    // Only aliases match: each candidate is named by the alias the word starts.
    const a = parseOmnibox('>sess', NOW);
    expect(a).toMatchObject({ name: null, suggestions: ['list', 'open'] });
    if (a.kind === 'command')
      expect(a.problems[0]).toBe('">sess" could be >sessions (>list) or >session (>open)');
    expect(parseOmnibox('>ho', NOW)).toMatchObject({ name: 'list' });
  });
  it('explains an unknown command and missing arguments', () => {
    const u = parseOmnibox('>frobnicate', NOW);
    expect(u).toMatchObject({ name: null, suggestions: [] });
    if (u.kind === 'command') expect(u.problems[0]).toMatch(/unknown command ">frobnicate"/);
    const o = parseOmnibox('>open', NOW);
    if (o.kind === 'command') expect(o.problems[0]).toMatch(/needs a session id/);
    const c = parseOmnibox('>calendar soon', NOW);
    if (c.kind === 'command') expect(c.problems[0]).toMatch(/YYYY-MM/);
    const t = parseOmnibox('>turns mine', NOW);
    if (t.kind === 'command')
      expect(t.problems[0]).toBe('>turns takes you, claude, both or nothing, not "mine"');
  });
  it('goes to the turns, a side given or not, also as >prompts', () => {
    expect(parseOmnibox('>turns', NOW)).toMatchObject({ name: 'turns', arg: '', problems: [] });
    expect(parseOmnibox('>turns Claude', NOW)).toMatchObject({ name: 'turns', arg: 'Claude', problems: [] });
    expect(parseOmnibox('>pro both', NOW)).toMatchObject({ name: 'turns', arg: 'both', problems: [] });
    expect(parseOmnibox('>t', NOW)).toMatchObject({ name: 'turns' });
  });
});

describe('omnibox: nonsense', () => {
  it('reports impossible dates and months without applying them', () => {
    expect(query('2026-02-30')).toMatchObject({
      filters: {},
      problems: ['"2026-02-30" is not a calendar date'],
    });
    expect(query('2026-13').problems[0]).toMatch(/not a month/);
    expect(query('since 2026-00-10').problems[0]).toMatch(/not a calendar date/);
    expect(query('2026-03-09..2026-03-01').problems[0]).toMatch(/ends before it starts/);
  });
  it('leaves out-of-range relative phrases as text', () => {
    expect(query('last 0 days')).toMatchObject({ text: 'last 0 days', filters: {} });
    expect(query('last -3 days')).toMatchObject({ text: 'last -3 days', filters: {} });
    expect(query('last 99999 days')).toMatchObject({ text: 'last 99999 days', filters: {} });
    expect(query('last fortnight').text).toBe('last fortnight');
  });
  it('never throws on odd input', () => {
    const inputs = [
      ':::',
      '""',
      '"',
      'model:""',
      'project:"',
      '>>>',
      '> > list',
      '\u0000\u0001',
      '😀 model:🤖',
      'a'.repeat(10_000),
      '<script>alert(1)</script>',
      'id:',
      'since since since',
    ];
    for (const input of inputs) expect(() => parseOmnibox(input, NOW)).not.toThrow();
    expect(query('model:""').problems[0]).toMatch(/needs a value/);
    expect(query('<script>alert(1)</script>').text).toBe('<script>alert(1)</script>');
  });
});

describe('omnibox: tokenize and formatFilters', () => {
  it('tokenizes operators with quoted values', () => {
    expect(tokenize('project:"a b" x')).toEqual([
      { raw: 'project:"a b"', op: 'project', value: 'a b' },
      { raw: 'x', value: 'x' },
    ]);
  });
  it('round-trips filters through formatFilters', () => {
    const filters = {
      project: 'my app',
      model: 'opus',
      hostname: 'vm',
      source: 'live',
      from: '2026-03-01',
      to: '2026-03-31',
    };
    expect(formatFilters(filters)).toBe(
      'project:"my app" host:vm model:opus source:live 2026-03-01..2026-03-31',
    );
    expect(query(formatFilters(filters)).filters).toEqual(filters);
    expect(query(formatFilters({ from: '2026-03-01' })).filters).toEqual({ from: '2026-03-01' });
    expect(query(formatFilters({ to: '2026-03-31' })).filters).toEqual({ to: '2026-03-31' });
    expect(query(formatFilters({ from: '2026-03-05', to: '2026-03-05' })).filters).toEqual({
      from: '2026-03-05',
      to: '2026-03-05',
    });
  });
});

describe('user-data filters', () => {
  const NOW = Date.parse('2026-03-11T09:00:00Z');
  it('reads is:starred, tag: (repeatable) and has:note, and writes them back', () => {
    const q = parseOmnibox('is:starred tag:bug tag:area/api has:note deploy', NOW);
    expect(q).toMatchObject({
      kind: 'query',
      text: 'deploy',
      filters: { starred: true, tags: ['bug', 'area/api'], hasNote: true },
      problems: [],
    });
    if (q.kind !== 'query') throw new Error('not a query');
    expect(formatFilters({ ...q.filters, text: q.text })).toBe(
      'is:starred tag:bug tag:area/api has:note deploy',
    );
  });

  it('reads has:secrets and writes it back', () => {
    const q = parseOmnibox('has:secrets project:app', NOW);
    expect(q).toMatchObject({ kind: 'query', filters: { hasSecrets: true, project: 'app' }, problems: [] });
    if (q.kind !== 'query') throw new Error('not a query');
    expect(formatFilters(q.filters)).toBe('project:app has:secrets');
  });

  it('names what it does not know', () => {
    const q = parseOmnibox('is:pinned tag:Bad has:notes', NOW);
    expect(q.problems).toEqual([
      'is:pinned is not known; try is:starred',
      'tag:Bad is not a tag (short lowercase words joined by - or /)',
      'has:notes is not known; try has:note or has:secrets',
    ]);
  });
});
