/** The generation of a user's fast-transfer client key, moved on by each revocation (migration 006). */
export interface FastransClientKeyTable {
  user_id: number;
  generation: number;
  /** When the user last revoked the key (ms). */
  revoked_at: number;
}

export interface FastransTables {
  fastrans_client_key: FastransClientKeyTable;
}
