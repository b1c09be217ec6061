// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { automaticSender } from '../utils/message-meta.ts';
import { AutomaticAvatar, PersonAvatar } from './person-avatar.tsx';

afterEach(cleanup);

const out = { direction: 'out' as const, team_user: null, ai_interaction: null, meta: {} };

describe('who a message that no person wrote comes from', () => {
  it('is the assistant for its own replies, and an automatic text for a missed-call text', () => {
    expect(automaticSender({ ...out, ai_interaction: 'ai_generated' })).toBe('assistant');
    expect(automaticSender({ ...out, meta: { auto: 'missed_call_text' } })).toBe('automatic');
  });

  it('is a person for a teammate, a reply they wrote with the assistant, and for customers', () => {
    const sam = { full_name: 'Sam Lee', avatar: null };
    expect(automaticSender({ ...out, team_user: sam, ai_interaction: 'ai_generated' })).toBeNull();
    expect(automaticSender({ ...out, team_user: sam, ai_interaction: 'ai_rewritten' })).toBeNull();
    expect(automaticSender({ ...out, direction: 'in', ai_interaction: null })).toBeNull();
  });

  it("shows the assistant's robot instead of the team's initial", () => {
    const { container: assistant } = render(<AutomaticAvatar kind="assistant" />);
    expect(assistant.querySelector('[data-kind="assistant"] .anticon-robot')).not.toBeNull();
    expect(assistant.textContent).toBe('');
    const { container: team } = render(<PersonAvatar name="Team" seed="team" />);
    expect(team.textContent).toBe('T');
  });
});
