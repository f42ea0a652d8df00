// The ceiling of the chunk protocol on this machine: a node:http server that answers the test GET with 204 and
// appends every POST body (multipart framing included) to one file, parsing and checking nothing. The bench runs
// the same chunk client against it, so "efile / bare" shows what efile's own work costs, and "bare / PUT" what the
// protocol itself (two requests per MiB) costs here.
import fs from 'node:fs';
import http from 'node:http';

const out = process.argv[3];
let fd = fs.openSync(out, 'a');
http
  .createServer((req, res) => {
    if (req.url === '/rotate') {
      // Between rounds: a new, empty file (the old one's pages are freed only once no descriptor holds it).
      fs.closeSync(fd);
      fs.rmSync(out, { force: true });
      fd = fs.openSync(out, 'a');
      return res.end();
    }
    if (req.method !== 'POST') {
      res.statusCode = req.url.startsWith('/check') ? 200 : 204;
      return res.end();
    }
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () =>
      fs.writev(fd, parts, () => {
        res.setHeader('content-type', 'application/json');
        res.end('{"code":"0","msg":"","data":{"stored":1,"totalChunks":1,"complete":false,"path":"/"}}');
      }),
    );
  })
  .listen(Number(process.argv[2]), '127.0.0.1');
