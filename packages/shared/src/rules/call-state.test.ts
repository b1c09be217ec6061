import { describe, expect, it } from 'vitest';
import {
  type CallAction,
  type CallState,
  callReducer,
  formatCallDuration,
  INITIAL_CALL_STATE,
  type QueuedCall,
} from './call-state.ts';

const ring = (CallSid: string, From: string): QueuedCall => ({ parameters: { CallSid, From } });
const run = (actions: CallAction[], from: CallState = INITIAL_CALL_STATE) =>
  actions.reduce(callReducer, from);
const A = ring('CA1', '+61491570006');
const A2 = ring('CA2', '+61491570006');
const B = ring('CA3', '+61491570007');

// Each row: the spec's sentence, the actions from the initial state, and what the state then holds.
const SPEC: [string, CallAction[], Partial<CallState>][] = [
  [
    "Call status: null, connecting, calling, incoming (starts null; duration starts '00:00')",
    [],
    {
      status: null,
      type: null,
      duration: '00:00',
      uuid: null,
      fullScreen: false,
    },
  ],
  [
    'Triggering a queued call sets connecting, type outgoing and closes the dialer.',
    [{ type: 'dialer.opened' }, { type: 'call.queued', number: '+61491570156' }],
    { status: 'connecting', type: 'outgoing', dialerOpen: false, dialed: '+61491570156', uuid: null },
  ],
  [
    'When phone registration completes, connecting becomes calling with a new uuid.',
    [
      { type: 'call.queued', number: '+61491570156' },
      { type: 'phone.registered', uuid: 'u-1' },
    ],
    { status: 'calling', type: 'outgoing', uuid: 'u-1' },
  ],
  [
    'Phone registration completing with no call waiting changes nothing.',
    [{ type: 'phone.registered', uuid: 'u-1' }],
    { status: null, uuid: null },
  ],
  [
    'A direct call goes straight to calling with a new uuid.',
    [{ type: 'dialer.opened' }, { type: 'call.direct', number: '+61491570156', uuid: 'u-2' }],
    { status: 'calling', type: 'outgoing', uuid: 'u-2', dialerOpen: false },
  ],
  [
    'Incoming queue keyed by parameters.CallSid: the same call ringing twice is one entry.',
    [
      { type: 'incoming.added', call: A },
      { type: 'incoming.added', call: { ...A, caller_name: 'Ava' } },
    ],
    { status: 'incoming', type: 'incoming', queue: [{ ...A, caller_name: 'Ava' }] },
  ],
  [
    'Setting an incoming call removes queue entries from the same caller.',
    [
      { type: 'incoming.added', call: A },
      { type: 'incoming.added', call: B },
      { type: 'incoming.added', call: A2 },
      { type: 'incoming.set', call: A, uuid: 'u-3' },
    ],
    { status: 'calling', type: 'incoming', uuid: 'u-3', active: A, queue: [B] },
  ],
  [
    'Removing the last queued call while status is incoming resets status to null.',
    [
      { type: 'incoming.added', call: A },
      { type: 'incoming.removed', callSid: 'CA1' },
    ],
    { status: null, type: null, queue: [] },
  ],
  [
    'Removing a queued call while others still ring keeps status incoming.',
    [
      { type: 'incoming.added', call: A },
      { type: 'incoming.added', call: B },
      { type: 'incoming.removed', callSid: 'CA1' },
    ],
    { status: 'incoming', queue: [B] },
  ],
  [
    'Removing the last queued call during a call leaves the call as it is.',
    [
      { type: 'call.direct', number: '+61491570156', uuid: 'u-4' },
      { type: 'incoming.added', call: B },
      { type: 'incoming.removed', callSid: 'CA3' },
    ],
    { status: 'calling', uuid: 'u-4', queue: [] },
  ],
  [
    'The duration ticks while calling, as mm:ss.',
    [
      { type: 'call.direct', number: '+61491570156', uuid: 'u-5' },
      { type: 'duration.ticked', seconds: 65 },
    ],
    { duration: '01:05' },
  ],
  [
    'The duration does not tick before the call connects.',
    [
      { type: 'call.queued', number: '+61491570156' },
      { type: 'duration.ticked', seconds: 5 },
    ],
    { duration: '00:00' },
  ],
  [
    'Ending a call clears it; a call still ringing shows again.',
    [
      { type: 'call.direct', number: '+61491570156', uuid: 'u-6' },
      { type: 'fullScreen.set', fullScreen: true },
      { type: 'incoming.added', call: B },
      { type: 'duration.ticked', seconds: 30 },
      { type: 'call.ended' },
    ],
    { status: 'incoming', type: 'incoming', duration: '00:00', uuid: null, fullScreen: false, queue: [B] },
  ],
  [
    'Selected audio input and output devices are kept across calls.',
    [
      { type: 'devices.selected', devices: { input: 'mic-2', output: 'spk-1' } },
      { type: 'call.direct', number: '+61491570156', uuid: 'u-7' },
      { type: 'call.ended' },
    ],
    { devices: { input: 'mic-2', output: 'spk-1', ringing: null }, status: null },
  ],
];

describe('call state (spec §3, §4)', () => {
  it.each(SPEC)('%s', (_, actions, expected) => {
    expect(run(actions)).toMatchObject(expected);
  });

  it('never changes the state it was given', () => {
    const before = structuredClone(INITIAL_CALL_STATE);
    run([
      { type: 'incoming.added', call: A },
      { type: 'incoming.set', call: A, uuid: 'u' },
    ]);
    expect(INITIAL_CALL_STATE).toEqual(before);
  });
});

describe('formatCallDuration', () => {
  it.each([
    [0, '00:00'],
    [9, '00:09'],
    [600, '10:00'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [-3, '00:00'],
  ])('%i s is %s', (seconds, text) => expect(formatCallDuration(seconds)).toBe(text));
});
