/** The Node flags the servers run with (scripts/node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: readonly string[];
