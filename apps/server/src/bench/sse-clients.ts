/**
 * The clients of the live-notifications bench, in a process of their own so that the server's memory and CPU are
 * measured alone: opens one notification stream per token it is sent, reports when all are ready, and reports the
 * wall-clock time each `notification` event arrived.
 */
import { openStream, type TestStream } from '../test/sse.ts';

interface Start {
  base: string;
  tokens: string[];
}

const send = (message: unknown) => process.send!(message);

process.once('message', async ({ base, tokens }: Start) => {
  const streams: TestStream[] = [];
  // A few at a time: a thousand connections at once would measure the connect storm, not the notifications.
  for (let i = 0; i < tokens.length; i += 50) {
    const batch = await Promise.all(tokens.slice(i, i + 50).map((token) => openStream(base, token)));
    for (const stream of batch)
      if (stream.status !== 200) throw new Error(`stream refused: ${stream.status}`);
    await Promise.all(batch.map((stream) => stream.waitFor('ready', undefined, 60_000)));
    streams.push(...batch);
  }
  send({ ready: streams.length });
  const arrivals = await Promise.all(
    streams.map(async (stream) => {
      await stream.waitFor('notification', undefined, 60_000);
      return stream.named('notification')[0]!.at + performance.timeOrigin;
    }),
  );
  send({ arrivals });
  for (const stream of streams) stream.close();
  process.exit(0);
});
