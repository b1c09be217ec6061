import { beforeEach, describe, expect, it } from 'vitest';
import { useComposeStore } from './compose-store.ts';

describe('compose mode (spec §4)', () => {
  beforeEach(() => useComposeStore.setState({ composing: false }));

  it('turning compose mode on clears the compose contact', () => {
    const store = useComposeStore.getState();
    store.startComposing();
    store.setContact({ channel: 'email', email: 'ava@example.com', name: 'Ava' });
    store.stopComposing();
    expect(useComposeStore.getState().contact.email).toBe('ava@example.com');

    useComposeStore.getState().startComposing();
    expect(useComposeStore.getState()).toMatchObject({
      composing: true,
      contact: { channel: 'sms', phone: '', email: '', name: '' },
    });
  });
});
