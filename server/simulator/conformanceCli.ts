// `npm run machine:check -- --serial S --secret K [--mqtt mqtt://host:1883] [--api http://host:8080]
// [--user admin --password P | --token T]`: the conformance check of server/simulator/conformance.ts.
// Exits 1 when a message was not treated as the protocol says.
import { parseArgs } from 'node:util';
import { formatResults, runConformance } from './conformance';

const { values } = parseArgs({
  options: {
    serial: { type: 'string' },
    secret: { type: 'string' },
    mqtt: { type: 'string', default: 'mqtt://127.0.0.1:1883' },
    api: { type: 'string', default: 'http://127.0.0.1:8080' },
    user: { type: 'string', default: 'admin' },
    password: { type: 'string' },
    token: { type: 'string' },
  },
});
if (!values.serial || !values.secret || (!values.token && !values.password)) {
  console.error(
    'usage: npm run machine:check -- --serial <serial> --secret <secret> [--mqtt mqtt://127.0.0.1:1883] [--api http://127.0.0.1:8080] (--user <name> --password <password> | --token <token>)',
  );
  process.exit(2);
}

const signIn = async (): Promise<string> => {
  if (values.token) return values.token;
  const response = await fetch(`${values.api}/test-api/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: values.user, password: values.password }),
  });
  const envelope = (await response.json()) as { resCode: string; resMsg: string; resData?: { tokenInfo: { tokenValue: string } } };
  if (envelope.resCode !== '00000') throw new Error(`signing in: ${envelope.resCode} ${envelope.resMsg}`);
  return envelope.resData!.tokenInfo.tokenValue;
};

const results = await runConformance({ mqttUrl: values.mqtt, serial: values.serial, secret: values.secret, apiUrl: values.api, token: await signIn() });
console.log(formatResults(results));
process.exit(results.every((result) => result.pass) ? 0 : 1);
