import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../../live/claude-settings.js';
import { hooksInstallCommand } from './install.js';

describe('hooks install', () => {
  it('its help names every event it registers (written out: the spec does not load live/)', () => {
    expect(hooksInstallCommand.description).toContain(`(${HOOK_EVENTS.join(', ')})`);
  });
});
