// The E-File feature's public face: its page for the route table, the upload engine for other features.
export { uploadEngine } from './upload/upload-store';
export { createEfileApi, type EfileApi } from './api/efile.api';
