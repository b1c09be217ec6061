import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newClientId } from './client-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newClientId', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a v4 UUID', () => {
    expect(newClientId()).toMatch(UUID_V4);
  });

  it('still makes distinct v4 UUIDs where randomUUID is missing (plain http)', () => {
    vi.stubGlobal('crypto', {
      getRandomValues: <T extends Uint8Array>(a: T) => webcrypto.getRandomValues(a),
    });
    const ids = new Set(Array.from({ length: 50 }, newClientId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});
