/** The OpenAPI 3.1 document, generated from the route schemas by @fastify/swagger, served at /openapi.json. */
import swagger from '@fastify/swagger';
import { PAI_DIMS, SYCO_DIMS } from '../dimensions.ts';
import type { Config } from '../config.ts';
import type { App } from './types.ts';

export const API_VERSION = '1.0.0';

export async function registerOpenApi(app: App, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc: sycophancy and parasocial-risk scoring API',
        version: API_VERSION,
        description:
          'Publishes and computes safety scores for AI models and single AI responses on two indices: the sycophancy ' +
          `index (ELEPHANT dimensions ${SYCO_DIMS.join(', ')} and honesty) and the parasocial attachment index (PAI: ` +
          `${PAI_DIMS.join(', ')}, composite and risk). Scores are 0-10, higher is worse. Errors use the Error body ` +
          '{error, code?, detail?, required?}.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Optional API key sk-svc-<32 hex>' },
        },
      },
    },
  });
}
