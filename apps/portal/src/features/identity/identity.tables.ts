export interface IdentityTables {}
