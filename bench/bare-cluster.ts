/**
 * The ceiling for bench/cluster.ts: node:http with node:cluster, 2 workers, answering every request with the bytes
 * of argv[2] (Content-Type and Content-Length, nothing else: no routing, no hooks, no logs). Listens on
 * 127.0.0.1:argv[3]; the primary exits on SIGTERM and takes the workers with it.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';

const [file, port] = [process.argv[2]!, Number(process.argv[3])];
if (cluster.isPrimary) {
  for (let i = 0; i < 2; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const body = fs.readFileSync(file);
  const headers = ['content-type', 'application/json; charset=utf-8', 'content-length', String(body.length)];
  http
    .createServer((_req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    })
    .listen(port, '127.0.0.1');
}
