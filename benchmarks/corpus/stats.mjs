// Prints what each document of testdata/ stresses, for the table in testdata/README.md: size, values, depth, distinct
// keys and key sets, objects over 64 keys, integer-like keys, numbers, long strings (over 1,000 chars), characters
// that JSON.stringify escapes, and non-ASCII characters. Run from the repository root: `node benchmarks/corpus/stats.mjs`.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(new URL('../../', import.meta.url).pathname, 'testdata');
const files = ['canada.json', 'citm_catalog.json', 'twitter.json', ...readdirSync(join(root, 'corpus')).sort().map((f) => `corpus/${f}`)];
console.log('| file | bytes | values | depth | keys | key sets | objects >64 keys | integer-like keys | numbers | strings >1,000 chars | chars escaped | non-ASCII chars |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const s = { values: 0, depth: 0, keys: new Set(), sets: new Set(), wide: 0, intKeys: 0, numbers: 0, long: 0, escaped: 0, nonAscii: 0 };
  const strings = (str) => {
    if (str.length > 1000) s.long++;
    for (const ch of str) {
      const c = ch.codePointAt(0);
      if (c < 0x20 || ch === '"' || ch === '\\') s.escaped++;
      else if (c > 0x7e) s.nonAscii++;
    }
  };
  const visit = (v, depth) => {
    s.values++;
    s.depth = Math.max(s.depth, depth);
    if (typeof v === 'number') s.numbers++;
    else if (typeof v === 'string') strings(v);
    else if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      s.sets.add(keys.join('\u0000'));
      if (keys.length > 64) s.wide++;
      for (const k of keys) {
        s.keys.add(k);
        if (/^(0|[1-9][0-9]*)$/.test(k)) s.intKeys++;
        strings(k);
        visit(v[k], depth + 1);
      }
    }
  };
  visit(JSON.parse(text), 0);
  console.log(`| ${file} | ${Buffer.byteLength(text)} | ${s.values} | ${s.depth} | ${s.keys.size} | ${s.sets.size} | ${s.wide} | ${s.intKeys} | ${s.numbers} | ${s.long} | ${s.escaped} | ${s.nonAscii} |`);
}
