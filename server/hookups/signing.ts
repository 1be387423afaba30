// Standard Webhooks signing (docs/api-hookups.md "Signing secret"): secrets `whsec_<base64>`, and the
// three headers of a message, signed by the `standardwebhooks` library with the current secret and, during
// the grace period after a rotation, the previous one too (receivers accept any listed signature).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';
/** How long the secret before a rotation keeps signing. */
export const SECRET_GRACE_HOURS = 24;

export const newSecret = () => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

export interface SigningKeys {
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** The secrets that sign at `now`: the current one, and the previous one while its grace lasts. */
export const signingSecrets = (keys: SigningKeys, now: Date): string[] =>
  keys.previousSecret && keys.previousSecretUntil && keys.previousSecretUntil.getTime() > now.getTime() ? [keys.secret, keys.previousSecret] : [keys.secret];

// One Webhook object per secret: it decodes the key once.
const signers = new Map<string, Webhook>();
const signerOf = (secret: string) => {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size > 10_000) signers.clear();
    signer = new Webhook(secret);
    signers.set(secret, signer);
  }
  return signer;
};

/**
 * The headers of one attempt. `sentAt` is the wall clock (receivers compare it with theirs to refuse
 * replays), `now` the delivery's clock (which secrets are valid).
 */
export const signedHeaders = (messageId: string, body: string, keys: SigningKeys, now: Date, sentAt = new Date()): Record<string, string> => ({
  'content-type': 'application/json',
  'user-agent': 'RVM-Console-Webhooks/1',
  'webhook-id': messageId,
  'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
  'webhook-signature': signingSecrets(keys, now)
    .map((secret) => signerOf(secret).sign(messageId, sentAt, body))
    .join(' '),
});
