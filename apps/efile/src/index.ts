export { registerEfile, buildEfile, type RegisterOptions } from './app';
export { readEfileConfig, EfileEnv, type EfileConfig } from './config';
export { openEfileDeps, type EfileDeps, type EfileDepsOptions } from './deps';
