/**
 * A customer rings a location: Twilio's signed webhook for the call, answered with the TwiML that rings the
 * location, and the `call.incoming` event on each of 50 staff browsers there (their "who is calling" notice),
 * timed from the moment the webhook was sent to its arrival at each socket.
 *
 *   BENCH_RING_SOCKETS=50   staff browsers at the location
 *   BENCH_RING_CALLS=20     calls, 200 ms apart
 *
 * The sockets live in a worker thread (their own event loop); the database is the first engine of the run.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import {
  PUBLIC_URL,
  TWILIO_SID,
  TWILIO_TOKEN,
  twilioWebhook,
} from '../../apps/server/src/modules/channels/test-support.ts';
import { connectAccount, demoOwner, signIn } from '../../apps/server/src/test/demo.ts';
import { DEMO_LOGINS, testConfig } from '../../apps/server/src/test/helpers.ts';
import { TMP_DIR } from '../generate.ts';
import { ENGINE_LABEL, type Section, type SummaryRow } from '../lib/context.ts';
import { openSectionDatabase } from '../lib/database.ts';
import { startSocketPool } from '../lib/socket-pool.ts';
import { ms, percentile, table } from '../lib/stats.ts';
import { fakeTwilioAccount } from './ingest.ts';

const PG_DB = 'switchboard_ring';
const NUMBER = '+61491570110';
const BUDGET_MS = 250;
const now = () => performance.timeOrigin + performance.now();

export const callRingSection: Section = {
  name: 'call-ring',
  async run(ctx) {
    const sockets = Number(process.env.BENCH_RING_SOCKETS ?? 50);
    const calls = Number(process.env.BENCH_RING_CALLS ?? 20);
    const engine = ctx.engines[0]!;
    ctx.log(`\n## A call rings ${sockets} staff browsers — ${ENGINE_LABEL[engine]}`);
    const database = await openSectionDatabase(ctx, engine, PG_DB);
    const dataDir = join(TMP_DIR, 'bench-ring');
    // Connecting the account asks Twilio whether the number is the account's: a loopback Twilio says it is.
    const twilio = await fakeTwilioAccount({ sid: TWILIO_SID, number: NUMBER });
    const app = await buildApp(
      testConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_URL, TWILIO_API_BASE: twilio.url }),
      { database },
    );
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('bench: no address');
      const staff = await signIn(app, DEMO_LOGINS.staff1);
      const { token: owner, locations } = await demoOwner(app);
      await connectAccount(app, owner, {
        location_id: locations[0]!,
        provider: 'twilio',
        config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
      });

      const pool = await startSocketPool({
        urls: [`http://127.0.0.1:${address.port}`],
        token: staff,
        count: sockets,
        event: 'call.incoming',
      });

      // When each call's webhook was sent, by the call id the app gives it.
      const sent = new Map<string, number>();
      let started = 0;
      app.events.prependListener('call.incoming', ({ call }) => {
        sent.set(call.id, started);
      });
      const answers: number[] = [];
      for (let i = 0; i < calls; i++) {
        const request = twilioWebhook('/webhooks/twilio/voice/incoming', {
          AccountSid: TWILIO_SID,
          CallSid: `CA${String(i).padStart(32, '0')}`,
          From: `+614915${String(71000 + i)}`,
          To: NUMBER,
          CallStatus: 'ringing',
        });
        started = now();
        const res = await fetch(`http://127.0.0.1:${address.port}${request.url}`, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
        });
        answers.push(now() - started);
        if (res.status !== 200)
          throw new Error(`bench: the call webhook answered ${res.status}: ${await res.text()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      await new Promise((r) => setTimeout(r, 500));
      const result = await pool.stop();

      const latencies: number[] = [];
      let complete = sent.size === calls;
      for (const [id, at] of sent) {
        const arrivals = result.arrivals[id] ?? [];
        if (arrivals.length !== sockets) complete = false;
        for (const t of arrivals) latencies.push(t - at);
      }
      latencies.sort((a, b) => a - b);
      answers.sort((a, b) => a - b);
      const p99 = percentile(latencies, 99);
      ctx.log(`${calls} calls 200 ms apart; from the webhook being sent, in ms.`);
      ctx.log(
        table(
          ['measure', 'count', 'p50', 'p99', 'max'],
          [
            [
              'TwiML answer',
              answers.length,
              ms(percentile(answers, 50)),
              ms(percentile(answers, 99)),
              ms(answers.at(-1) ?? Number.NaN),
            ],
            [
              'call.incoming at a browser',
              `${latencies.length} of ${calls * sockets}`,
              ms(percentile(latencies, 50)),
              ms(p99),
              ms(latencies.at(-1) ?? Number.NaN),
            ],
          ],
        ),
      );
      return [
        {
          section: 'call-ring',
          engine,
          what: `webhook → call.incoming on ${sockets} browsers, p99`,
          result: `p99 ${ms(p99)} ms${complete ? '' : ' (some browsers missed calls)'}`,
          budget: `≤ ${BUDGET_MS} ms`,
          verdict: p99 <= BUDGET_MS && complete ? 'PASS' : 'OVER',
        } satisfies SummaryRow,
      ];
    } finally {
      await app.close();
      await twilio.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
