/** POST /api/waitlist: 201 newly added, 200 already on the list (case-insensitive). 5/hour per IP. */
import { Type } from '@sinclair/typebox';
import { joinWaitlist } from '../../domain/waitlist.ts';
import { waitlistReply } from '../outcomes.ts';
import { quickrefWaitlist, sendQuickref } from '../quickref.ts';
import { EmailField, errorResponses, TextField } from '../schemas/core.ts';
import { FormatQuery, QuickrefWaitlistSchema, titled, WaitlistSourceField } from '../schemas/quickref.ts';
import type { App, Deps } from '../types.ts';

export const WaitlistBody = Type.Object(
  {
    email: EmailField,
    name: Type.Optional(TextField('Your name')),
    organization: Type.Optional(TextField('Organization')),
    use_case: Type.Optional(TextField('What you would use it for')),
    ...WaitlistSourceField,
  },
  {
    required: ['email'],
    additionalProperties: false, // an unknown field is a 400 (docs/api.md, General), before any store check
    description: 'Core: {email, name?, organization?, use_case?}. Alternate: {email, source}.',
  },
);
const Base = {
  success: Type.Boolean(),
  message: Type.String(),
  position: Type.Optional(Type.Integer({ minimum: 1, description: '1-based place on the list' })),
};
const Added = Type.Object({
  ...Base,
  email_sent: Type.Optional(
    Type.Boolean({ description: 'Confirmation (and admin notice) accepted by the email provider' }),
  ),
});
const AlreadyThere = Type.Object(Base);

export async function waitlistRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    '/api/waitlist',
    {
      config: { rateLimit: 'waitlist', shapes: {} },
      schema: {
        summary: 'Join the waitlist',
        description:
          '201 when newly added (a confirmation stating the position is emailed when a provider is configured); 200 with the ' +
          'already-on-the-list message when the address (case-insensitive) is already there. 5 per hour per IP. ' +
          '500 when the store is not configured. The alternate shape (QuickrefWaitlist: success, message, position) is ' +
          'chosen by ?format=quickref or Accept: application/vnd.svc.quickref+json, with the same statuses.',
        tags: ['write'],
        querystring: FormatQuery,
        body: WaitlistBody,
        response: {
          200: Type.Union([titled(AlreadyThere, 'WaitlistAlreadyOnList'), QuickrefWaitlistSchema]),
          201: Type.Union([titled(Added, 'WaitlistAdded'), QuickrefWaitlistSchema]),
          ...errorResponses(400, 401, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const res = waitlistReply(await joinWaitlist(deps, request.body, deps.now()));
      if (request.shape === 'quickref') return sendQuickref(reply, quickrefWaitlist(res.body), res.status);
      return res.status === 201 ? reply.code(201).send(res.body) : reply.code(200).send(res.body);
    },
  );
}
