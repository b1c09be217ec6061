import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';
import type { Config } from '../../config.ts';

export type VapidKeys = { publicKey: string; privateKey: string };

const loaded = new Map<string, VapidKeys>();

/**
 * This server's VAPID key pair: from config (the same on every node), else generated once into the data dir
 * (`vapid.json`), so a one-command start needs no set-up and browsers stay subscribed across restarts. The file
 * appears whole or not at all: written aside, then linked into place, which fails if another process won.
 */
export function vapidKeys(config: Config): VapidKeys {
  const { publicKey, privateKey } = config.push;
  if (publicKey && privateKey) return { publicKey, privateKey };
  const file = join(config.dataDir, 'vapid.json');
  const known = loaded.get(file);
  if (known) return known;
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    const aside = `${file}.${randomBytes(6).toString('hex')}`;
    writeFileSync(aside, JSON.stringify(webpush.generateVAPIDKeys(), null, 2), { mode: 0o600 });
    try {
      linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
  }
  const keys = JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
  loaded.set(file, keys);
  return keys;
}
