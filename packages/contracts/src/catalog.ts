// Catalogue contracts (image centre, model zoo, application centre): filled by the catalogue feature.
export {};
