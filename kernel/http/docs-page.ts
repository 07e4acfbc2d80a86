/**
 * Serves `/openapi.json` and the interactive docs page `/docs` (Swagger UI from the swagger-ui-dist package, served
 * locally: the service works without internet access).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OpenApiCollector } from './openapi-document.ts';
import { projectRoot } from '../project-root.ts';

const require = createRequire(import.meta.url);

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

function assetDirectory(): string {
  const dist = require('swagger-ui-dist') as { getAbsoluteFSPath(): string };
  return dist.getAbsoluteFSPath();
}

function docsHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;
}

const INIT_SCRIPT = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });";

/**
 * Adds the document and docs routes to a base's server; `otherDocs` gives the other bases' addresses (known once
 * they listen) for the links above the operations. The README is served beside the page, so its link works offline.
 */
export function installDocs(
  app: FastifyInstance,
  collector: OpenApiCollector,
  title: string,
  otherDocs: () => ReadonlyArray<{ base: string; url: string }> = () => [],
): void {
  const cache = new Map<string, Buffer>();
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'";
  // The request guard let only loopback Host headers of this port through, so the Host names this server.
  app.get('/openapi.json', async (request) => collector.build(`http://${request.headers.host}`, otherDocs()));
  app.get('/docs/README.md', async (_request, reply) => {
    let body = cache.get('README.md');
    if (!body) {
      body = readFileSync(join(projectRoot, 'README.md'));
      cache.set('README.md', body);
    }
    return reply.type('text/markdown; charset=utf-8').send(body);
  });
  const page = async (_request: unknown, reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', csp).send(docsHtml(title));
  app.get('/docs', page);
  app.get('/docs/', page);
  app.get('/docs/init.js', async (_request, reply) => reply.type('application/javascript').send(INIT_SCRIPT));
  app.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const type = ASSETS[request.params.asset];
    if (!type) return reply.callNotFound();
    let body = cache.get(request.params.asset);
    if (!body) {
      body = readFileSync(join(assetDirectory(), request.params.asset));
      cache.set(request.params.asset, body);
    }
    return reply.type(type).header('cache-control', 'max-age=3600').send(body);
  });
}
