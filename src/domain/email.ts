/**
 * Outbound email: the admin notification and the user's confirmation for POST /api/submit and
 * POST /api/waitlist. The provider comes from configuration (see src/config.ts):
 * - `resend`: a Resend-compatible HTTP API, POST {base}/emails with `Authorization: Bearer <key>` and
 *   JSON {from, to, subject, text, html};
 * - `smtp`: any SMTP server through nodemailer (`smtp://user:pass@host:port`, `smtps://…`);
 * - `none`: nothing is sent and send() answers false.
 * A provider error never fails the caller's request: send() answers false (the route reports
 * `email_sent: false`) and logs a warning without the message body or any secret. Every user value that
 * goes into HTML mail is escaped; subjects are stripped of control characters (no header injection).
 *
 * Abuse policy (anyone can make the service write to any address through the public forms):
 * - Subjects carry no text a requester chose (ids and positions only).
 * - Mail to the requester's (unverified) address carries no free text they chose: the waitlist confirmation
 *   states the position, the submission confirmation the id. Admin notices show the fields, HTML-escaped.
 * - At most SVC_MAIL_PER_RECIPIENT_DAY messages (default 5) go to one address per UTC day, counted in the store
 *   (shared by every instance; without one, by the primary process for all of SVC_WORKERS, src/cluster.ts); past
 *   that, send() answers false and logs it. Admin notices are not capped.
 */
import nodemailer, { type TransportOptions } from 'nodemailer';
import type { Config } from '../config.ts';
import type { SubmissionRecord } from '../store/types.ts';
import { escapeHtml } from '../text.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** True when the provider accepted the message; false on any error (and with provider `none`). Never throws. */
  send(msg: MailMessage): Promise<boolean>;
}

export interface MailLogger {
  warn(obj: object, msg?: string): void;
}

const TIMEOUT_MS = 10_000;

export function createMailer(config: Config['email'], logger: MailLogger): Mailer {
  const from = config.from;
  if (config.provider === 'resend' && config.resendApiKey) {
    const endpoint = `${config.resendBaseUrl}/emails`;
    const key = config.resendApiKey;
    return {
      async send(msg) {
        try {
          const res = await fetch(endpoint, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              from,
              to: msg.to,
              subject: msg.subject,
              text: msg.text,
              ...(msg.html ? { html: msg.html } : {}),
            }),
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
          await res.arrayBuffer().catch(() => undefined);
          if (res.ok) return true;
          logger.warn({ provider: 'resend', status: res.status }, 'email provider refused a message');
          return false;
        } catch (err) {
          logger.warn({ provider: 'resend', error: (err as Error).name }, 'email provider unreachable');
          return false;
        }
      },
    };
  }
  if (config.provider === 'smtp' && config.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    } as TransportOptions);
    return {
      async send(msg) {
        try {
          await transport.sendMail({
            from,
            to: msg.to,
            subject: msg.subject,
            text: msg.text,
            ...(msg.html ? { html: msg.html } : {}),
          });
          return true;
        } catch (err) {
          logger.warn(
            {
              provider: 'smtp',
              code: (err as { code?: string }).code,
              responseCode: (err as { responseCode?: number }).responseCode,
            },
            'email provider refused a message',
          );
          return false;
        }
      },
    };
  }
  return { send: async () => false };
}

/** Subjects carry user values: no control characters (CR/LF would inject headers), at most 200 code points. */
export function safeSubject(value: string): string {
  return [...value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')].slice(0, 200).join('');
}

/**
 * A value in the plain-text part: every line break (CR, LF, CRLF, U+2028/9) starts an indented continuation line,
 * so a user value can never begin a line of its own that reads as another row ("Bcc: …", "Contact: …").
 */
function textValue(v: string | number): string {
  return String(v).replace(/\r\n|[\r\n\u2028\u2029]/g, '\n  ');
}

/** Rows of label/value pairs as a plain-text block and an escaped HTML table. */
export function render(intro: string, rows: [string, string | number | undefined][]): { text: string; html: string } {
  const present = rows.filter((r): r is [string, string | number] => r[1] !== undefined && r[1] !== '');
  const text = `${intro}\n\n${present.map(([k, v]) => `${k}: ${textValue(v)}`).join('\n')}\n`;
  const html =
    `<p>${escapeHtml(intro)}</p><table>` +
    present
      .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(String(v))}</td></tr>`)
      .join('') +
    '</table>';
  return { text, html };
}

export interface WaitlistMailInput {
  email: string;
  name?: string;
  organization?: string;
  useCase?: string;
  position: number;
}

export function waitlistConfirmation(w: WaitlistMailInput): MailMessage {
  // Mail to an address nobody has verified carries no text the requester chose (no name, no organization):
  // otherwise the form would send anyone's words to any inbox.
  const body = render(`You are on the waitlist, at position ${w.position}. We will write when your access is ready.`, [
    ['Position', w.position],
  ]);
  return { to: w.email, subject: `You're on the waitlist (position ${w.position})`, ...body };
}

export function waitlistAdminNotice(admin: string, w: WaitlistMailInput): MailMessage {
  const body = render('New waitlist sign-up.', [
    ['Position', w.position],
    ['Email', w.email],
    ['Name', w.name],
    ['Organization', w.organization],
    ['Use case', w.useCase],
  ]);
  return { to: admin, subject: `Waitlist sign-up #${w.position}`, ...body };
}

/** The fields of a stored submission that its emails show. */
export type SubmissionMailInput = Pick<
  SubmissionRecord,
  'id' | 'modelName' | 'vendor' | 'apiEndpoint' | 'contactEmail' | 'notes'
>;

export function submissionConfirmation(s: SubmissionMailInput, statusLink?: string): MailMessage {
  const body = render(
    'We received your model submission and queued it for evaluation by the judge ensemble (target turnaround 48 hours for frontier models). We will write to this address when scoring completes.',
    [
      ['Submission id', s.id],
      ['Status page (keep this link private)', statusLink],
    ],
  );
  return { to: s.contactEmail, subject: `Submission received (id ${s.id})`, ...body };
}

export function submissionAdminNotice(admin: string, s: SubmissionMailInput): MailMessage {
  const body = render('New model submission.', [
    ['Submission id', s.id],
    ['Model', s.modelName],
    ['Vendor', s.vendor],
    ['API endpoint', s.apiEndpoint],
    ['Contact', s.contactEmail],
    ['Notes', s.notes],
  ]);
  return { to: admin, subject: `New model submission ${s.id}`, ...body };
}

/** The link that activates a key requested with a plan (the key itself is never mailed). */
export function keyVerification(to: string, link: string, plan: string, callsPerDay: number): MailMessage {
  const body = render(
    'Confirm this address to activate your svc API key. Open the link below; until then the key answers 401.',
    [
      ['Activation link', link],
      ['Plan', plan],
      ['Allowance', `${callsPerDay} calls per UTC day`],
    ],
  );
  return { to, subject: 'Activate your svc API key', ...body };
}

/**
 * Send the user's confirmation and, when an admin address is configured, the admin notice.
 * True only when every message was accepted (so false with provider `none`).
 */
export async function sendWithAdminCopy(
  mailer: Mailer,
  confirmation: MailMessage,
  adminNotice: MailMessage | undefined,
): Promise<boolean> {
  const results = await Promise.all([mailer.send(confirmation), ...(adminNotice ? [mailer.send(adminNotice)] : [])]);
  return results.every(Boolean);
}

export interface MailCapLogger {
  warn(obj: object, msg?: string): void;
}

/** A mailer that sends at most `perDay` messages to one address per UTC day (the admin address is exempt). */
export function capPerRecipient(
  mailer: Mailer,
  counter: { hit(key: string, windowMs: number, nowMs: number): Promise<{ count: number }> },
  opts: { perDay: number; exempt?: string; now?: () => number; log: MailCapLogger },
): Mailer {
  const day = 86_400_000;
  const exempt = opts.exempt?.toLowerCase();
  return {
    async send(msg) {
      const to = msg.to.trim().toLowerCase();
      if (to !== exempt) {
        let count: number;
        try {
          count = (await counter.hit(`mail:${to}`, day, (opts.now ?? Date.now)())).count;
        } catch {
          opts.log.warn({}, 'mail cap could not be counted (store error): message not sent');
          return false;
        }
        if (count > opts.perDay) {
          opts.log.warn({ cap: opts.perDay }, 'mail cap reached for a recipient today: message not sent');
          return false;
        }
      }
      return mailer.send(msg);
    },
  };
}
