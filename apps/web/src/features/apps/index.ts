// The application centre's public face: its queries for other features (the Job page reads an application's ready
// job for "run this application" through the same query, so the detail page's answer is reused).
export { appQueries } from './api/apps.queries';
