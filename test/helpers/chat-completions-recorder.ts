/**
 * A loopback chat-completions server for tests of the model path: it records the body of every request and answers
 * with the text `answer` gives for it (or `undefined` to never answer, for timeouts), wrapped as an OpenAI-compatible
 * completion. Each answer closes its connection, so a kept-alive socket closed under a reusing client is no flake.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running recorder. */
export interface ChatCompletionsRecorder {
  /** Base address to configure (`http://127.0.0.1:PORT/v1`). */
  baseUrl: string;
  /** Every request body received, in order. */
  received: string[];
  close(): Promise<void>;
}

/** Starts a recorder on 127.0.0.1 and an ephemeral port. */
export async function startChatCompletionsRecorder(answer: (body: string) => string | undefined): Promise<ChatCompletionsRecorder> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(body);
      const content = answer(body);
      if (content === undefined) return;
      response.setHeader('content-type', 'application/json');
      response.setHeader('connection', 'close');
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
