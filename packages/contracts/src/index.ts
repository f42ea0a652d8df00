export * from './envelope';
export * from './errors';
export * from './limits';
export * from './common';
export * from './catalog';
export * from './identity';
export * from './efile';
export * from './site';
