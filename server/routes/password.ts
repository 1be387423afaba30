// Password calls: change one's own, reset another user's (administrators), and the forgot/reset
// flow by a single-use link mailed to the user (token stored hashed, RESET_TOKEN_MINUTES valid).
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../auth/guard';
import { assertPasswordRule, setPassword } from '../auth/passwordChange';
import { randomSecret, sha256 } from '../auth/tokens';
import { passwordReset, sysUser } from '../db/schema';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError, invalidField } from '../lib/errors';
import { resetMail } from '../lib/mailTemplates';
import { checkTargetWithinCaller, usersOfAccount } from '../resources/user';
import type { Services } from '../services';

const nullAnswer = (withToken: boolean) => ({ 200: envelopeSchema({ type: 'null' }), ...failureResponses(withToken) });
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });

export const registerPasswordRoutes = (app: FastifyInstance, { db, config, hasher, mailer }: Services) => {
  app.put(
    '/user/password',
    {
      schema: {
        tags: ['password'],
        summary: 'Change my password: ?password=<new>, body { oldPassword }; all my sessions are revoked',
        security: [{ rvmToken: [] }],
        querystring: { type: 'object', required: ['password'], properties: { password: { type: 'string', maxLength: 128 } } },
        body: { type: 'object', additionalProperties: false, required: ['oldPassword'], properties: { oldPassword: text(128) } },
        response: nullAnswer(true),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const password = (request.query as { password: string }).password.trim();
      const oldPassword = (request.body as { oldPassword: string }).oldPassword.trim();
      const [user] = await db.select({ password: sysUser.password }).from(sysUser).where(eq(sysUser.id, caller.userId));
      if (!(await hasher.verify(oldPassword, user.password))) throw invalidField('oldPassword', 'validation.incorrectPassword');
      if (password === oldPassword) throw invalidField('password', 'validation.samePassword');
      assertPasswordRule('password', password);
      await setPassword(db, caller.userId, await hasher.hash(password), { mustChange: false, reason: 'passwordChange' });
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
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'password'],
          properties: { id: { type: 'integer', minimum: 1 }, password: { type: 'string', maxLength: 128 } },
        },
        response: nullAnswer(true),
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { id, password } = request.body as { id: number; password: string };
      const [target] = await db
        .select({ id: sysUser.id, superAdmin: sysUser.superAdmin })
        .from(sysUser)
        .where(and(eq(sysUser.id, id), usersOfAccount(caller.principal.licenseAccountId)));
      if (!target) throw new AppError('2003');
      if (target.superAdmin && !caller.principal.superAdmin) throw new AppError('4003');
      // No taking over a stronger user: the target's rights and accounts must all be the caller's.
      await checkTargetWithinCaller({ tx: db, caller }, id);
      assertPasswordRule('password', password);
      await setPassword(db, id, await hasher.hash(password), { mustChange: true, reason: 'passwordReset' });
      return ok(request, null);
    },
  );

  app.post(
    '/login/forgotPassword',
    {
      config: { public: true },
      schema: {
        tags: ['password'],
        summary: 'Mail a reset link to the user (by user name or e-mail). Always answers success.',
        body: { type: 'object', additionalProperties: false, required: ['account'], properties: { account: text(128) } },
        response: nullAnswer(false),
      },
    },
    async (request) => {
      const account = (request.body as { account: string }).account.trim();
      const users = await db
        .select({ id: sysUser.id, email: sysUser.email, name: sysUser.name })
        .from(sysUser)
        .where(and(eq(sysUser.enabled, true), or(eq(sysUser.name, account), sql`lower(${sysUser.email}) = lower(${account})`)));
      for (const user of users) {
        // With SMTP a link could reach nobody: no token, no mail (the answer stays the same).
        if (config.smtpUrl && !user.email) continue;
        const token = randomSecret();
        const expiresAt = new Date(Date.now() + config.resetTokenMinutes * 60_000);
        await db.insert(passwordReset).values({ userId: user.id, tokenHash: sha256(token), expiresAt });
        const link = `${config.publicUrl}/resetPassword?token=${encodeURIComponent(token)}`;
        await mailer.send(db, resetMail(localeOf(request), user, link, config.resetTokenMinutes), request.log);
      }
      return ok(request, null);
    },
  );

  app.post(
    '/login/resetPassword',
    {
      config: { public: true },
      schema: {
        tags: ['password'],
        summary: 'Set a new password with a reset link token (single use); bad, used or expired token: 4006',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['token', 'password', 'confirmPassword'],
          properties: { token: text(128), password: { type: 'string', maxLength: 128 }, confirmPassword: { type: 'string', maxLength: 128 } },
        },
        response: nullAnswer(false),
      },
    },
    async (request) => {
      const { token, password, confirmPassword } = request.body as { token: string; password: string; confirmPassword: string };
      const live = and(eq(passwordReset.tokenHash, sha256(token)), isNull(passwordReset.usedAt), gt(passwordReset.expiresAt, new Date()));
      const [reset] = await db.select({ id: passwordReset.id, userId: passwordReset.userId }).from(passwordReset).where(live);
      if (!reset) throw new AppError('4006');
      assertPasswordRule('password', password);
      if (password !== confirmPassword) throw invalidField('confirmPassword', 'validation.passwordMismatch');
      const passwordHash = await hasher.hash(password);
      // Claiming the token and setting the password commit together; a concurrent second use finds it used.
      await db.transaction(async (tx) => {
        const claimed = await tx.update(passwordReset).set({ usedAt: new Date() }).where(and(eq(passwordReset.id, reset.id), live)).returning({ id: passwordReset.id });
        if (!claimed.length) throw new AppError('4006');
        await setPassword(tx, reset.userId, passwordHash, { mustChange: false, reason: 'passwordChange' });
      });
      return ok(request, null);
    },
  );
};
