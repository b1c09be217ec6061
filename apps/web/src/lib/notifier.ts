import type { ErrorNotice } from './error-catalogue.ts';

/** Where notices are drawn; the app registers antd's notification and message APIs here. */
export type NoticeSink = {
  error: (notice: ErrorNotice) => void;
  success: (text: string) => void;
  info: (text: string) => void;
  /** Something a teammate or customer did that this person should look at, with a link to it. */
  attention: (notice: AttentionNotice) => void;
  /** A call ringing: stays until `callEnded` with the same key. */
  ringing: (notice: RingingNotice) => void;
  callEnded: (key: string) => void;
};

export type RingingNotice = { key: string; title: string; body: string; href: string; action: string };

export type AttentionNotice = { title: string; body: string; href: string; action: string };

type Pending = { [K in keyof NoticeSink]: { kind: K; arg: Parameters<NoticeSink[K]>[0] } }[keyof NoticeSink];

let sink: NoticeSink | null = null;
let pending: Pending[] = [];

function deliver(item: Pending, to: NoticeSink): void {
  switch (item.kind) {
    case 'error':
      to.error(item.arg);
      return;
    case 'success':
      to.success(item.arg);
      return;
    case 'info':
      to.info(item.arg);
      return;
    case 'attention':
      to.attention(item.arg);
      return;
    case 'ringing':
      to.ringing(item.arg);
      return;
    case 'callEnded':
      to.callEnded(item.arg);
      return;
  }
}

function send(item: Pending): void {
  if (sink) deliver(item, sink);
  else pending.push(item);
}

/** Notices raised before the app has rendered (an early 401) are held and shown once it has. */
export function setNoticeSink(next: NoticeSink | null): void {
  sink = next;
  if (!next) return;
  const queued = pending;
  pending = [];
  for (const item of queued) deliver(item, next);
}

export const notify = {
  error: (notice: ErrorNotice) => send({ kind: 'error', arg: notice }),
  success: (text: string) => send({ kind: 'success', arg: text }),
  info: (text: string) => send({ kind: 'info', arg: text }),
  attention: (notice: AttentionNotice) => send({ kind: 'attention', arg: notice }),
  ringing: (notice: RingingNotice) => send({ kind: 'ringing', arg: notice }),
  callEnded: (key: string) => send({ kind: 'callEnded', arg: key }),
};
