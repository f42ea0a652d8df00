// The fast-transfer feature's public face (issue 23 §5; docs/FASTRANS.md): E-File's toolbar buttons and task list,
// the offer of the local client for an upload or a download too large for the browser, and the user centre's card
// of the client key. E-File and the user centre import it only through here; nothing of it imports them (the folder
// it acts on and the ways back are its props).
export { FastransBar } from './fastrans-bar';
export { offerFastTransfer } from './fastrans-offer';
export { ClientKeyCard } from './client-key-card';
