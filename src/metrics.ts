/**
 * Prometheus metrics (prom-client): one registry for the process, the counters and histograms the service
 * updates, and the /metrics server.
 *
 * | metric | type | labels |
 * |---|---|---|
 * | svc_http_requests_total | counter | method, route, status |
 * | svc_http_request_duration_seconds | histogram | method, route, status |
 * | svc_engine_duration_seconds | histogram | operation (score, honesty, …) |
 * | svc_rate_limit_rejections_total | counter | operation, reason (rate_limited, allowance_exhausted, store_error) |
 * | svc_store_operation_duration_seconds | histogram | operation (the Store method) |
 * | svc_store_errors_total | counter | operation |
 * | svc_eval_queue_depth | gauge | (none): queued evaluation jobs, set by the evaluation worker |
 * | svc_eval_jobs_total | counter | outcome (done, failed, retried, …), counted by the evaluation worker |
 * | process_*, nodejs_* | prom-client's default process metrics |
 *
 * Where it is served: never on the public port. SVC_METRICS_PORT starts a second listener (SVC_METRICS_HOST,
 * default 127.0.0.1) answering GET /metrics. With SVC_WORKERS > 1 the primary process serves it and aggregates
 * every worker's registry through prom-client's AggregatorRegistry (counters and histograms summed).
 *
 * Other modules record through the exported metrics, e.g. `evalQueueDepth.set(n)`, `evalJobs.inc({outcome})`,
 * or `timeEngine('score', () => scoreText(x))`.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import client from 'prom-client';
import { MemoryStore } from './store/memory/index.ts';
import type { Store } from './store/types.ts';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const LATENCY = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The request count and latency histogram, kept in plain arrays instead of prom-client's Counter and Histogram:
 * those hash the label object on every observation, which cost a measurable share of a cached read's time.
 * `requestSeries(method, route, status)` is looked up once per route, method and status (the request-log plugin
 * keeps it), and `observe` is an array increment. At scrape time both metrics are written from the same series,
 * in prom-client's metric format, so the registry, the cluster aggregator (summed) and the text output are the
 * same as before. The number of series is bounded: routes are patterns, methods and statuses are few.
 */
export class RequestSeries {
  readonly counts = new Float64Array(LATENCY.length);
  count = 0;
  sum = 0;
  constructor(readonly labels: Readonly<{ method: string; route: string; status: string }>) {}
  /** One request that took `seconds`. */
  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < LATENCY.length; i++) {
      if (seconds <= LATENCY[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }
}

const series = new Map<string, RequestSeries>();
/** At most this many (method, route, status) series; past it, new ones share one "(other)" series. */
export const MAX_REQUEST_SERIES = 2000;

export function requestSeries(method: string, route: string, status: number): RequestSeries {
  const key = `${method} ${status} ${route}`;
  let s = series.get(key);
  if (!s) {
    const other = series.size >= MAX_REQUEST_SERIES;
    const k = other ? '(other)' : key;
    s = series.get(k);
    if (!s) {
      s = new RequestSeries(
        other ? { method: '(other)', route: '(other)', status: '(other)' } : { method, route, status: String(status) },
      );
      series.set(k, s);
    }
  }
  return s;
}

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };

registry.registerMetric({
  name: 'svc_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  type: 'counter',
  aggregator: 'sum',
  get: async () => ({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    type: 'counter',
    aggregator: 'sum',
    values: [...series.values()].map((s): Value => ({ labels: { ...s.labels }, value: s.count })),
  }),
} as never);
registry.registerMetric({
  name: 'svc_http_request_duration_seconds',
  help: 'Time from receiving the request to sending the answer',
  type: 'histogram',
  aggregator: 'sum',
  get: async () => {
    const name = 'svc_http_request_duration_seconds';
    const values: Value[] = [];
    for (const s of series.values()) {
      let acc = 0;
      for (let i = 0; i < LATENCY.length; i++) {
        acc += s.counts[i]!;
        values.push({ labels: { le: LATENCY[i]!, ...s.labels }, value: acc, metricName: `${name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${name}_bucket` });
      values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` });
      values.push({ labels: { ...s.labels }, value: s.count, metricName: `${name}_count` });
    }
    return {
      name,
      help: 'Time from receiving the request to sending the answer',
      type: 'histogram',
      aggregator: 'sum',
      values,
    };
  },
} as never);
export const engineDuration = new client.Histogram({
  name: 'svc_engine_duration_seconds',
  help: 'Time spent in the scoring engine per call',
  labelNames: ['operation'] as const,
  buckets: LATENCY,
  registers: [registry],
});
export const rateLimitRejections = new client.Counter({
  name: 'svc_rate_limit_rejections_total',
  help: 'Requests refused by the rate limiter or a used-up key allowance',
  labelNames: ['operation', 'reason'] as const,
  registers: [registry],
});
export const storeDuration = new client.Histogram({
  name: 'svc_store_operation_duration_seconds',
  help: 'Store calls by method',
  labelNames: ['operation'] as const,
  buckets: LATENCY,
  registers: [registry],
});
export const storeErrors = new client.Counter({
  name: 'svc_store_errors_total',
  help: 'Store calls that failed, by method',
  labelNames: ['operation'] as const,
  registers: [registry],
});
export const evalQueueDepth = new client.Gauge({
  name: 'svc_eval_queue_depth',
  help: 'Evaluation jobs waiting (set by the evaluation worker)',
  registers: [registry],
});
export const evalJobs = new client.Counter({
  name: 'svc_eval_jobs_total',
  help: 'Evaluation jobs finished, by outcome (counted by the evaluation worker)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Run the engine and record its time. */
export function timeEngine<T>(operation: string, fn: () => T): T {
  const end = engineDuration.startTimer({ operation });
  try {
    return fn();
  } finally {
    end();
  }
}

/**
 * Wrap the Store interface's methods of a store once, so each call records its duration and failures. The
 * interface's method names are taken from MemoryStore (which implements exactly the interface); a store's own
 * helpers (Redis `k`, `run`, `eval` …) are left alone. Returns the same object.
 */
export function instrumentStore<S extends Store>(store: S): S {
  const target = store as unknown as Record<string, unknown>;
  const names = Object.getOwnPropertyNames(MemoryStore.prototype).filter(
    (n) => n !== 'constructor' && n !== 'close' && n !== 'sweep' && typeof target[n] === 'function',
  );
  for (const name of names) {
    const fn = target[name] as (...a: unknown[]) => unknown;
    const timer = storeDuration.labels({ operation: name });
    const errors = storeErrors.labels({ operation: name });
    target[name] = (...args: unknown[]) => {
      const start = performance.now();
      const result = fn.apply(store, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (v) => {
          timer.observe((performance.now() - start) / 1000);
          return v;
        },
        (err: unknown) => {
          timer.observe((performance.now() - start) / 1000);
          errors.inc();
          throw err;
        },
      );
    };
  }
  return store;
}

/** In a cluster worker: answer the primary's requests for this registry. */
export function shareWithPrimary(): void {
  if (!cluster.isWorker) return;
  client.AggregatorRegistry.setRegistries([registry]);
  new client.AggregatorRegistry();
}

/** The /metrics listener. In a cluster primary it aggregates the workers; otherwise it serves this process. */
export async function startMetricsServer(port: number, host: string): Promise<http.Server> {
  const aggregate = cluster.isPrimary && cluster.workers && Object.keys(cluster.workers).length > 0;
  const aggregator = aggregate ? new client.AggregatorRegistry() : null;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });
      res.end(JSON.stringify({ error: 'No such path: only GET /metrics is served here', code: 'not_found' }));
      return;
    }
    const metrics = aggregator ? aggregator.clusterMetrics() : registry.metrics();
    metrics.then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      },
      (err: Error) => {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: `metrics unavailable: ${err.message}`, code: 'internal' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.unref();
  return server;
}
