export * from './app-error';
export * from './envelope-plugin';
export * from './config';
export * from './db';
export * from './kv';
export * from './fastify';
export * from './auth/cluster-token';
