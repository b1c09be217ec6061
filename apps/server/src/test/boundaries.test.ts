import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const src = fileURLToPath(new URL('..', import.meta.url));
const written: string[] = [];

/** Lints one file placed in the tree; the exit code and what Biome said. */
async function lint(path: string, code: string): Promise<{ ok: boolean; output: string }> {
  const file = `${src}${path}`;
  written.push(file);
  await writeFile(file, code);
  try {
    const { stdout, stderr } = await run('npx', ['biome', 'lint', file], { cwd: src });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout: string; stderr: string };
    return { ok: false, output: e.stdout + e.stderr };
  }
}

afterEach(async () => {
  await Promise.all(written.splice(0).map((f) => rm(f, { force: true })));
});

describe('the layering rules (docs/architecture.md)', () => {
  it('refuse provider code importing a module', async () => {
    const res = await lint(
      'channels/twilio/boundary-probe.ts',
      "import { receiveInbound } from '../../modules/messages/inbound.ts';\nexport const probe = receiveInbound;\n",
    );
    expect(res.ok).toBe(false);
    expect(res.output).toContain('Provider code imports nothing from modules/');
  });

  it('refuse a plugin importing a module, and lib importing anything above it', async () => {
    const plugin = await lint(
      'plugins/boundary-probe.ts',
      "import { listMessages } from '../modules/messages/service.ts';\nexport const probe = listMessages;\n",
    );
    expect(plugin.ok).toBe(false);
    expect(plugin.output).toContain('Plugins only transport');
    const lib = await lint(
      'lib/boundary-probe.ts',
      "import { rooms } from '../plugins/realtime.ts';\nexport const probe = rooms;\n",
    );
    expect(lib.ok).toBe(false);
    expect(lib.output).toContain('lib/ is the bottom layer');
  });

  it('let provider code use lib and its own contracts', async () => {
    const res = await lint(
      'channels/twilio/boundary-probe.ts',
      "import { providerFetch } from '../../lib/provider-http.ts';\nimport type { InboundSink } from '../types.ts';\nexport const probe: [typeof providerFetch, InboundSink | null] = [providerFetch, null];\n",
    );
    expect(res.ok, res.output).toBe(true);
  });
});
