import { describe, expect, it } from 'vitest';
import { matchValues, operatorAtEnd, withFilterValue, withValue } from './omnibox-values.js';

const cwds = [
  { value: '/home/ana/api', sessions: 4 },
  { value: '/home/ana/web', sessions: 9 },
  { value: '/home/bo/API-docs', sessions: 2 },
  { value: '/srv/home-page', sessions: 1 },
  { value: '/tmp/x', sessions: 30 },
];

describe('operatorAtEnd', () => {
  it('finds the operator whose value is being typed at the end', () => {
    expect(operatorAtEnd('cwd:')).toEqual({ key: 'cwd', op: 'cwd', partial: '', start: 0 });
    expect(operatorAtEnd('deploy host:vm')).toEqual({ key: 'hostname', op: 'host', partial: 'vm', start: 7 });
    expect(operatorAtEnd('Model:op')).toMatchObject({ key: 'model', op: 'model', partial: 'op' });
    expect(operatorAtEnd('dir:/ho')).toMatchObject({ key: 'cwd', partial: '/ho' });
    expect(operatorAtEnd('project:"my a')).toMatchObject({ key: 'project', partial: 'my a', start: 0 });
  });

  it('is null once the value is finished or for other operators and words', () => {
    expect(operatorAtEnd('cwd:/home ')).toBeNull();
    expect(operatorAtEnd('project:"my app"')).toBeNull();
    expect(operatorAtEnd('tag:x')).toBeNull();
    expect(operatorAtEnd('id:5c03')).toBeNull();
    expect(operatorAtEnd('agent:gem')).toEqual({ key: 'agent', op: 'agent', partial: 'gem', start: 0 });
    expect(operatorAtEnd('http://x')).toBeNull();
    expect(operatorAtEnd('deploy')).toBeNull();
    expect(operatorAtEnd('')).toBeNull();
  });
});

describe('matchValues', () => {
  it('matches loosely: a substring, case aside; prefix matches first, then most sessions', () => {
    expect(matchValues('api', cwds).map((v) => v.value)).toEqual(['/home/ana/api', '/home/bo/API-docs']);
    expect(matchValues('/home', cwds).map((v) => v.value)).toEqual([
      '/home/ana/web',
      '/home/ana/api',
      '/home/bo/API-docs',
      '/srv/home-page',
    ]);
    expect(matchValues('home', cwds).map((v) => v.value)).toEqual([
      '/home/ana/web',
      '/home/ana/api',
      '/home/bo/API-docs',
      '/srv/home-page',
    ]);
  });

  it('offers every value, most sessions first, before anything is typed; keeps counts; caps', () => {
    expect(matchValues('', cwds, 2)).toEqual([
      { value: '/tmp/x', sessions: 30 },
      { value: '/home/ana/web', sessions: 9 },
    ]);
    expect(matchValues('nothing', cwds)).toEqual([]);
  });
});

describe('withValue', () => {
  it('puts the chosen value in place of what was typed, quoting a value with spaces', () => {
    const at = operatorAtEnd('deploy cwd:/ho')!;
    expect(withValue('deploy cwd:/ho', at, '/home/ana/api')).toBe('deploy cwd:/home/ana/api ');
    const p = operatorAtEnd('proj:"my')!;
    expect(withValue('proj:"my', p, 'my app')).toBe('proj:"my app" ');
  });
});

describe('withFilterValue', () => {
  it("replaces the operator's value where it stands, keeping the operator as typed", () => {
    expect(withFilterValue('model:opus docker', 'model', 'claude-opus-4-5')).toBe(
      'model:claude-opus-4-5 docker',
    );
    expect(withFilterValue('docker host:build last week', 'hostname', 'build-01')).toBe(
      'docker host:build-01 last week',
    );
    expect(withFilterValue('src:liv', 'source', 'live')).toBe('src:live');
    expect(withFilterValue('proj:"my a" x', 'project', 'my app')).toBe('proj:"my app" x');
    expect(withFilterValue('dir:/home', 'cwd', '/home/ana/api')).toBe('dir:/home/ana/api');
  });
  it('adds the operator when the input has none', () => {
    expect(withFilterValue('docker', 'hostname', 'vm')).toBe('docker host:vm ');
    expect(withFilterValue('', 'model', 'x')).toBe('model:x ');
  });
});
