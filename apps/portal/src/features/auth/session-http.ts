/**
 * Where features/fastrans (owned elsewhere) still imports the session helper from. The helper lives in the identity
 * feature now; remove this file once fastrans imports `createSessionHttp` from `../identity`.
 */
export { createSessionHttp, type SessionHttp } from '../identity';
