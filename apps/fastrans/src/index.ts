export { startClient } from './app';
export { loadConfig } from './config';
export * from './engine/task';
export { SpeedMeter } from './engine/speed';
export { CLIENT_VERSION, PROTOCOL_VERSION } from './version';
