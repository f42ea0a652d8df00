import net from 'node:net';

export interface SlowLink {
  /** http://127.0.0.1:<port>: the portal as seen over the slow link. */
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP relay to `target` whose browser-to-server direction carries at most `bytesPerSecond` per connection, as a
 * slow uplink does: requests leave at once, an upload's body trickles in. Answers come back at full speed. When
 * either side closes, the other is closed too, so an aborted upload ends on the server as it would over a real
 * link. Loopback only.
 */
export async function slowLink(target: string, bytesPerSecond: number): Promise<SlowLink> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  // A slice every 100 ms: small enough that a request's headers and the start of a body arrive without delay.
  const slice = Math.max(1, Math.floor(bytesPerSecond / 10));
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(upstream);
    const queue: Buffer[] = [];
    let closed = false;
    const timer = setInterval(() => {
      let budget = slice;
      while (budget > 0 && queue.length > 0) {
        const head = queue[0]!;
        const part = head.subarray(0, budget);
        if (part.length === head.length) queue.shift();
        else queue[0] = head.subarray(part.length);
        budget -= part.length;
        upstream.write(part);
      }
    }, 100);
    const end = () => {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      queue.length = 0;
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (d: Buffer) => queue.push(d));
    upstream.on('data', (d: Buffer) => client.write(d));
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
