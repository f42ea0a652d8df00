// Identity contracts (login, user info, clusters, accounts, tokens): filled by the identity feature.
export {};
