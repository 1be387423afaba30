// Sign in, sign out and "who am I" (ARCHITECTURE.md "Calls").
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { translate } from '../../i18n';
import { callerOf } from '../auth/guard';
import { buildLoginAnswer, loginAnswerSchema } from '../auth/loginAnswer';
import { claimLoginSlot, recordFailure, recordSuccess, releaseSlot, sweepLoginAttempts, type LoginClaim } from '../auth/loginAttempts';
import { afterAnswer } from '../auth/afterAnswer';
import { auditActor, recordSignInFailure } from '../audit/security';
import { recordEvent } from '../audit/record';
import { PasswordQueueFull, passwordChecksOf } from '../auth/passwordQueue';
import { upgradePasswordHash } from '../auth/rehash';
import { loadPrincipal } from '../auth/principal';
import { issueToken, revokeToken } from '../auth/tokens';
import { sysUser } from '../db/schema';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import type { Services } from '../services';

const loginBodySchema = StrictObject({
  username: Type.String({ minLength: 2, maxLength: 8 }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
  rememberPassword: Type.Optional(Type.Boolean()),
  utcOffsetMinutes: Type.Optional(Type.Integer({ minimum: -840, maximum: 840 })),
});

/** 4029 or 7 with the HTTP Retry-After header (seconds). */
const refuse = (reply: FastifyReply, code: '4029' | '7', retryAfter: number) => {
  reply.header('Retry-After', String(Math.max(1, Math.ceil(retryAfter))));
  return new AppError(code);
};

export const registerLoginRoutes = (app: TypedApp, services: Services) => {
  const { db, config } = services;
  const checks = passwordChecksOf(services);
  services.jobs.add({ name: 'loginAttemptSweep', everyMs: 5 * 60_000, run: (now) => sweepLoginAttempts(db, config, now) });

  app.post(
    '/login/login',
    {
      config: { public: true },
      schema: {
        tags: ['login'],
        summary: 'Sign in',
        description:
          `Wrong user name or password, unknown or disabled user: code 6, the message ending with the attempts left (the only number in it). ` +
          `Code 7 (HTTP 429, Retry-After) after LOGIN_MAX_FAILURES failures of this user name from this address, or LOGIN_ACCOUNT_MAX_FAILURES ` +
          `from all addresses, within LOGIN_LOCK_MINUTES. 4029 (HTTP 429, Retry-After) after LOGIN_ADDRESS_MAX_FAILURES failures from this ` +
          `address, or when the instance's password checks are all busy. README "Permissions and security".`,
        body: loginBodySchema,
        response: { 200: envelopeSchema(loginAnswerSchema(true)), ...failureResponses(false) },
      },
    },
    async (request, reply) => {
      const { username, password, utcOffsetMinutes } = request.body;
      // Refused at once, before any database work, while this instance's checks are all taken.
      if (checks.queue.full) throw refuse(reply, '4029', 1);
      // A slot is reserved before the (slow) password check, so parallel guesses cannot pass the limits.
      const claim: LoginClaim = await claimLoginSlot(db, config, username, request.ip);
      if (claim.kind === 'locked') throw refuse(reply, '7', claim.retryAfter);
      if (claim.kind !== 'claimed') throw refuse(reply, '4029', claim.retryAfter);
      let checked: { user: typeof sysUser.$inferSelect | undefined; valid: boolean };
      try {
        const [user] = await db.select().from(sysUser).where(eq(sysUser.name, username)).limit(1);
        // Unknown users cost the same time and answer the same way as a wrong password.
        checked = { user, valid: user ? await checks.verify(password, user.password) : await checks.verifyDummy(password) };
      } catch (error) {
        // No password was checked: the slot goes back.
        await releaseSlot(db, claim);
        if (error instanceof PasswordQueueFull) throw refuse(reply, '4029', 1);
        throw error;
      }
      const { user, valid } = checked;
      // A disabled user answers exactly like a wrong password, even with the right one (no telling that it is right).
      if (!user || !valid || !user.enabled) {
        await recordFailure(db, claim);
        await recordSignInFailure(db, username, user, !user ? 'unknownUser' : !valid ? 'wrongPassword' : 'disabled', claim.attemptsLeft <= 0);
        if (claim.attemptsLeft <= 0) throw refuse(reply, '7', claim.retryAfterIfLocked);
        const locale = localeOf(request);
        const resMsg = translate(locale, 'errors.wrongPasswordWithAttempts', {
          message: translate(locale, 'errors.6'),
          attempts: translate(locale, 'errors.attemptsLeft', { count: claim.attemptsLeft }),
        });
        throw new AppError('6', { resMsg, resData: { attemptsLeft: claim.attemptsLeft } });
      }
      await recordSuccess(db, claim);
      // A hash made with older parameters is re-hashed with the current ones (server/auth/rehash.ts).
      afterAnswer(reply, services, request.log, () => upgradePasswordHash(db, checks, user, password));
      const tokenValue = await issueToken(db, config, user.id, utcOffsetMinutes);
      const principal = await loadPrincipal(db, { id: 0, userId: user.id, utcOffsetMinutes: utcOffsetMinutes ?? null });
      await recordEvent(db, { ...auditActor(principal), action: 'signIn', resource: 'user', recordId: user.id, outcome: 'success' });
      return ok(request, await buildLoginAnswer(db, config, principal, tokenValue));
    },
  );

  const tokenRoute = (summary: string, data: Record<string, unknown>) => ({
    config: { whilePasswordChangeRequired: true }, // both are needed by the forced change-password dialog (else 4007)
    schema: { tags: ['login'], summary, security: [{ rvmToken: [] }], response: { 200: envelopeSchema(data), ...failureResponses(true) } },
  });

  app.get('/login/logout', tokenRoute('Sign out: the token is revoked (11015 afterwards)', { type: 'null' }), async (request) => {
    const { principal } = callerOf(request);
    await revokeToken(db, principal.tokenId, 'logout');
    await recordEvent(db, { ...auditActor(principal), action: 'signOut', resource: 'user', recordId: principal.userId, outcome: 'success' });
    return ok(request, null);
  });

  app.get('/login/current', tokenRoute('The login answer without tokenInfo (refreshes permissions)', loginAnswerSchema(false)), async (request) =>
    ok(request, await buildLoginAnswer(db, config, callerOf(request).principal)),
  );
};
