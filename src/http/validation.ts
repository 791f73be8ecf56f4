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

const forForms = make({ coerceTypes: false, allErrors: true });
const formValidators = new WeakMap<object, ReturnType<Ajv['compile']>>();

/**
 * Every problem of a value under a route's body schema, by top-level field (the HTML forms show them all at
 * once; the API stops at the first). The same schema object as the route, so the rules exist once.
 */
export function fieldProblems(
  schema: object,
  value: unknown,
): { field: string; keyword: string; params: Record<string, unknown> }[] {
  let validate = formValidators.get(schema);
  if (!validate) {
    validate = forForms.compile(schema);
    formValidators.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .filter((err) => err.keyword !== 'if')
    .map((err) => ({
      field:
        err.keyword === 'required'
          ? String((err.params as { missingProperty?: unknown }).missingProperty)
          : err.instancePath.replace(/^\//, '').split('/')[0]!,
      keyword: err.keyword,
      params: err.params as Record<string, unknown>,
    }));
}
