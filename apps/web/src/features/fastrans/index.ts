// The fast-transfer feature's public face (issue 23 §5; docs/FASTRANS.md): E-File's toolbar buttons and task list,
// and the offer of the local client for an upload or a download too large for the browser. E-File imports it only
// through here; nothing of it imports E-File (the folder it acts on and the ways back are its props).
export { FastransBar } from './fastrans-bar';
export { offerFastTransfer } from './fastrans-offer';
