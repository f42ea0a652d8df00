import net from 'node:net';

/**
 * A long, thin link in user space (the kernel here has no netem): a TCP relay to `target` that holds every byte
 * `delayMs` in each direction, and lets at most `windowBytes` per connection and direction be in flight (read from
 * one side and not yet written to the other); past that it stops reading, so TCP's own flow control pushes back on
 * the sender. 20 ms each way and 2 MiB is a 40 ms round trip with a 4 MiB window: what a link between two provinces
 * gives one connection. Every tool under comparison goes through the same relay.
 */
export async function longLink(target: { host: string; port: number }, delayMs: number, windowBytes: number) {
  const sockets = new Set<net.Socket>();
  const pipe = (from: net.Socket, to: net.Socket) => {
    let inFlight = 0;
    const line: { at: number; data: Buffer }[] = [];
    let timer: NodeJS.Timeout | null = null;
    const deliver = () => {
      timer = null;
      const now = performance.now();
      while (line.length && line[0]!.at <= now) {
        const { data } = line.shift()!;
        to.write(data, () => {
          inFlight -= data.length;
          if (inFlight < windowBytes && from.isPaused()) from.resume();
        });
      }
      if (line.length) timer = setTimeout(deliver, Math.max(0, line[0]!.at - performance.now()));
    };
    from.on('data', (data: Buffer) => {
      inFlight += data.length;
      line.push({ at: performance.now() + delayMs, data });
      if (inFlight >= windowBytes) from.pause();
      if (!timer) timer = setTimeout(deliver, delayMs);
    });
    // The end travels the line too: it leaves after the last byte.
    from.on('end', () => setTimeout(() => to.end(), delayMs + 1));
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
