// npm run simulate -- --machines N [--speed X] [--seed S] --url http://localhost:8080 --user admin --password <pw>
// Virtual machines for a running console: their secrets come from its HTTP API, they talk to its
// machine gateway over MQTT. Prints progress every few seconds; Ctrl-C says goodbye and stops.
import { parseArgs } from 'node:util';
import type { DeployFaults } from './deploy';
import { DEPLOY_FAULT_SETTINGS, deploySimulationFromEnv, parseRate } from './deploySettings';
import { startFleet, type FleetStats } from './fleet';
import { httpSource } from './httpSource';
import { httpVendorTransport, VendorConnectClient } from './vendorConnect';
import { DEFAULT_PICTURE_RATE, httpPictureTransport, PictureUploader } from './pictureUpload';

const USAGE = `npm run simulate -- --machines N --password <pw> [options]
  --machines N         how many of the console's active machines to simulate (default 10)
  --url URL            the console (default http://localhost:8080)
  --user NAME          who signs in (default admin; needs machine edit rights: each secret is rotated)
  --password PW        that user's password (or SIMULATE_PASSWORD)
  --speed X            time runs X times faster (default 1); message timestamps stay real
  --seed S             same seed, same machines and consumers (default: random)
  --failure-rate F     share of commands that fail (default 0.05)
  --reopen-after SEC   simulated seconds a closed machine stays away (default 120)
  --picture-rate F     share of items whose picture is uploaded (default 0.05; 0: none)
  --rate N             messages per second for the whole fleet (default 500)
  --deploy-broken R    share of package downloads cut mid-way and resumed (default 0.05, or SIMULATE_DEPLOY_BROKEN)
  --deploy-checksum R  share of downloads arriving corrupted: checksumFailed (default 0.01, SIMULATE_DEPLOY_CHECKSUM)
  --deploy-apply-failure R  share of packages failing to apply (default 0.02, SIMULATE_DEPLOY_APPLY_FAILURE)
  --deploy-silent R    share of deliveries the machine never answers (default 0.01, SIMULATE_DEPLOY_SILENT)
  --bad-package NAME   a package that degrades machines applying it (repeatable; also SIMULATE_BAD_PACKAGES;
                       a version ending in -bad always does)
  --broker URL         where machines connect, if not the server's own machine URL
  --verbose            every machine's connection events`;

const PROGRESS_EVERY_MS = 5000;

const fail = (message: string): never => {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
};

const { values } = parseArgs({
  options: {
    machines: { type: 'string', default: '10' },
    url: { type: 'string', default: 'http://localhost:8080' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string' },
    speed: { type: 'string', default: '1' },
    seed: { type: 'string' },
    'failure-rate': { type: 'string', default: '0.05' },
    'reopen-after': { type: 'string', default: '120' },
    rate: { type: 'string', default: '500' },
    'deploy-broken': { type: 'string' },
    'deploy-checksum': { type: 'string' },
    'deploy-apply-failure': { type: 'string' },
    'deploy-silent': { type: 'string' },
    'bad-package': { type: 'string', multiple: true, default: [] },
    broker: { type: 'string' },
    'picture-rate': { type: 'string', default: String(DEFAULT_PICTURE_RATE) },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const number = (name: string, text: string, check: (n: number) => boolean) => {
  const value = Number(text);
  return Number.isFinite(value) && check(value) ? value : fail(`--${name}: ${text} is not valid`);
};
const machines = number('machines', values.machines, (n) => Number.isInteger(n) && n >= 1);
const speed = number('speed', values.speed, (n) => n > 0);
const failureRate = number('failure-rate', values['failure-rate'], (n) => n >= 0 && n <= 1);
const reopenAfterSeconds = number('reopen-after', values['reopen-after'], (n) => n >= 0);
const rate = number('rate', values.rate, (n) => n >= 1);
const fromEnv = (() => {
  try {
    return deploySimulationFromEnv(process.env);
  } catch (error) {
    return fail((error as Error).message);
  }
})();
const deployFaults = { ...fromEnv.deployFaults };
for (const [mode, { option }] of Object.entries(DEPLOY_FAULT_SETTINGS) as Array<[keyof DeployFaults, { option: string }]>) {
  const text = values[option as 'deploy-broken'];
  if (text === undefined) continue;
  try {
    deployFaults[mode] = parseRate(`--${option}`, text);
  } catch (error) {
    fail((error as Error).message);
  }
}
const badPackages = [...fromEnv.badPackages, ...values['bad-package']];
const password = values.password ?? process.env.SIMULATE_PASSWORD ?? fail('--password is required');
const seed = values.seed ?? Date.now().toString(36);

const source = await httpSource({ url: values.url, user: values.user, password, machines, brokerUrl: values.broker }).catch((error: Error) =>
  fail(`Cannot read the machines of ${values.url}: ${error.message}`),
);
if (source.machines.length === 0) fail(`${values.url} has no active machines for ${values.user}`);
console.log(`Simulating ${source.machines.length} machine(s) of ${values.url} at speed ${speed}, seed ${seed} (Ctrl-C stops)`);

const fleet = startFleet({
  ...source,
  seed,
  speed,
  failureRate,
  reopenAfterSeconds,
  maxMessagesPerSecond: rate,
  deployFaults,
  badPackages,
  // machines with a vendorConnect app ask it during sessions (the server says which: 9000 without an app)
  vendorConnect: new VendorConnectClient({ transport: httpVendorTransport(values.url), log: (line) => values.verbose && console.log(line) }),
  // a sampled share of the items' pictures, uploaded over HTTP (docs/machine-protocol.md "Item pictures")
  pictures: new PictureUploader({
    transport: httpPictureTransport(values.url),
    rate: Math.min(1, Math.max(0, Number(values['picture-rate']) || 0)),
    log: (line) => values.verbose && console.log(line),
  }),
  log: (line) => {
    if (values.verbose || line.includes('provisioning failed')) console.log(line);
  },
});

let last: FleetStats = fleet.stats();
let lastTime = Date.now();
const progress = setInterval(() => {
  const now = Date.now();
  const stats = fleet.stats();
  const perSecond = ((stats.messagesSent - last.messagesSent) * 1000) / Math.max(1, now - lastTime);
  console.log(
    `connected ${stats.connected}/${stats.machines} · ${perSecond.toFixed(1)} msg/s · ${stats.messagesSent} sent` +
      ` · ${stats.commandsAnswered} commands answered · ${stats.sessions} sessions` +
      (stats.deploysReceived ? ` · ${stats.deploysApplied}/${stats.deploysReceived} packages applied` : '') +
      (stats.errors || stats.provisionFailures ? ` · ${stats.errors} connection errors, ${stats.provisionFailures} not provisioned` : ''),
  );
  last = stats;
  lastTime = now;
}, PROGRESS_EVERY_MS);

let stopping = false;
const stop = async () => {
  if (stopping) process.exit(1); // a second Ctrl-C: leave at once
  stopping = true;
  clearInterval(progress);
  console.log('Stopping: every machine says goodbye (shutdown)...');
  await fleet.stop();
  const stats = fleet.stats();
  console.log(`Done: ${stats.messagesSent} messages sent, ${stats.commandsAnswered} commands answered, ${stats.sessions} consumer sessions.`);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
