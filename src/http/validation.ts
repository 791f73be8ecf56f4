/**
 * Request validation policy: query strings, path params and headers are text, so they are coerced to the
 * schema's types (`?n=5` is a number, a repeated key may be an array); JSON bodies are never coerced, so
 * `{"prompt": 1}` is a 400, not the string "1". Formats (email, date-time, uri) come from ajv-formats.
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function make(opts: Options): Ajv {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: false, strict: false, ...opts });
  (addFormats as unknown as (a: Ajv) => Ajv)(ajv);
  return ajv;
}

const forText = make({ coerceTypes: 'array' });
const forBody = make({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? forBody : forText).compile(schema as object);
  return (data: unknown) =>
    (validate(data)
      ? { value: data }
      : { error: Object.assign(new Error('validation'), { validation: validate.errors }) }) as never;
};
