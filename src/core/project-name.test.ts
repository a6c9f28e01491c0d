import { describe, expect, it } from 'vitest';
import { projectName } from './project-name.js';

describe('projectName', () => {
  it.each([
    ['/home/me/app', 'app'],
    ['/home/me/app/', 'app'],
    ['C:\\Users\\me\\proj\\', 'proj'],
    ['/', null],
    [null, null],
  ])('%s → %s', (cwd, name) => expect(projectName(cwd)).toBe(name));
});
