// Server settings with their defaults; server.ts reads them from the environment, tests pass them to buildApp.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_REPEAT_SECONDS_DEFAULT } from '../resources/commands';
import { GATEWAY_DEFAULTS, type GatewayOptions } from './gateway';
import { deploySimulationFromEnv, type DeploySimulation } from './simulator/deploySettings';

export interface ServerConfig {
  /**
   * How long a resolved caller (token, user, account, permissions) may be served from memory at most;
   * any change to those tables forgets it at once (server/auth/callerCache.ts). 0: read on every request.
   */
  callerCacheSeconds: number;
  tokenIdleMinutes: number;
  tokenMaxHours: number;
  maxSessionsPerUser: number;
  /** Failed sign-ins of one user name from one address (request.ip) within the window before code 7 for that pair. */
  loginMaxFailures: number;
  /** Failed sign-ins of one user name from all addresses within the window before code 7 for everyone. */
  loginAccountMaxFailures: number;
  /** Failed sign-ins from one address, whatever the user names, within the window before 4029 for that address. */
  loginAddressMaxFailures: number;
  /** The window (minutes) of the three sign-in failure limits. */
  loginLockMinutes: number;
  /** Password hashes/verifications (scrypt, 32 MiB each at N=2^15; 128 MiB for a not yet upgraded 2^17 hash) running at once in one instance. */
  passwordCheckConcurrency: number;
  /** Password checks waiting for a slot at most; beyond, 4029 at once. */
  passwordCheckQueue: number;
  passwordMaxAgeDays: number;
  /** log2 of scrypt's N; p follows OWASP's equivalent sets (server/auth/passwords.ts): 15 = N=2^15 r=8 p=3, 32 MiB. Tests lower it. */
  passwordHashLogN: number;
  adminInitialPassword: string;
  resetTokenMinutes: number;
  /** Forgot-password calls from one address within the window before 4029. */
  forgotPasswordPerAddress: number;
  /** Reset mails to one user within the window; further calls answer success and send nothing. */
  resetMailsPerAccount: number;
  forgotPasswordWindowMinutes: number;
  /** Base of links in mails (the console's origin). */
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  exportMaxRows: number;
  /** Rows read per query while streaming an export. */
  exportBatchRows: number;
  /** Version reported in the login answer. */
  version: string;
  /** The same remote command to the same machine again within this many seconds answers 8001. */
  commandRepeatSeconds: number;
  /**
   * Coarse flood guard: API requests per minute from one address (per process) before 4029; 0 turns it off.
   * Generous on purpose (a load benchmark of 1,500 requests/s from one address stays under it).
   */
  rateLimitPerMinute: number;
  /**
   * Fastify's trustProxy: behind a reverse proxy, which hops' X-Forwarded-For to believe, so request.ip
   * (and every per-address limit) is the client's. false (default): the socket's address.
   */
  trustProxy: boolean | number | string;
  /** Audit log entries older than this many days are deleted (server/audit/retention.ts, docs/audit-log.md). */
  auditRetentionDays: number;
  /** Folder whose `*.json` resource type definitions are created or updated at start (RESOURCE_TYPES_DIR); none by default. */
  resourceTypesDir?: string;
  /** Uploaded files' folder (DATA_DIR/files); absent: a temporary folder, removed on close (docs/files.md). */
  filesDir?: string;
  /** FILES_S3_URL: S3-compatible object storage for uploaded files instead of the folder (docs/files.md). */
  filesS3Url?: string;
  /** Resumable uploads' bytes until they are complete (DATA_DIR/uploads); absent: a temporary folder, removed on close (docs/files.md). */
  uploadsDir?: string;
}

/** Set by the server bundle (scripts/build.mjs); from source the version is read from package.json. */
declare const __PACKAGE_VERSION__: string | undefined;

const packageVersion = (): string => {
  if (typeof __PACKAGE_VERSION__ === 'string') return __PACKAGE_VERSION__;
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
};

export const DEFAULT_CONFIG: ServerConfig = {
  callerCacheSeconds: 30,
  tokenIdleMinutes: 120,
  tokenMaxHours: 12,
  maxSessionsPerUser: 10,
  loginMaxFailures: 5,
  loginAccountMaxFailures: 50,
  loginAddressMaxFailures: 30,
  loginLockMinutes: 15,
  passwordCheckConcurrency: 2,
  passwordCheckQueue: 20,
  passwordMaxAgeDays: 90,
  passwordHashLogN: 15,
  adminInitialPassword: 'Admin@123',
  resetTokenMinutes: 30,
  forgotPasswordPerAddress: 10,
  resetMailsPerAccount: 3,
  forgotPasswordWindowMinutes: 60,
  publicUrl: 'http://localhost:8080',
  mailFrom: 'RVM Console <no-reply@localhost>',
  exportMaxRows: 100_000,
  exportBatchRows: 1000,
  version: packageVersion(),
  commandRepeatSeconds: COMMAND_REPEAT_SECONDS_DEFAULT,
  rateLimitPerMinute: 120_000,
  trustProxy: false,
  auditRetentionDays: 365,
};

type Env = Record<string, string | undefined>;

/** Empty strings count as unset (the e2e harness blanks DATABASE_URL that way). */
const value = (env: Env, name: string): string | undefined => {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
};

const positive = (env: Env, name: string, fallback: number): number => {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return parsed;
};

const nonNegative = (env: Env, name: string, fallback: number): number => {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, 0 or more, got "${raw}"`);
  return parsed;
};

/** TRUST_PROXY: `true`, a number of hops, or addresses/CIDRs separated by commas (Fastify's trustProxy). */
const trustProxyOf = (env: Env): boolean | number | string => {
  const raw = value(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
};

const whole = (env: Env, name: string, fallback: number, least: number): number => {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < least) throw new Error(`${name} must be a whole number, ${least} or more, got "${raw}"`);
  return parsed;
};

export interface StartupSettings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  staticDir: string;
  config: ServerConfig;
  /** The machine gateway (README "Machine gateway"). */
  gateway: GatewayOptions;
  /** Virtual machines to run inside the server (`--simulate` or SIMULATE=N); 0 for none. */
  simulate: { machines: number; speed: number; reopenAfterSeconds: number; pictureRate: number } & DeploySimulation;
}

/**
 * The built console beside the package's server code, whatever the working directory: `dist/` is the
 * sibling of both `server/` (tsx from source) and `dist-server/` (the bundle).
 */
export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist', import.meta.url));

/** `--simulate` alone runs this many virtual machines. */
const DEFAULT_SIMULATED_MACHINES = 20;

export const settingsFromEnv = (env: Env = process.env, argv: readonly string[] = process.argv.slice(2)): StartupSettings => {
  const port = positive(env, 'PORT', 8080);
  const logN = positive(env, 'PASSWORD_HASH_LOG_N', DEFAULT_CONFIG.passwordHashLogN);
  if (!Number.isInteger(logN) || logN < 10 || logN > 20) throw new Error('PASSWORD_HASH_LOG_N must be a whole number between 10 and 20');
  return {
    port,
    host: value(env, 'HOST') ?? '0.0.0.0',
    dataDir: value(env, 'DATA_DIR') ?? './data',
    databaseUrl: value(env, 'DATABASE_URL'),
    staticDir: value(env, 'STATIC_DIR') ?? DEFAULT_STATIC_DIR,
    gateway: {
      mqttUrl: value(env, 'MQTT_URL'),
      host: value(env, 'MQTT_HOST') ?? value(env, 'HOST') ?? '0.0.0.0',
      port: positive(env, 'MQTT_PORT', GATEWAY_DEFAULTS.port),
      offlineAfterSeconds: positive(env, 'MACHINE_OFFLINE_AFTER_SECONDS', GATEWAY_DEFAULTS.offlineAfterSeconds),
      messageIdDays: GATEWAY_DEFAULTS.messageIdDays,
    },
    simulate: {
      machines: value(env, 'SIMULATE') ? positive(env, 'SIMULATE', DEFAULT_SIMULATED_MACHINES) : argv.includes('--simulate') ? DEFAULT_SIMULATED_MACHINES : 0,
      speed: positive(env, 'SIMULATE_SPEED', 1),
      reopenAfterSeconds: positive(env, 'SIMULATE_REOPEN_SECONDS', 120),
      // share of items whose picture a virtual machine uploads (docs/ai-training.md "Samples")
      pictureRate: Math.min(1, Math.max(0, Number(value(env, 'SIMULATE_PICTURE_RATE') ?? 0.05) || 0)),
      ...deploySimulationFromEnv(env),
    },
    config: {
      ...DEFAULT_CONFIG,
      callerCacheSeconds: whole(env, 'CALLER_CACHE_SECONDS', DEFAULT_CONFIG.callerCacheSeconds, 0),
      tokenIdleMinutes: positive(env, 'TOKEN_IDLE_MINUTES', DEFAULT_CONFIG.tokenIdleMinutes),
      tokenMaxHours: positive(env, 'TOKEN_MAX_HOURS', DEFAULT_CONFIG.tokenMaxHours),
      maxSessionsPerUser: positive(env, 'MAX_SESSIONS_PER_USER', DEFAULT_CONFIG.maxSessionsPerUser),
      loginMaxFailures: positive(env, 'LOGIN_MAX_FAILURES', DEFAULT_CONFIG.loginMaxFailures),
      loginAccountMaxFailures: positive(env, 'LOGIN_ACCOUNT_MAX_FAILURES', DEFAULT_CONFIG.loginAccountMaxFailures),
      loginAddressMaxFailures: positive(env, 'LOGIN_ADDRESS_MAX_FAILURES', DEFAULT_CONFIG.loginAddressMaxFailures),
      loginLockMinutes: positive(env, 'LOGIN_LOCK_MINUTES', DEFAULT_CONFIG.loginLockMinutes),
      passwordCheckConcurrency: whole(env, 'PASSWORD_CHECK_CONCURRENCY', DEFAULT_CONFIG.passwordCheckConcurrency, 1),
      passwordCheckQueue: whole(env, 'PASSWORD_CHECK_QUEUE', DEFAULT_CONFIG.passwordCheckQueue, 0),
      forgotPasswordPerAddress: positive(env, 'FORGOT_PASSWORD_PER_ADDRESS', DEFAULT_CONFIG.forgotPasswordPerAddress),
      resetMailsPerAccount: positive(env, 'RESET_MAILS_PER_ACCOUNT', DEFAULT_CONFIG.resetMailsPerAccount),
      forgotPasswordWindowMinutes: positive(env, 'FORGOT_PASSWORD_WINDOW_MINUTES', DEFAULT_CONFIG.forgotPasswordWindowMinutes),
      passwordMaxAgeDays: positive(env, 'PASSWORD_MAX_AGE_DAYS', DEFAULT_CONFIG.passwordMaxAgeDays),
      passwordHashLogN: logN,
      adminInitialPassword: value(env, 'ADMIN_INITIAL_PASSWORD') ?? DEFAULT_CONFIG.adminInitialPassword,
      publicUrl: (value(env, 'PUBLIC_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
      smtpUrl: value(env, 'SMTP_URL'),
      mailFrom: value(env, 'MAIL_FROM') ?? DEFAULT_CONFIG.mailFrom,
      commandRepeatSeconds: positive(env, 'COMMAND_REPEAT_SECONDS', DEFAULT_CONFIG.commandRepeatSeconds),
      rateLimitPerMinute: nonNegative(env, 'RATE_LIMIT_PER_MINUTE', DEFAULT_CONFIG.rateLimitPerMinute),
      trustProxy: trustProxyOf(env),
      auditRetentionDays: whole(env, 'AUDIT_RETENTION_DAYS', DEFAULT_CONFIG.auditRetentionDays, 1),
      // resources/types/ when it exists (definitions kept in version control), unless RESOURCE_TYPES_DIR says otherwise.
      resourceTypesDir: value(env, 'RESOURCE_TYPES_DIR') ?? (existsSync('resources/types') ? 'resources/types' : undefined),
      // beside the embedded database's files, also when the database is PostgreSQL (DATA_DIR's default: ./data)
      filesDir: join(value(env, 'DATA_DIR') ?? './data', 'files'),
      filesS3Url: value(env, 'FILES_S3_URL'),
      uploadsDir: join(value(env, 'DATA_DIR') ?? './data', 'uploads'),
    },
  };
};
