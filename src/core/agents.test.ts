import { describe, expect, it } from 'vitest';
import { summaryAgent } from './agents.js';

describe('summaryAgent', () => {
  it("takes the summary's agent when it has one", () => {
    expect(summaryAgent({ agent: 'opencode', models: ['gpt-5'] })).toBe('opencode');
  });

  it('tells an older Codex summary by its OpenAI model, and counts the rest as Claude Code', () => {
    expect(summaryAgent({ models: ['gpt-5-codex'] })).toBe('codex');
    expect(summaryAgent({ models: ['o4-mini'] })).toBe('codex');
    expect(summaryAgent({ models: ['claude-sonnet-4-5', '<synthetic>'] })).toBe('claude-code');
    expect(summaryAgent({ models: [] })).toBe('claude-code');
    expect(summaryAgent({ agent: 7, models: 'x' })).toBe('claude-code');
  });
});
