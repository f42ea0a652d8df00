export { registerEshell, buildEshell, type RegisterOptions } from './app';
export { readEshellConfig, EshellEnv, type EshellConfig } from './config';
export { openEshellDeps, type EshellDeps, type EshellDepsOptions } from './deps';
export { parseLoginNodes, type LoginNode } from './ssh/login-nodes';
export { prepareLogin, prepareRunDir, type SshLoginSettings } from './ssh/ssh-login';
