import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small shop API on 127.0.0.1 for tests, as the HTTP shop adapter expects it. Paths under the base select the
 * behaviour: `/` a working shop, `/hang` never answers, `/html` answers a web page, `/broken-orders` fails its
 * orders. Records are mutable, so a second sync can see changes.
 */
export class StandInShop {
  static readonly KEY = 'stand-in-key-1234';
  private server!: http.Server;
  readonly requests: string[] = [];
  readonly records = {
    products: [] as { id: string; name: string }[],
    orders: [] as { id: string; total: number }[],
    customers: [] as { id: string; name: string }[],
  };
  private readonly hanging = new Set<http.ServerResponse>();

  constructor(counts = { products: 250, orders: 42, customers: 17 }) {
    for (let i = 1; i <= counts.products; i++)
      this.records.products.push({ id: `p${i}`, name: `Product ${i}` });
    for (let i = 1; i <= counts.orders; i++) this.records.orders.push({ id: `o${i}`, total: i * 100 });
    for (let i = 1; i <= counts.customers; i++)
      this.records.customers.push({ id: `c${i}`, name: `Customer ${i}` });
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The shop's address (with a behaviour path) as an admin enters it. */
  url(behaviour = ''): string {
    return `http://127.0.0.1:${this.port}${behaviour}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    this.requests.push(url.pathname);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith('/hang/')) {
      this.hanging.add(response);
      return;
    }
    if (request.headers.authorization !== `Bearer ${StandInShop.KEY}`)
      return json(401, { error: 'unauthorized' });
    if (url.pathname.startsWith('/html/')) {
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html><body>Welcome</body></html>');
    }
    const path = url.pathname.replace(/^\/broken-orders/, '');
    if (path === '/api/v1/shop') return json(200, { name: 'Stand-in Shop' });
    const kind = /^\/api\/v1\/(products|orders|customers)$/.exec(path)?.[1] as
      keyof StandInShop['records'] | undefined;
    if (!kind) return json(404, { error: 'not found' });
    if (kind === 'orders' && url.pathname.startsWith('/broken-orders/')) return json(500, { error: 'down' });
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const all = this.records[kind];
    const end = start + limit;
    json(200, { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null });
  }
}
