import { RequireSession } from '../../account';
import { FileManager } from '../components/file-manager';
import '../efile.css';

/** /efile?cluster=…&path=…: the file manager, for logged-in users only (others go to /login?redirect=…). */
export default function FileManagerPage() {
  return (
    <RequireSession>
      <FileManager />
    </RequireSession>
  );
}
