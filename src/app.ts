/**
 * buildApp(deps): the whole HTTP service as a Fastify instance. It never listens and never reads process.env;
 * main.ts (or a test) builds the dependencies and passes them in.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Fastify, { LogController, type preParsingHookHandler } from 'fastify';
import { AuditLog } from './audit/log.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from './errors.ts';
import { registerErrorHandler } from './http/plugins/errors.ts';
import {
  frameworkErrorAnswer,
  makeClientErrorHandler,
  makeExpectationHandler,
  refuseMissingHost,
} from './http/plugins/framework-errors.ts';
import { addMethodFallbacks, collectRoutes, knowAllMethods } from './http/plugins/methods.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRequestLog, type RequestLog } from './http/plugins/request-log.ts';
import { HotCache, registerHotCache } from './http/plugins/hot-cache.ts';
import { lazyChildLoggerFactory } from './logging.ts';
import { registerRoutes } from './http/routes/index.ts';
import { validatorCompiler } from './http/validation.ts';
import type { App, AppDeps, Deps } from './http/types.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export async function buildApp(input: AppDeps): Promise<App> {
  const now = input.now ?? Date.now;
  const audit = input.audit ?? new AuditLog(input.store, { signingKey: input.config.signingKey, now });
  const deps: Deps = { ...input, now, startedAt: now(), audit };
  /** Request ids: a random per-app prefix and a counter (unique, cheap, and not a secret). */
  const idPrefix = `req_${randomBytes(4).toString('hex')}`;
  let idCounter = 0;
  const newRequestId = (): string => `${idPrefix}${(++idCounter).toString(36).padStart(6, '0')}`;
  const requestId = (req: http.IncomingMessage): string => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
  };
  const { config } = deps;
  // The hot reads answered before Fastify (src/http/plugins/hot-cache.ts); its log is set once the app has one.
  let hot: HotCache | undefined;
  let requestLog: RequestLog | undefined; // set once the app exists; the router's refusals are logged through it
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : {
          logger:
            deps.logger === false
              ? false
              : { level: config.logLevel, ...(typeof deps.logger === 'object' ? deps.logger : {}) },
        }),
    // One line per request from our own hook (src/http/plugins/request-log.ts) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: config.bodyLimit,
    // Timeouts (README, Operations): a client that trickles its headers or body is answered 408 and closed once
    // the request deadline passes, so slow clients cannot hold every connection; idle keep-alives close soon.
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    http: { connectionsCheckingInterval: Math.min(1000, config.timeouts.headersMs) },
    genReqId: requestId,
    // Fastify's own HTTP server, with the hot cache in front of its request handler.
    serverFactory: (handler, opts) => {
      const server = http.createServer(
        { ...(opts.http as http.ServerOptions | undefined), requireHostHeader: false },
        (req, res) => {
          if (refuseMissingHost(req, res, newRequestId)) return;
          if (hot === undefined || !hot.serve(req, res)) handler(req, res);
        },
      );
      server.keepAliveTimeout = config.timeouts.keepAliveMs;
      server.requestTimeout = config.timeouts.requestMs;
      return server;
    },
    frameworkErrors: (err, request, reply) => {
      frameworkErrorAnswer(err, request, reply);
      requestLog?.unmatched(request, reply);
    },
    clientErrorHandler: makeClientErrorHandler(newRequestId),
    trustProxy: false,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.server.headersTimeout = config.timeouts.headersMs;
  app.server.on('checkExpectation', makeExpectationHandler(newRequestId));
  requestLog = registerRequestLog(app, config.logSample);
  hot = new HotCache(() => deps.dataset.current(), requestId, requestLog);
  registerHotCache(app, hot);
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only: without this, text/plain would be parsed as a string and fail later as a 400.
  app.removeContentTypeParser('text/plain');
  // No body is decompressed: a compressed one is refused before it is read (RFC 9110 §8.4.1: 415), rather
  // than read as if it were plain text and answered "not valid JSON". Added to the POST routes only, so the
  // read routes pay nothing for it.
  const refuseEncoded: preParsingHookHandler = (request, _reply, payload, done) => {
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding && coding !== 'identity')
      return done(
        new AppError(
          'unsupported_media_type',
          `Content-Encoding ${coding} is not supported: send the body uncompressed`,
        ),
      );
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.includes('POST')) return;
    route.preParsing = [refuseEncoded, ...(route.preParsing === undefined ? [] : [route.preParsing].flat())];
  });
  registerErrorHandler(app);
  await registerOpenApi(app, config);
  knowAllMethods(app);
  const routes = collectRoutes(app);
  await app.register(async (scope) => registerRoutes(scope as App, deps));
  addMethodFallbacks(app, routes, requestLog);
  return app;
}
