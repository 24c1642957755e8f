// A static file server that behaves like GitHub Pages: the site is mounted under a sub-path,
// folders serve their index.html, unknown paths get 404.html with status 404.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export async function serve(root, base) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let rel = decodeURIComponent(url.pathname);
    if (!rel.startsWith(base)) return send(res, 404, path.join(root, '404.html'));
    rel = rel.slice(base.length);
    let file = path.join(root, rel);
    if (!file.startsWith(root)) return send(res, 403, null);
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) return send(res, 404, path.join(root, '404.html'));
    send(res, 200, file);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${base}`, close: () => new Promise((r) => server.close(r)) };
}

function send(res, status, file) {
  if (!file || !fs.existsSync(file)) {
    res.writeHead(status, { 'content-type': 'text/plain' });
    return res.end('not found');
  }
  res.writeHead(status, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}
