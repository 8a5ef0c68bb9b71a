import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

export const NGINX = '/usr/sbin/nginx';

/**
 * The shipped nginx configuration (deploy/nginx/) in `dir`, changed only where a test must: it
 * listens on 127.0.0.1:`port`, serves `root`, and with `upstream` has its /api/ block uncommented,
 * passing the form to that `content serve`. Returns the arguments that run nginx with it (in front,
 * not as a daemon; its errors in `dir`/error.log).
 */
export function shippedNginx(dir: string, { port, root, upstream }: { port: number; root: string; upstream?: string }): string[] {
  mkdirSync(join(dir, 'conf/snippets'), { recursive: true });
  cpSync(join(ROOT, 'deploy/nginx/studio-headers.conf'), join(dir, 'conf/snippets/studio-headers.conf'));
  let conf = readFileSync(join(ROOT, 'deploy/nginx/studio-site.conf'), 'utf8')
    .replace('    listen 80;\n', `    listen 127.0.0.1:${port};\n`)
    .replace('    listen [::]:80;\n', '')
    .replace('root /srv/studio/www/current;', `root ${root};`);
  if (upstream)
    conf = conf
      .replace(/ {4}# (location \/api\/ \{\n(?: {4}# .*\n)*? {4}# \})/, (block) => block.replaceAll('    # ', '    '))
      .replace('http://127.0.0.1:8080', upstream);
  if (/listen 80|\/srv\/studio|:8080/.test(conf) || (upstream && !conf.includes(`proxy_pass ${upstream};`)))
    throw new Error(`deploy/nginx/studio-site.conf has changed: the test's edits no longer fit it:\n${conf}`);
  writeFileSync(join(dir, 'conf/studio-site.conf'), conf);
  writeFileSync(
    join(dir, 'conf/nginx.conf'),
    [
      // As root, the workers would otherwise read the site as nobody, who cannot enter a temp folder.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      'events {}',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      '  access_log off;',
      '  include studio-site.conf;',
      '}',
      '',
    ].join('\n'),
  );
  return ['-p', dir, '-c', join(dir, 'conf/nginx.conf')];
}
