// A small stand-in for Stripe's HTTP API, for tests of the card adapter through the real `stripe` library: it
// answers the few calls the adapter makes the way Stripe does (objects, 404 and card errors, idempotent replays) and
// records every request. Cards ending in 0341 are saved but declined when charged, like Stripe's test card.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | null;
}

interface Session {
  id: string;
  customer: string;
  successUrl: string;
  card: { paymentMethod: string; brand: string; last4: string } | null;
}

export interface FakeStripe {
  url: string;
  requests: RecordedRequest[];
  /** The setup session of a checkout URL this server answered. */
  sessionOf(url: string): string;
  /** The admin saves a card on the session's page (the session is complete). */
  saveCard(sessionId: string, card: { brand: string; last4: string }): void;
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, Session>();
  const replies = new Map<string, { status: number; body: unknown }>();
  const cards = new Map<string, { last4: string }>();
  let next = 0;
  const id = (prefix: string) => `${prefix}_test${(++next).toString().padStart(6, '0')}`;

  const missing = (what: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });

  const sessionObject = (session: Session) => ({
    id: session.id,
    object: 'checkout.session',
    mode: 'setup',
    customer: session.customer,
    status: session.card ? 'complete' : 'open',
    url: `https://checkout.stripe.test/c/setup/${session.id}`,
    success_url: session.successUrl,
    setup_intent: session.card
      ? {
          id: `seti_${session.id}`,
          object: 'setup_intent',
          status: 'succeeded',
          customer: session.customer,
          payment_method: {
            id: session.card.paymentMethod,
            object: 'payment_method',
            type: 'card',
            customer: session.customer,
            card: { brand: session.card.brand, last4: session.card.last4 },
          },
        }
      : null,
  });

  function answer(request: RecordedRequest): { status: number; body: unknown } {
    const { method, path, form } = request;
    if (method === 'POST' && path === '/v1/customers') {
      return { status: 200, body: { id: id('cus'), object: 'customer', email: form.email, name: form.name } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session: Session = {
        id: id('cs'),
        customer: form.customer!,
        successUrl: form.success_url!,
        card: null,
      };
      sessions.set(session.id, session);
      return { status: 200, body: sessionObject(session) };
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionPath) {
      const session = sessions.get(decodeURIComponent(sessionPath[1]!));
      return session ? { status: 200, body: sessionObject(session) } : missing('checkout.session');
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const card = cards.get(form.payment_method!);
      if (!card) return missing('payment_method');
      const intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
      };
      if (card.last4 === '0341') {
        return {
          status: 402,
          body: {
            error: {
              type: 'card_error',
              code: 'card_declined',
              decline_code: 'generic_decline',
              message: 'Your card was declined.',
              payment_intent: { ...intent, status: 'requires_payment_method' },
            },
          },
        };
      }
      return { status: 200, body: { ...intent, status: 'succeeded' } };
    }
    return missing(path);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stripe.test');
      const body = new URLSearchParams(Buffer.concat(chunks).toString());
      const key = req.headers['idempotency-key'];
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        form: Object.fromEntries([...url.searchParams, ...body]),
        idempotencyKey: typeof key === 'string' ? key : null,
      };
      requests.push(request);
      // As Stripe: a repeated POST with the same idempotency key gets the first answer again.
      const replayKey = request.method === 'POST' && request.idempotencyKey ? request.idempotencyKey : null;
      const reply = (replayKey && replies.get(replayKey)) || answer(request);
      if (replayKey) replies.set(replayKey, reply);
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessionOf(checkoutUrl) {
      return checkoutUrl.split('/').pop()!;
    },
    saveCard(sessionId, card) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.card = { paymentMethod: id('pm'), ...card };
      cards.set(session.card.paymentMethod, { last4: card.last4 });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
