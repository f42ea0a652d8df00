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
  efile_uploads: {
    id: string;
    owner_sub: string;
    /** The cluster user the partial is written as ('' for rows older than migration 003). */
    owner_cun: string;
    target: string;
    identifier: string;
    total_size: number;
    chunk_size: number;
    total_chunks: number;
    partial_host: string;
    /** active, done. */
    status: string;
    created_at: number;
    updated_at: number;
  };
  efile_upload_chunks: { upload_id: string; n: number };
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
