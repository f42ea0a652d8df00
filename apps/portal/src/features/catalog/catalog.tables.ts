export interface CatalogTables {}
