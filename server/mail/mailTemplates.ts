// Mail texts in the requester's language.
import type { Locale } from '../../i18n';
import type { Mail } from './mailer';

/** `token` is the link's secret part: mail_outbox stores the mail with it redacted (mailer.ts). */
export const resetMail = (locale: Locale, user: { email: string | null; name: string }, link: string, minutes: number, token: string): Mail =>
  locale === 'zh'
    ? {
        to: user.email,
        subject: 'RVM 控制台：重置密码',
        text: `您好 ${user.name}：\n\n请在 ${minutes} 分钟内打开以下链接重置密码（仅可使用一次）：\n${link}\n\n如果您没有申请重置密码，请忽略此邮件。`,
        secrets: [token],
      }
    : {
        to: user.email,
        subject: 'RVM Console: reset your password',
        text: `Hello ${user.name},\n\nOpen this link within ${minutes} minutes to reset your password (it works once):\n${link}\n\nIf you did not ask for this, ignore this mail.`,
        secrets: [token],
      };
