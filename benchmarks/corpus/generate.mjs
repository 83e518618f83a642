// Generates the synthetic documents of testdata/corpus/ from fixed seeds, so that they are the same on every run:
// `node benchmarks/corpus/generate.mjs` from the repository root. Each stands for a real-world shape that no public
// file at hand had: a CI job list, a street map, a trace, a notebook, wide records, integer-like keys, settings,
// number-heavy data, integer counters and an access-control export of booleans and nulls; and, outside the corpus, long
// prose that is not ASCII, English prose with typographic punctuation and a chat's short messages that are not ASCII.
// Doubles are written in JavaScript's shortest round-trip form, which .NET reads back exactly.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const out = join(new URL('../../', import.meta.url).pathname, 'testdata', 'corpus');
mkdirSync(out, { recursive: true });

// xorshift32, as in benchmarks/v8/v8-bench.mjs.
function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
  return {
    int: (n) => next() % n,
    pick: (list) => list[next() % list.length],
    unit: () => next() / 4294967296,
    chance: (p) => next() / 4294967296 < p,
  };
}

const write = (name, value, space) => writeFileSync(join(out, name), JSON.stringify(value, null, space) + '\n');

const words = ('alpha beta gamma delta build deploy test lint release nightly api web worker cache store queue auth '
  + 'billing search index report export import sync backup mobile desktop docs site admin portal gateway edge core '
  + 'metrics logs trace payments orders users accounts inventory catalog pricing shipping notify mail chat media').split(' ');

// A CI server's job list: 875 × {name, url, color}, as Jenkins's /api/json returns it.
{
  const r = random(875);
  const colors = ['blue', 'red', 'yellow', 'notbuilt', 'disabled', 'aborted', 'blue_anime', 'red_anime'];
  const names = new Set();
  while (names.size < 875) names.add(`${r.pick(words)}-${r.pick(words)}-${r.int(100)}`);
  const jobs = [...names].map((name) => ({ name, url: `https://ci.example.org/job/${name}/`, color: r.pick(colors) }));
  write('joblist.json', { _class: 'hudson.model.Hudson', jobs });
}

// A street map: line features whose properties are OpenStreetMap-like tag sets, each a subset of the tags in a fixed
// order, so that the features have hundreds of different key sets.
{
  const r = random(3356);
  const tags = {
    highway: () => r.pick(['residential', 'service', 'footway', 'primary', 'secondary', 'tertiary', 'path', 'cycleway']),
    name: () => `${r.pick(['Rue', 'Avenue', 'Chemin', 'Straße', 'Calle', 'Via'])} ${r.pick(words)} ${r.pick(['Nord', 'Süd', 'de l’Église', 'Mayor', ''])}`.trim(),
    'name:en': () => `${r.pick(words)} street`,
    ref: () => `D ${r.int(999)}`,
    oneway: () => r.pick(['yes', 'no', '-1']),
    lanes: () => String(1 + r.int(4)),
    maxspeed: () => String(10 * (2 + r.int(12))),
    surface: () => r.pick(['asphalt', 'paving_stones', 'gravel', 'sett', 'unpaved']),
    lit: () => r.pick(['yes', 'no']),
    sidewalk: () => r.pick(['both', 'left', 'right', 'no', 'separate']),
    cycleway: () => r.pick(['lane', 'track', 'no', 'shared_lane']),
    'cycleway:left': () => r.pick(['lane', 'no']),
    'parking:lane:both': () => r.pick(['parallel', 'no_parking', 'diagonal']),
    bridge: () => 'yes',
    tunnel: () => 'yes',
    layer: () => String(r.int(3) - 1),
    access: () => r.pick(['private', 'destination', 'permissive']),
    bicycle: () => r.pick(['yes', 'designated', 'no']),
    foot: () => r.pick(['yes', 'designated', 'no']),
    width: () => (2 + r.int(120) / 10).toString(),
    incline: () => `${r.int(15)}%`,
    smoothness: () => r.pick(['good', 'excellent', 'intermediate', 'bad']),
    'addr:postcode': () => String(10000 + r.int(89999)),
    wikidata: () => `Q${r.int(99999999)}`,
    'source:maxspeed': () => r.pick(['FR:urban', 'DE:zone30', 'sign']),
    note: () => `checked ${2015 + r.int(10)}; "${r.pick(words)}" \\ ${r.pick(words)}`,
    '@id': () => `way/${r.int(900000000)}`,
    '@version': () => 1 + r.int(20),
    '@timestamp': () => 1400000000 + r.int(300000000),
  };
  const keys = Object.keys(tags);
  // 978 key sets, the first ones the most used (index = 978 u²), as a few tag combinations dominate a real map.
  const keySets = [];
  for (let i = 0; i < 978; i++) keySets.push(keys.filter((key) => key === 'highway' || key === '@id' || r.chance(0.3)));
  const features = [];
  for (let i = 0; i < 3356; i++) {
    const properties = {};
    const u = r.unit();
    for (const key of keySets[Math.floor(978 * u * u)]) properties[key] = tags[key]();
    const coordinates = [];
    let x = 4.8 + r.unit() / 10, y = 45.7 + r.unit() / 10;
    for (let n = 2 + r.int(6); n > 0; n--) {
      coordinates.push([Math.round(x * 1e7) / 1e7, Math.round(y * 1e7) / 1e7]);
      x += (r.unit() - 0.5) / 1000; y += (r.unit() - 0.5) / 1000;
    }
    features.push({ type: 'Feature', id: properties['@id'], properties, geometry: { type: 'LineString', coordinates } });
  }
  write('geojson-streets.json', { type: 'FeatureCollection', generator: 'corpus generate.mjs', features });
}

// A Chrome trace (the Trace Event Format): complete, begin/end, instant, counter, async and metadata events of a
// browser's threads, with args of many shapes.
{
  const r = random(1712);
  const names = ['ParseHTML', 'EvaluateScript', 'FunctionCall', 'Layout', 'UpdateLayoutTree', 'Paint', 'CompositeLayers',
    'v8.compile', 'v8.run', 'RasterTask', 'ResourceSendRequest', 'ResourceReceiveResponse', 'TimerFire', 'GCEvent', 'MinorGC'];
  const cats = ['devtools.timeline', 'v8', 'blink', 'cc', 'disabled-by-default-devtools.timeline', 'loading', 'toplevel'];
  const traceEvents = [];
  for (const [tid, name] of [[1, 'CrBrowserMain'], [7, 'CrRendererMain'], [9, 'Compositor'], [12, 'ThreadPoolForegroundWorker']]) {
    traceEvents.push({ args: { name }, cat: '__metadata', name: 'thread_name', ph: 'M', pid: 4242, tid, ts: 0 });
  }
  let ts = 81234567890;
  for (let i = 0; i < 9000; i++) {
    ts += r.int(400);
    const tid = r.pick([1, 7, 7, 7, 9, 12]);
    const name = r.pick(names);
    const kind = r.int(10);
    if (kind < 5) {
      const args = r.chance(0.5) ? {} : { data: { frame: `0x${r.int(0xffffff).toString(16)}`, url: `https://app.example.com/static/js/${r.pick(words)}.${r.int(9999)}.js`, lineNumber: r.int(5000), columnNumber: r.int(200) } };
      traceEvents.push({ args, cat: r.pick(cats), dur: r.int(5000), name, ph: 'X', pid: 4242, tdur: r.int(4000), tid, ts, tts: ts - 81000000000 });
    } else if (kind < 7) {
      traceEvents.push({ args: {}, cat: r.pick(cats), name, ph: 'B', pid: 4242, tid, ts });
      traceEvents.push({ args: { endData: { rootFrame: `0x${r.int(0xffffff).toString(16)}` } }, cat: 'devtools.timeline', name, ph: 'E', pid: 4242, tid, ts: ts + r.int(900) });
    } else if (kind < 8) {
      traceEvents.push({ args: { data: { jsHeapSizeUsed: 10000000 + r.int(90000000), jsEventListeners: r.int(900), documents: 1 + r.int(4), nodes: r.int(90000) } }, cat: 'disabled-by-default-devtools.timeline', name: 'UpdateCounters', ph: 'C', pid: 4242, tid, ts });
    } else if (kind < 9) {
      traceEvents.push({ args: { data: { type: r.pick(['click', 'keydown', 'pointermove']), timeStamp: ts / 1000 } }, cat: 'devtools.timeline', id2: { local: `0x${r.int(0xfffff).toString(16)}` }, name: 'EventDispatch', ph: 'b', pid: 4242, scope: 'input', tid, ts });
    } else {
      traceEvents.push({ args: { data: { message: r.pick(['navigationStart', 'firstPaint', 'firstContentfulPaint', 'domInteractive']) } }, cat: 'blink.user_timing', name: 'TimeStamp', ph: 'I', pid: 4242, s: 't', tid, ts });
    }
  }
  write('trace.json', { traceEvents, displayTimeUnit: 'ms', metadata: { 'clock-domain': 'LINUX_CLOCK_MONOTONIC', 'cpu-brand': 'Example CPU @ 2.40GHz', 'num-cpus': 2, 'trace-config': '' } });
}

// A Jupyter notebook (nbformat 4): code cells whose outputs are HTML tables of a data frame, stream text, and PNG
// images as base64; markdown cells of prose.
{
  const r = random(404);
  const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const cells = [];
  for (let c = 0; c < 60; c++) {
    cells.push({ cell_type: 'markdown', id: `md-${c}`, metadata: {}, source: [`## Step ${c}: ${r.pick(words)} by ${r.pick(words)}\n`, '\n', `We group the "${r.pick(words)}" rows and compare the mean of \`${r.pick(words)}\` with last week's.\n`] });
    const rows = [];
    for (let i = 0; i < 25; i++) {
      rows.push(`    <tr>\n      <th>${i}</th>\n      <td>${r.pick(words)}</td>\n      <td>${(r.unit() * 1000).toFixed(3)}</td>\n      <td>${r.int(100000)}</td>\n      <td>${r.chance(0.5)}</td>\n    </tr>\n`);
    }
    const html = ['<div>\n', '<style scoped>\n', '    .dataframe tbody tr th:only-of-type {\n', '        vertical-align: middle;\n', '    }\n', '</style>\n',
      '<table border="1" class="dataframe">\n', '  <thead>\n', '    <tr style="text-align: right;">\n', '      <th></th>\n      <th>name</th>\n      <th>mean</th>\n      <th>count</th>\n      <th>flag</th>\n', '    </tr>\n', '  </thead>\n', '  <tbody>\n', ...rows, '  </tbody>\n', '</table>\n', '</div>'];
    const outputs = [{ data: { 'text/html': html, 'text/plain': rows.map((row) => row.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim() + '\n') }, execution_count: c + 1, metadata: {}, output_type: 'execute_result' }];
    if (r.chance(0.5)) outputs.unshift({ name: 'stdout', output_type: 'stream', text: [`loaded ${r.int(100000)} rows in ${r.unit().toFixed(2)}s\n`, `warning: column "${r.pick(words)}" has\tNaN values\n`] });
    if (c % 4 === 0) {
      let png = 'iVBORw0KGgoAAAANSUhEUgAA';
      for (let i = 0; i < 12000; i++) png += b64[r.int(64)];
      outputs.push({ data: { 'image/png': png, 'text/plain': ['<Figure size 640x480 with 1 Axes>'] }, metadata: { needs_background: 'light' }, output_type: 'display_data' });
    }
    cells.push({ cell_type: 'code', execution_count: c + 1, id: `code-${c}`, metadata: { tags: [] }, outputs, source: [`df = load("${r.pick(words)}.parquet")\n`, `df.groupby("${r.pick(words)}").agg({"value": "mean"}).head(25)`] });
  }
  write('notebook.json', { cells, metadata: { kernelspec: { display_name: 'Python 3 (ipykernel)', language: 'python', name: 'python3' }, language_info: { name: 'python', version: '3.12.4' } }, nbformat: 4, nbformat_minor: 5 }, 1);
}

// Wide records: 400 rows of 90 columns each (over Jint's 64-key limit for objects with a hidden class).
{
  const r = random(90);
  const rows = [];
  for (let i = 0; i < 400; i++) {
    const row = { id: i };
    for (let c = 1; c < 90; c++) {
      const key = `${words[c % words.length]}_${c}`;
      row[key] = c % 3 === 0 ? r.int(1000000) : c % 3 === 1 ? `${r.pick(words)} ${r.pick(words)}` : r.chance(0.5);
    }
    rows.push(row);
  }
  write('wide-records.json', rows);
}

// Integer-like keys: one object of 3,800 entries keyed by numeric ids (as an issue tracker or a CMS exports them),
// each with a few fields and a paragraph of description.
{
  const r = random(3800);
  const byId = {};
  for (let i = 0; i < 3800; i++) {
    const id = 100000 + i * 7 + r.int(7);
    const sentence = () => `The ${r.pick(words)} ${r.pick(words)} ${r.pick(['fails', 'works', 'hangs', 'returns 404', 'times out'])} when "${r.pick(words)}" is set.`;
    byId[id] = { id, title: `${r.pick(words)}: ${r.pick(words)} ${r.pick(words)}`, state: r.pick(['open', 'closed']), votes: r.int(500), description: [sentence(), sentence(), sentence(), sentence()].join(' ') + '\n\nSteps:\n1. open\n2. click' };
  }
  write('intkeys.json', { total: 3800, items: byId });
}

// A settings document: 1,000 objects of 7 shapes (feature flags, editor settings, limits, schedules), small integers
// and booleans, as a configuration service returns them.
{
  const r = random(7);
  const shapes = [
    () => ({ kind: 'flag', key: `feature.${r.pick(words)}.${r.pick(words)}`, enabled: r.chance(0.5), rollout: r.int(101) }),
    () => ({ kind: 'editor', tabSize: 2 + 2 * r.int(2), insertSpaces: r.chance(0.8), wordWrap: r.pick(['on', 'off']), fontSize: 10 + r.int(10), minimap: { enabled: r.chance(0.5), side: 'right' } }),
    () => ({ kind: 'limit', name: r.pick(words), max: r.int(10000), burst: r.int(100), windowSeconds: 60 * (1 + r.int(60)) }),
    () => ({ kind: 'schedule', cron: `${r.int(60)} ${r.int(24)} * * ${r.int(7)}`, timezone: r.pick(['UTC', 'Europe/Paris', 'America/New_York']), enabled: r.chance(0.7) }),
    () => ({ kind: 'retry', attempts: 1 + r.int(9), backoff: { initial: 100 * (1 + r.int(9)), factor: 2, max: 30000 }, jitter: r.chance(0.5) }),
    () => ({ kind: 'notify', channel: r.pick(['email', 'slack', 'sms']), onFailure: r.chance(0.9), onSuccess: r.chance(0.2), quietHours: [22, 7] }),
    () => ({ kind: 'quota', cpu: r.int(64), memoryMb: 256 * (1 + r.int(32)), gpu: 0, preemptible: r.chance(0.3), priority: r.int(10) }),
  ];
  const settings = [];
  for (let i = 0; i < 1000; i++) settings.push({ id: i, scope: r.pick(['user', 'workspace', 'org']), value: shapes[i % 7]() });
  write('settings.json', { version: 3, settings }, 2);
}

// Number-heavy: a triangle mesh (positions, normals, texture coordinates as doubles; indices as integers) and 10,000
// random doubles at full precision.
{
  const r = random(1e6);
  const n = 6000;
  const positions = [], normals = [], uvs = [], indices = [];
  for (let i = 0; i < n; i++) {
    positions.push(r.unit() * 20 - 10, r.unit() * 20 - 10, r.unit() * 20 - 10);
    const x = r.unit() - 0.5, y = r.unit() - 0.5, z = r.unit() - 0.5, l = Math.hypot(x, y, z);
    normals.push(x / l, y / l, z / l);
    uvs.push(Math.round(r.unit() * 1e6) / 1e6, Math.round(r.unit() * 1e6) / 1e6);
  }
  for (let i = 0; i < 3 * n; i++) indices.push(r.int(n));
  const samples = [];
  for (let i = 0; i < 10000; i++) samples.push((r.unit() - 0.5) * 10 ** (r.int(12) - 4));
  write('numbers.json', { mesh: { positions, normals, uvs, indices }, samples });
}

// An access-control export: 3,000 members, each a dozen booleans and nulls (a permission that is null is inherited
// from the role), as an identity service returns them: values with no text, in an order no branch can learn.
{
  const r = random(3000);
  const flag = () => (r.chance(0.2) ? null : r.chance(0.5));
  const permissions = ['read', 'write', 'delete', 'admin', 'billing', 'invite', 'export', 'api'];
  const members = [];
  for (let i = 0; i < 3000; i++) {
    members.push({
      id: 100000 + 7 * i,
      role: r.pick(['owner', 'maintainer', 'developer', 'reporter', 'guest']),
      active: r.chance(0.9),
      mfa: r.chance(0.6),
      permissions: Object.fromEntries(permissions.map((p) => [p, flag()])),
      overrides: [flag(), flag(), flag(), flag()],
      locked: r.chance(0.05) ? r.chance(0.5) : null,
    });
  }
  write('permissions.json', { organization: 'example', members });
}

// A monitoring export of integer counters in columns: 48 series of 600 samples, each with its epoch-second
// timestamps, a running counter of five to nine digits, the signed differences between samples, and a small signed
// gauge (temperatures, queue changes), as a time-series database returns a range query.
{
  const r = random(48600);
  const metrics = ['http_requests_total', 'bytes_sent', 'bytes_received', 'gc_pauses', 'cache_misses', 'disk_writes'];
  const series = [];
  for (let s = 0; s < 48; s++) {
    const start = 1764000000 + 60 * r.int(10000);
    const timestamps = [], counter = [], delta = [], gauge = [];
    let value = 10 ** (4 + r.int(5)) + r.int(10000);
    let level = r.int(100) - 40;
    for (let i = 0; i < 600; i++) {
      const step = r.int(2 * 10 ** (1 + r.int(4)));
      timestamps.push(start + 60 * i);
      counter.push(value);
      if (i > 0) delta.push(r.chance(0.3) ? -step : step);
      value += step;
      level += r.int(11) - 5;
      gauge.push(level);
    }
    series.push({ metric: r.pick(metrics), host: `node-${r.int(64)}`, step: 60, timestamps, counter, delta, gauge });
  }
  write('counters.json', { status: 'success', resultType: 'matrix', series });
}

// Long prose that is not ASCII, outside the corpus (testdata/posts-ru.json): 200 posts of a Russian blog export, each
// body a few paragraphs of Cyrillic words with some English ones, punctuation, quotes and dashes, the paragraphs
// separated by blank lines; titles, authors and tags in Cyrillic too.
{
  const r = random(424);
  const ru = ('время человек жизнь день рука работа слово место вопрос сторона страна мир случай голова ребёнок '
    + 'система город дело лицо друг глаз история дом конец часть земля вода книга закон отец деньги власть '
    + 'новый большой последний главный хороший русский общий сильный высокий простой важный старый '
    + 'говорить знать стать сказать мочь хотеть сделать видеть думать ответить понять решить писать читать '
    + 'сегодня завтра всегда снова уже ещё очень только тоже также потом здесь там почему потому').split(' ');
  const en = ['API', 'JSON', 'release', 'open source', 'cloud', 'backend', 'GitHub', 'Linux', 'data', 'deploy'];
  const names = ['Анна Иванова', 'Пётр Смирнов', 'Мария Кузнецова', 'Дмитрий Попов', 'Елена Соколова', 'Игорь Лебедев'];
  const sentence = () => {
    const length = 6 + r.int(14);
    const parts = [];
    for (let i = 0; i < length; i++) {
      parts.push(r.chance(0.08) ? r.pick(en) : r.pick(ru));
      if (i + 1 < length && r.chance(0.1)) parts[parts.length - 1] += ',';
    }
    if (r.chance(0.1)) parts.splice(1 + r.int(length - 1), 0, '—');
    if (r.chance(0.1)) parts.push(`«${r.pick(ru)} ${r.pick(ru)}»`);
    const text = parts.join(' ');
    return text[0].toUpperCase() + text.slice(1) + r.pick(['.', '.', '.', '!', '?', '…']);
  };
  const paragraph = () => Array.from({ length: 2 + r.int(6) }, sentence).join(' ');
  const posts = Array.from({ length: 200 }, (_, id) => ({
    id,
    title: sentence().slice(0, -1),
    author: r.pick(names),
    published: new Date(Date.UTC(2026, r.int(12), 1 + r.int(28), r.int(24), r.int(60))).toISOString(),
    body: Array.from({ length: 2 + r.int(5) }, paragraph).join('\n\n'),
    tags: Array.from({ length: 1 + r.int(4) }, () => r.pick(ru)),
    views: r.int(100000),
  }));
  writeFileSync(join(out, '..', 'posts-ru.json'), JSON.stringify(posts) + '\n');
}

// English prose with typographic punctuation, outside the corpus (testdata/articles-en.json): 150 articles of a CMS
// export, each body a few paragraphs of English words with curly apostrophes (it’s), curly double quotes, em dashes and
// ellipses, the paragraphs separated by blank lines: text that is nearly all ASCII, with a char from U+2000 on every
// few dozen chars.
{
  const r = random(150);
  const en = ('the of and to in that for with on as by from at this which but not have are was were can will would '
    + 'could should about into over after before between through during without under system service release data '
    + 'team user page update feature change report design market product customer support policy result people '
    + 'work time year week today new first last early late simple clear better faster open public small large').split(' ');
  const authors = ['Jane Doe', 'John Smith', 'Maria Garcia', 'Wei Chen', 'Aisha Khan', 'Tom O’Brien'];
  const sentence = () => {
    const length = 6 + r.int(14);
    const parts = [];
    for (let i = 0; i < length; i++) {
      let word = r.pick(en);
      if (r.chance(0.05)) word += r.pick(['’s', 'n’t', '’re', '’ll']);
      parts.push(word);
      if (i + 1 < length && r.chance(0.08)) parts[parts.length - 1] += ',';
    }
    if (r.chance(0.25)) parts.splice(1 + r.int(length - 1), 0, '—');
    if (r.chance(0.2)) {
      const at = r.int(length - 1);
      parts[at] = `“${parts[at]}`;
      parts[at + 1] = `${parts[at + 1]}”`;
    }
    const text = parts.join(' ');
    return text[0].toUpperCase() + text.slice(1) + r.pick(['.', '.', '.', '.', '?', '…']);
  };
  const paragraph = () => Array.from({ length: 2 + r.int(6) }, sentence).join(' ');
  const articles = Array.from({ length: 150 }, (_, id) => {
    const title = sentence().slice(0, -1);
    return {
      id,
      title,
      slug: title.toLowerCase().replace(/[^a-z]+/g, '-').replace(/^-|-$/g, ''),
      author: r.pick(authors),
      published: new Date(Date.UTC(2026, r.int(12), 1 + r.int(28), r.int(24), r.int(60))).toISOString(),
      body: Array.from({ length: 2 + r.int(5) }, paragraph).join('\n\n'),
      tags: Array.from({ length: 1 + r.int(4) }, () => r.pick(en)),
      views: r.int(100000),
    };
  });
  writeFileSync(join(out, '..', 'articles-en.json'), JSON.stringify(articles) + '\n');
}

// Short messages that are not ASCII, outside the corpus (testdata/chat.json): 6,000 messages of a group chat's export,
// in the shape a messenger's desktop export writes, each a few words of Russian or Spanish with emoji (pairs and BMP
// symbols), names that are not ASCII, and reactions.
{
  const r = random(6000);
  const ru = ('привет как дела спасибо хорошо завтра сегодня встреча работа проект готово отлично посмотрю '
    + 'давайте вечером утром конечно сейчас позже вопрос ответ файл ссылка код релиз тест сборка').split(' ');
  const es = ('hola qué tal gracias mañana reunión código página canción corazón también está además después '
    + 'todavía pronto listo perfecto revisión versión acción niño año sí').split(' ');
  const emoji = ['😀', '😂', '👍', '🎉', '🔥', '🙏', '🚀', '😅', '🤔', '❤️', '✅', '☕', '✨', '👀', '💯'];
  const people = [
    ['Анна', 'user101'], ['Дмитрий', 'user102'], ['María José', 'user103'], ['Ñuño Peña', 'user104'],
    ['Ольга', 'user105'], ['José Luis', 'user106'], ['Сергей', 'user107'], ['Lucía', 'user108'],
  ];
  const start = Date.UTC(2026, 9, 1) / 1000;
  let time = start;
  const messages = Array.from({ length: 6000 }, (_, i) => {
    const [name, id] = r.pick(people);
    const vocabulary = /[А-я]/.test(name) ? ru : es;
    const parts = Array.from({ length: 1 + r.int(12) }, () => (r.chance(0.15) ? r.pick(emoji) : r.pick(vocabulary)));
    const text = parts.join(' ');
    time += 1 + r.int(300);
    const message = {
      id: 100000 + i,
      type: 'message',
      date: new Date(time * 1000).toISOString().slice(0, 19),
      date_unixtime: String(time),
      from: name,
      from_id: id,
      text: text[0].toUpperCase() + text.slice(1) + (r.chance(0.3) ? ` ${r.pick(emoji)}` : ''),
    };
    if (i > 0 && r.chance(0.2)) message.reply_to_message_id = 100000 + r.int(i);
    if (r.chance(0.25)) {
      message.reactions = Array.from({ length: 1 + r.int(3) }, () => ({ type: 'emoji', count: 1 + r.int(9), emoji: r.pick(emoji) }));
    }
    return message;
  });
  writeFileSync(join(out, '..', 'chat.json'), JSON.stringify({ name: 'Команда · Equipo', type: 'private_group', id: 4242, messages }) + '\n');
}
