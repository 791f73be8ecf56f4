/** /submit and /waitlist: plain HTML forms over the API's own schemas and domain functions. */
import { TEXT_LIMITS } from '../../text.ts';
import { escapeHtml as e, page } from './html.ts';
import { field, notice, type FormState } from './try.ts';

/** A field error in words, from the schema keyword that failed. */
export function problemText(keyword: string, params: Record<string, unknown>, empty: boolean): string {
  if (keyword === 'required' || (empty && (keyword === 'minLength' || keyword === 'format')))
    return 'This field is required.';
  if (keyword === 'maxLength') return `At most ${String(params.limit)} characters.`;
  if (keyword === 'minLength') return `At least ${String(params.limit)} characters.`;
  if (keyword === 'format' && params.format === 'email') return 'Enter an email address such as name@example.com.';
  if (keyword === 'format') return `Enter a valid ${String(params.format)}.`;
  if (keyword === 'pattern' && String(params.pattern).startsWith('^https?://'))
    return 'Enter an http(s) URL such as https://api.example.com/v1.';
  return 'This value is not accepted.';
}

const MAX = TEXT_LIMITS.field;

export function renderSubmit(state: FormState): string {
  return page(
    'Submit a model to svc',
    `<h1>Submit a model for evaluation</h1>
<p>We queue the model for evaluation and write to the contact address when its scores are published. Five submissions per hour per address.</p>
${notice(state)}
<form method="post" action="/submit" id="submit-form" novalidate>
${field('model_name', 'Model name', state, { required: true, max: MAX })}
${field('vendor', 'Vendor (who makes it)', state, { required: true, max: MAX })}
${field('api_endpoint', 'API endpoint', state, { required: true, max: MAX, hint: 'Where the model can be called, e.g. an OpenAI-compatible base URL.' })}
${field('contact_email', 'Contact email', state, { type: 'email', required: true, max: MAX })}
${field('notes', 'Notes for the evaluators', state, { multiline: true, max: MAX, rows: 3 })}
<button type="submit">Submit the model</button>
</form>`,
    { current: '/submit' },
  );
}

export function renderWaitlist(state: FormState): string {
  return page(
    'Join the svc waitlist',
    `<h1>Join the waitlist</h1>
<p>For the certified judge-ensemble assessments. Your place is kept in order of arrival; we write when it is your turn. Five sign-ups per hour per address.</p>
${notice(state)}
<form method="post" action="/waitlist" id="waitlist-form" novalidate>
${field('email', 'Email', state, { type: 'email', required: true, max: MAX })}
${field('name', 'Name', state, { max: MAX })}
${field('organization', 'Organization', state, { max: MAX })}
${field('use_case', 'What you would use it for', state, { multiline: true, max: MAX, rows: 3 })}
<button type="submit">Join the waitlist</button>
</form>`,
    { current: '/waitlist' },
  );
}

export const okNotice = (text: string): FormState['notice'] => ({ kind: 'ok', html: e(text) });
export const badNotice = (text: string): FormState['notice'] => ({ kind: 'bad', html: e(text) });
