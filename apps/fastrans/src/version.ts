/** The client's version (sent to the portal, which prompts an update below its minimum) and protocol version. */
export const CLIENT_VERSION = '1.1.0';
export const PROTOCOL_VERSION = 1;
