/** A user's interface preferences (user centre), null where the user never chose. */
export interface UserPreferenceTable {
  user_id: number;
  language: string | null;
  theme: string | null;
  /** The Dashboard's quick entries, JSON text of an array of feature ids (migration 004). */
  dashboard_entries: string | null;
  updated_at: number;
}

export interface UserPreferenceTables {
  user_preference: UserPreferenceTable;
}
