// Sign in, sign out and "who am I" (ARCHITECTURE.md "Calls").
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { translate } from '../../i18n';
import { callerOf } from '../auth/guard';
import { buildLoginAnswer, loginAnswerSchema } from '../auth/loginAnswer';
import { claimAttempt, clearFailures } from '../auth/loginAttempts';
import { loadPrincipal } from '../auth/principal';
import { issueToken, revokeToken } from '../auth/tokens';
import { sysUser } from '../db/schema';
import { envelopeSchema, failureResponses, localeOf, ok } from '../lib/envelope';
import { AppError } from '../lib/errors';
import type { Services } from '../services';

interface LoginBody {
  username: string;
  password: string;
  rememberPassword?: boolean;
  utcOffsetMinutes?: number;
}

const loginBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['username', 'password'],
  properties: {
    username: { type: 'string', minLength: 2, maxLength: 8 },
    password: { type: 'string', minLength: 1, maxLength: 128 },
    rememberPassword: { type: 'boolean' },
    utcOffsetMinutes: { type: 'integer', minimum: -840, maximum: 840 },
  },
};

export const registerLoginRoutes = (app: FastifyInstance, { db, config, hasher }: Services) => {
  app.post(
    '/login/login',
    {
      config: { public: true },
      schema: {
        tags: ['login'],
        summary: 'Sign in',
        description:
          `Wrong user name or password: code 6, the message ending with the attempts left (the only number in it). ` +
          `After LOGIN_MAX_FAILURES failures within LOGIN_LOCK_MINUTES: code 7 until the window passes. Disabled user: 4005.`,
        body: loginBodySchema,
        response: { 200: envelopeSchema(loginAnswerSchema(true)), ...failureResponses(false) },
      },
    },
    async (request) => {
      const { username, password, utcOffsetMinutes } = request.body as LoginBody;
      // The attempt is recorded before the (slow) password check, so parallel guesses cannot pass the limit.
      const attempt = await claimAttempt(db, config, username);
      if (attempt === null) throw new AppError('7');
      const [user] = await db.select().from(sysUser).where(eq(sysUser.name, username)).limit(1);
      // Unknown users cost the same time and answer the same way as a wrong password.
      const valid = user ? await hasher.verify(password, user.password) : await hasher.verifyDummy(password);
      if (!user || !valid) {
        const left = config.loginMaxFailures - attempt;
        if (left <= 0) throw new AppError('7');
        const locale = localeOf(request);
        const resMsg = translate(locale, 'errors.wrongPasswordWithAttempts', {
          message: translate(locale, 'errors.6'),
          attempts: translate(locale, 'errors.attemptsLeft', { count: left }),
        });
        throw new AppError('6', { resMsg, resData: { attemptsLeft: left } });
      }
      // A right password is no failure (also for a disabled user, as before).
      await clearFailures(db, username);
      if (!user.enabled) throw new AppError('4005');
      const tokenValue = await issueToken(db, config, user.id, utcOffsetMinutes);
      const principal = await loadPrincipal(db, { id: 0, userId: user.id, utcOffsetMinutes: utcOffsetMinutes ?? null });
      return ok(request, await buildLoginAnswer(db, config, principal, tokenValue));
    },
  );

  const tokenRoute = (summary: string, data: Record<string, unknown>) => ({
    schema: { tags: ['login'], summary, security: [{ rvmToken: [] }], response: { 200: envelopeSchema(data), ...failureResponses(true) } },
  });

  app.get('/login/logout', tokenRoute('Sign out: the token is revoked (11015 afterwards)', { type: 'null' }), async (request) => {
    await revokeToken(db, callerOf(request).principal.tokenId, 'logout');
    return ok(request, null);
  });

  app.get('/login/current', tokenRoute('The login answer without tokenInfo (refreshes permissions)', loginAnswerSchema(false)), async (request) =>
    ok(request, await buildLoginAnswer(db, config, callerOf(request).principal)),
  );
};
