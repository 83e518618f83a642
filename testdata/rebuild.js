// Rebuilds a parsed document in script, as scripts build most of what they stringify, for the benchmarks
// (BuiltBenchmarks) and the tests (WideCorpusTests). build is "assigned" (each object rebuilt by assignment to a new
// object literal), "deleted" (the same, then one key added and deleted on each object), "Object.assign" (shallow copies
// by Object.assign({}, ...)) or "class" (instances of one class per key set whose constructor assigns each property).
// Arrays are rebuilt with map. Every build serializes to the same text as the document.
(function (doc, build) {
  const classes = new Map();
  // One class per key set, whose constructor assigns each property in order: this["a"] = r(v["a"]); ...
  function classFor(keys) {
    const signature = JSON.stringify(keys);
    let Row = classes.get(signature);
    if (Row === undefined) {
      const body = keys.map(k => 'this[' + JSON.stringify(k) + '] = r(v[' + JSON.stringify(k) + ']);').join(' ');
      Row = new Function('r', 'return class Row { constructor(v) { ' + body + ' } };')(r);
      classes.set(signature, Row);
    }
    return Row;
  }
  function r(v) {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(r);
    switch (build) {
      case 'assigned': {
        const o = {};
        for (const k of Object.keys(v)) o[k] = r(v[k]);
        return o;
      }
      case 'deleted': {
        const o = {};
        for (const k of Object.keys(v)) o[k] = r(v[k]);
        o.__scratch = 0;
        delete o.__scratch;
        return o;
      }
      case 'Object.assign': {
        const o = Object.assign({}, v);
        for (const k of Object.keys(o)) o[k] = r(o[k]);
        return o;
      }
      case 'class':
        return new (classFor(Object.keys(v)))(v);
    }
    throw new Error('unknown build ' + build);
  }
  return r(doc);
})
