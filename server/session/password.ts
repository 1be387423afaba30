// Password calls: change one's own, reset another user's (administrators), and the forgot/reset
// flow by a single-use link mailed to the user (token stored hashed, RESET_TOKEN_MINUTES valid).
// Every hash and verification goes through the instance's bounded queue (auth/passwordQueue.ts).
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import type { Locale } from '../../i18n';
import { auditActor } from '../audit/security';
import { afterAnswer, answeredWorkSettled } from '../auth/afterAnswer';
import { callerOf } from '../auth/guard';
import { assertPasswordRule, setPassword } from '../auth/passwordChange';
import { boundedPasswordWork, passwordChecksOf } from '../auth/passwordQueue';
import { hitRateLimit, sweepRateLimitHits } from '../auth/rateLimit';
import { randomSecret, sha256 } from '../auth/tokens';
import { passwordReset, sysUser } from '../db/schema';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';
import { resetMail } from '../mail/mailTemplates';
import { StrictObject, type TypedApp } from '../lib/typedApp';
import { checkTargetWithinCaller, usersOfAccount } from '../resources/user';
import type { Services } from '../services';

const nullAnswer = (withToken: boolean) => ({ 200: envelopeSchema({ type: 'null' }), ...failureResponses(withToken) });
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
// No minLength: the password rule (assertPasswordRule) answers an empty one, as any other it refuses.
const passwordField = () => Type.String({ maxLength: 128 });

export const registerPasswordRoutes = (app: TypedApp, services: Services) => {
  const { db, config, mailer } = services;
  const hasher = passwordChecksOf(services);
  services.jobs.add({ name: 'rateLimitSweep', everyMs: 5 * 60_000, run: (now) => sweepRateLimitHits(db, config.forgotPasswordWindowMinutes, now) });
  // Mails of forgot-password calls already answered are written before the database closes.
  app.addHook('onClose', () => answeredWorkSettled(services));

  /** Forgot-password's work, after the answer: a link to each enabled user the account names (by name or e-mail). */
  const mailResetLinks = async (account: string, locale: Locale, log: FastifyBaseLogger) => {
    const users = await db
      .select({ id: sysUser.id, email: sysUser.email, name: sysUser.name })
      .from(sysUser)
      .where(and(eq(sysUser.enabled, true), or(eq(sysUser.name, account), sql`lower(${sysUser.email}) = lower(${account})`)));
    for (const user of users) {
      // With SMTP a link could reach nobody: no token, no mail.
      if (config.smtpUrl && !user.email) continue;
      // At most RESET_MAILS_PER_ACCOUNT mails per user and window, whoever asks from wherever.
      const limit = await hitRateLimit(db, 'resetMailUser', String(user.id), config.resetMailsPerAccount, config.forgotPasswordWindowMinutes);
      if (!limit.allowed) {
        log.info({ userId: user.id }, 'reset mail not sent: RESET_MAILS_PER_ACCOUNT reached');
        continue;
      }
      const token = randomSecret();
      const expiresAt = new Date(Date.now() + config.resetTokenMinutes * 60_000);
      await db.insert(passwordReset).values({ userId: user.id, tokenHash: sha256(token), expiresAt });
      const secret = encodeURIComponent(token);
      const link = `${config.publicUrl}/resetPassword?token=${secret}`;
      await mailer.send(db, resetMail(locale, user, link, config.resetTokenMinutes, secret), log);
    }
  };

  app.put(
    '/user/password',
    {
      config: { whilePasswordChangeRequired: true },
      schema: {
        tags: ['password'],
        summary: 'Change my password: ?password=<new>, body { oldPassword }; all my sessions are revoked',
        security: [{ rvmToken: [] }],
        querystring: Type.Object({ password: passwordField() }),
        body: StrictObject({ oldPassword: text(128) }),
        response: nullAnswer(true),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const password = request.query.password.trim();
      const oldPassword = request.body.oldPassword.trim();
      const [user] = await db.select({ password: sysUser.password }).from(sysUser).where(eq(sysUser.id, caller.userId));
      if (!(await boundedPasswordWork(reply, () => hasher.verify(oldPassword, user.password)))) throw invalidField('oldPassword', 'validation.incorrectPassword');
      if (password === oldPassword) throw invalidField('password', 'validation.samePassword');
      assertPasswordRule('password', password);
      const passwordHash = await boundedPasswordWork(reply, () => hasher.hash(password));
      await setPassword(db, caller.userId, passwordHash, { mustChange: false, reason: 'passwordChange', audit: { action: 'passwordChange', by: auditActor(caller.principal) } });
      return ok(request, null);
    },
  );

  app.put(
    '/user/resetPassword',
    {
      config: { permissions: ['user:resetPassword'] },
      schema: {
        tags: ['password'],
        summary: "Set another user's password (they must change it at next sign-in; their sessions are revoked)",
        security: [{ rvmToken: [] }],
        body: StrictObject({ id: Type.Integer({ minimum: 1 }), password: passwordField() }),
        response: nullAnswer(true),
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id, password } = request.body;
      const [target] = await db
        .select({ id: sysUser.id, superAdmin: sysUser.superAdmin })
        .from(sysUser)
        .where(and(eq(sysUser.id, id), usersOfAccount(caller.principal.licenseAccountId)));
      if (!target) throw new AppError('2003');
      if (target.superAdmin && !caller.principal.superAdmin) throw new AppError('4003');
      // No taking over a stronger user: the target's rights and accounts must all be the caller's.
      await checkTargetWithinCaller({ tx: db, caller }, id);
      assertPasswordRule('password', password);
      await setPassword(db, id, await boundedPasswordWork(reply, () => hasher.hash(password)), {
        mustChange: true,
        reason: 'passwordReset',
        audit: { action: 'passwordReset', by: auditActor(caller.principal) },
      });
      return ok(request, null);
    },
  );

  app.post(
    '/login/forgotPassword',
    {
      config: { public: true },
      schema: {
        tags: ['password'],
        summary: 'Mail a reset link to the user (by user name or e-mail). Answers success (before any work on the account)',
        description:
          'Answers success whether or not the account exists, before looking it up (the mail is written after the answer). ' +
          'At most RESET_MAILS_PER_ACCOUNT mails per user within FORGOT_PASSWORD_WINDOW_MINUTES (further calls answer success and send nothing); ' +
          'more than FORGOT_PASSWORD_PER_ADDRESS calls from one address within that window: 4029 (HTTP 429, Retry-After).',
        body: StrictObject({ account: text(128) }),
        response: nullAnswer(false),
      },
    },
    async (request, reply) => {
      const account = request.body.account.trim();
      // The one piece of work before answering, the same whatever the account.
      const limit = await hitRateLimit(db, 'forgotAddress', request.ip, config.forgotPasswordPerAddress, config.forgotPasswordWindowMinutes);
      if (!limit.allowed) {
        reply.header('Retry-After', String(limit.retryAfter));
        throw new AppError('4029');
      }
      const locale = localeOf(request);
      afterAnswer(reply, services, request.log, () => mailResetLinks(account, locale, request.log));
      return ok(request, null);
    },
  );

  // The reset page asks first, so a used, expired or unknown link shows "no longer valid" instead of a
  // form that can only fail. It tells nothing about users: only whether this secret is live.
  app.get(
    '/login/resetPassword/check',
    {
      config: { public: true },
      schema: {
        tags: ['password'],
        summary: 'Whether a reset link token can still be used: { valid } (never says whose it is)',
        querystring: StrictObject({ token: Type.String({ maxLength: 128 }) }),
        response: { 200: envelopeSchema({ type: 'object', properties: { valid: { type: 'boolean' } } }), ...failureResponses(false) },
      },
    },
    async (request) => {
      const { token } = request.query;
      const live = and(eq(passwordReset.tokenHash, sha256(token)), isNull(passwordReset.usedAt), gt(passwordReset.expiresAt, new Date()));
      const [reset] = token ? await db.select({ id: passwordReset.id }).from(passwordReset).where(live).limit(1) : [];
      return ok(request, { valid: Boolean(reset) });
    },
  );

  app.post(
    '/login/resetPassword',
    {
      config: { public: true },
      schema: {
        tags: ['password'],
        summary: 'Set a new password with a reset link token (single use); bad, used or expired token: 4006',
        body: StrictObject({ token: text(128), password: passwordField(), confirmPassword: passwordField() }),
        response: nullAnswer(false),
      },
    },
    async (request, reply) => {
      const { token, password, confirmPassword } = request.body;
      const live = and(eq(passwordReset.tokenHash, sha256(token)), isNull(passwordReset.usedAt), gt(passwordReset.expiresAt, new Date()));
      const [reset] = await db.select({ id: passwordReset.id, userId: passwordReset.userId }).from(passwordReset).where(live);
      if (!reset) throw new AppError('4006');
      assertPasswordRule('password', password);
      if (password !== confirmPassword) throw invalidField('confirmPassword', 'validation.passwordMismatch');
      const passwordHash = await boundedPasswordWork(reply, () => hasher.hash(password));
      // Claiming the token and setting the password commit together; a concurrent second use finds it used.
      await db.transaction(async (tx) => {
        const claimed = await tx
          .update(passwordReset)
          .set({ usedAt: new Date() })
          .where(and(eq(passwordReset.id, reset.id), live))
          .returning({ id: passwordReset.id });
        if (!claimed.length) throw new AppError('4006');
        await setPassword(tx, reset.userId, passwordHash, { mustChange: false, reason: 'passwordChange', audit: { action: 'passwordResetByLink' } });
      });
      return ok(request, null);
    },
  );
};
