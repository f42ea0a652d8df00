// E-File contracts (file service calls of spec §7): filled by the efile feature.
export {};
