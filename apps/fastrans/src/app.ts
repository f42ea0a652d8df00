import { clientWho, loadConfig, type ClientConfig } from './config';
import { protocol } from './protocol';
import { Relay } from './relay';
import { startLocalServer } from './server';
import { Session } from './session';
import { HistoryStore } from './store/history';
import { Runner } from './transfer/runner';
import type { EngineLimits } from './engine/task';

export interface ClientOptions {
  config?: ClientConfig;
  limits?: EngineLimits;
  log?: (msg: string) => void;
}

/**
 * The running client: its history, its login (restored from the last run while the day token is valid), the
 * transfer runner, and the local WebSocket server. Unfinished tasks resume once logged in.
 */
export async function startClient(opts: ClientOptions = {}) {
  const config = opts.config ?? loadConfig();
  const log = opts.log ?? ((m: string) => console.log(`${new Date().toISOString()} ${m}`));
  const who = clientWho(config.configDir, config.label);
  const session = new Session(config.configDir, who);
  let broadcast: (event: string, data: unknown) => void = () => undefined;
  const runner = new Runner({
    store: new HistoryStore(config.configDir),
    limits: opts.limits,
    emit: (s) => broadcast('task', s),
    log,
  });
  await runner.load();
  const handle = protocol(config, session, runner);
  // The second path for pages whose browser blocks the local connection: an outbound poll while logged in.
  const relay = new Relay({ handle, log, who, onRefused: (token) => void session.renew(token) });
  session.onChange = (web) => (web ? relay.start(web.portal, web.token) : relay.stop());
  const restored = await session.restore();
  if (restored) {
    log(`logged in again as ${restored.clusterUserName} on cluster ${restored.clusterId}`);
    runner.setRemote(session.remote);
  }
  const server = await startLocalServer({
    ports: config.ports,
    allowedOrigins: config.allowedOrigins,
    handle,
    log,
  });
  broadcast = (event, data) => server.broadcast(event, data);
  log(
    `fast-transfer client listening on 127.0.0.1:${server.port} for ${config.allowedOrigins.join(', ') || 'no origin'}`,
  );
  return {
    port: server.port,
    runner,
    session,
    config,
    async close() {
      relay.stop();
      await runner.close();
      await session.close();
      await server.close();
    },
  };
}
