import type { Generated } from 'kysely';

/** Tables of one efile instance (one cluster). Times are ms since the epoch. */
export interface EfileDatabase {
  efile_shares: {
    id: string;
    owner_sub: string;
    owner_cun: string;
    path: string;
    name: string;
    is_dir: number;
    /** Identity of the shared item at creation: a different item later found at the path is never served. */
    dev_ino: string;
    code: string;
    /** JSON array of the owner's roots when the share was made. */
    roots: string;
    valid_days: number;
    created_at: number;
    expires_at: number;
    closed_at: number | null;
  };
  /**
   * Partial-file sessions of both front doors (migration 006, features/partial): a browser chunk upload ('chunk'),
   * a fast-transfer file ('range'; 'done' rows of tar batches too), a tar extraction's staging while it runs ('tar').
   */
  efile_partials: {
    id: string;
    kind: string;
    owner_sub: string;
    /** The cluster user the partial is written as ('' for rows of servers before migrations 003/005). */
    owner_cun: string;
    /** Final cluster path ('tar': the folder extracted into). */
    target: string;
    /** The client's identifier ('chunk'); '' otherwise. */
    identifier: string;
    size: number;
    /** Chunk size or range size. */
    piece_size: number;
    total_pieces: number;
    /** Host path of the hidden partial file ('' for files that came whole in a tar batch; 'tar': the folder). */
    partial_host: string;
    /** A fast-transfer file's overwrite choice (finalize reads it); 0 for chunks, whose requests carry it. */
    overwrite: number;
    /** active, done. */
    status: string;
    created_at: number;
    updated_at: number;
  };
  /** A stored chunk, or a range written whole with the SHA-256 efile computed of it (null: chunks, older rows). */
  efile_partial_pieces: { session_id: string; n: number; sha256: string | null };
  efile_operations: {
    id: string;
    owner_sub: string;
    kind: string;
    status: string;
    bytes_done: number;
    bytes_total: number;
    files_done: number;
    files_total: number;
    error_code: string | null;
    cancel_requested: Generated<number>;
    created_at: number;
    updated_at: number;
  };
  efile_scoped_tokens: {
    /** sha256 of the token: a copy of the database does not reveal usable tokens. */
    id: string;
    owner_sub: string;
    cun: string;
    direction: string;
    paths: string;
    roots: string;
    expires_at: number;
    created_at: number;
  };
}
