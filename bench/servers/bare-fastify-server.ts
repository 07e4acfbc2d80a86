// The peer of the HTTP benchmarks: a bare fastify server with one GET route and one JSON POST route, no hooks.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ status: 'healthy', timestamp: new Date().toISOString() }));
app.post('/api/echo', async (request) => {
  const body = request.body as { messageContent?: string };
  return { success: true, data: { length: body.messageContent?.length ?? 0 }, error: null };
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
