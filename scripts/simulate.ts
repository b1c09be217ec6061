// `npm run simulate -- --channel sms --from +61491570006 --location "Docklands" "Hi, are you open Saturday?"`
// Plays a customer against a running Switchboard in sandbox mode: sends the message in as that customer and,
// with --watch, prints every reply the business sends back, live.
import { parseArgs } from 'node:util';
import { io } from 'socket.io-client';

const USAGE = `Usage: npm run simulate -- [options] "message"
  --channel   sms | mms | whatsapp | facebook | instagram | google_rcs | email | web_form | contact_form | widget (default sms)
  --from      the customer's phone number, email address or id on that channel
  --name      the customer's name
  --subject   subject line (email)
  --location  location id or (part of) its name (default: the signed-in user's selected location)
  --url       server address (default http://127.0.0.1:3000, or SWITCHBOARD_URL)
  --email     staff login used to reach the sandbox (default owner@harbourside.test, or SWITCHBOARD_EMAIL)
  --password  its password (default demo1234, or SWITCHBOARD_PASSWORD)
  --watch     stay connected and print the business's replies as they are sent`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    channel: { type: 'string', default: 'sms' },
    from: { type: 'string' },
    name: { type: 'string' },
    subject: { type: 'string' },
    location: { type: 'string' },
    url: { type: 'string', default: process.env.SWITCHBOARD_URL ?? 'http://127.0.0.1:3000' },
    email: { type: 'string', default: process.env.SWITCHBOARD_EMAIL ?? 'owner@harbourside.test' },
    password: { type: 'string', default: process.env.SWITCHBOARD_PASSWORD ?? 'demo1234' },
    watch: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const text = positionals.join(' ').trim();
if (!text || !values.from) fail(`${USAGE}\n\nGive --from and the message text.`);

const base = values.url.replace(/\/+$/, '');

async function call<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => fail(`Cannot reach Switchboard at ${base}. Is it running (npm start)?`));
  const json = (await res.json().catch(() => ({}))) as { body?: T; message?: string };
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${json.message ?? res.statusText}`);
  return json.body as T;
}

type Me = {
  businesses: { selected: boolean; locations: { id: string; name: string | null; selected: boolean }[] }[];
};

const { token } = await call<{ token: string }>('POST', '/auth/login', undefined, {
  email: values.email,
  password: values.password,
});
const me = await call<Me>('GET', '/user/me', token);
const locations = me.businesses.find((b) => b.selected)?.locations ?? [];
const wanted = values.location?.toLowerCase();
const location = wanted
  ? locations.find(
      (l) => l.id === values.location || (l.name ?? 'Unknown Location').toLowerCase().includes(wanted),
    )
  : locations.find((l) => l.selected);
if (!location)
  fail(
    `No location matches "${values.location}". Locations: ${locations.map((l) => l.name ?? l.id).join(', ')}`,
  );

const from = values.from.includes('@')
  ? { email: values.from, name: values.name }
  : /^\+?[\d\s()-]{6,}$/.test(values.from)
    ? { phone: values.from, name: values.name }
    : { external_id: values.from, name: values.name };

const sent = await call<{ enquiry_id: string }>('POST', '/sandbox/inbound', token, {
  channel: values.channel,
  location_id: location.id,
  from,
  message: text,
  subject: values.subject,
});
console.log(
  `Sent to ${location.name ?? 'Unknown Location'} as ${values.from} on ${values.channel}: enquiry ${sent.enquiry_id}`,
);

if (values.watch) {
  console.log('Waiting for replies (Ctrl+C to stop)…');
  const socket = io(base, { auth: { token }, transports: ['websocket'] });
  socket.on('connect', () => socket.emit('enquiry.open', sent.enquiry_id));
  socket.on(
    'message.created',
    (m: {
      enquiry_id: string;
      direction: string;
      message: string;
      team_user?: { full_name: string } | null;
    }) => {
      if (m.enquiry_id !== sent.enquiry_id || m.direction !== 'out') return;
      console.log(`\n${m.team_user?.full_name ?? 'Business'}: ${m.message}`);
    },
  );
  socket.on('connect_error', (err) => fail(`Live connection refused: ${err.message}`));
}
