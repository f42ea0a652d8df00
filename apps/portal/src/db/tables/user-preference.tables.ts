/** A user's interface preferences (user centre), null where the user never chose. */
export interface UserPreferenceTable {
  user_id: number;
  language: string | null;
  theme: string | null;
  updated_at: number;
}

export interface UserPreferenceTables {
  user_preference: UserPreferenceTable;
}
