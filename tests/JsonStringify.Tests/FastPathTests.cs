using Jint;
using Jint.Native;
using Jint.Runtime.Descriptors;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The reader over Jint's internals: its self-test, its switch, and the cases where it must step aside.
/// </summary>
public class FastPathTests
{
    // Each probe holds exactly where the matrix of claimed releases says its assumption holds.
    [Fact]
    public void ProbesFindWhatEachReleaseIsKnownToBreak()
    {
        foreach (JintAssumption assumption in FastPath.Assumptions)
        {
            bool broken = (JintReleases.Broken & assumption) != 0;
            Assert.True(broken != FastPath.Holds(assumption), $"{assumption} on Jint {JintReleases.Current}: {FastPath.Failure(assumption) ?? "holds"}");
        }
    }

    [Fact]
    public void FastPathIsActiveUnlessTurnedOff()
    {
        using var engine = new Engine();
        Assert.Equal(!ReaderSelection.PublicOnly, new JsonSerializer(engine).IsFastPathActive);
        Assert.False(new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = false }).IsFastPathActive);
    }

    // The reason names every broken assumption of this release, or says why the whole fast path is off.
    [Fact]
    public void FastPathDisabledReasonNamesWhatIsOff()
    {
        using var engine = new Engine();
        string? reason = new JsonSerializer(engine).FastPathDisabledReason;
        if (ReaderSelection.PublicOnly)
        {
            Assert.Contains("public", reason);
        }
        else if (JintReleases.Broken == JintAssumption.None)
        {
            Assert.Null(reason);
        }
        else
        {
            Assert.NotNull(reason);
            foreach (JintAssumption assumption in FastPath.Assumptions)
            {
                Assert.Equal((JintReleases.Broken & assumption) != 0, reason.Contains(assumption.ToString(), StringComparison.Ordinal));
            }
        }

        Assert.Contains("EnableFastPath", new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = false }).FastPathDisabledReason);
    }

    public static TheoryData<string> ObservableCases => new()
    {
        // toJSON appears on a prototype while the walk is under way
        "var log = []; var o = {a: {get x() { Object.prototype.toJSON = function () { return 'late'; }; return 1; }}, b: {c: 1}}; var r = JSON.stringify(o); delete Object.prototype.toJSON; r",
        "var arr = [{}, {}]; var first = {toJSON() { Array.prototype.toJSON = () => 'arr'; return 1; }}; var r = JSON.stringify([first, [1], {k: [2]}]); delete Array.prototype.toJSON; r",
        "var o = {a: 1, b: {c: 2}}; o.b.toJSON = undefined; JSON.stringify(o)",
        // a getter earlier in the object changes a later value, or the object's class
        "var o = {a: 1, b: 2, c: 3}; Object.defineProperty(o, 'a', {get() { o.c = 'changed'; delete o.b; return 1; }, enumerable: true}); JSON.stringify(o)",
        "var inner = {x: 1, y: 2}; var o = {a: {toJSON() { inner.y = 'late'; inner.z = 3; return 0; }}, b: inner}; JSON.stringify(o)",
        "var o = {p: 1, q: 2, r: 3}; var holder = {first: {toJSON() { delete o.q; o.s = 4; return 'f'; }}, second: o}; JSON.stringify(holder)",
        // own toJSON in a hidden-class object, in an array, and on a class's prototype
        "JSON.stringify([{a: 1, toJSON() { return 'own'; }}, {a: 2}])",
        "var a = [1, 2]; a.toJSON = () => 'array'; JSON.stringify({a: a})",
        "class P { constructor() { this.x = 1; } toJSON() { return 'class'; } } JSON.stringify([new P(), {x: 2}])",
        "var proto = {toJSON() { return 'proto'; }}; var o = Object.create(proto); o.a = 1; JSON.stringify([o, {a: 1}])",
        "var proto = {toJSON() { this.added = 1; return this; }}; var o = Object.create(proto); o.a = 1; JSON.stringify([o, o])",
        "var proto = {toJSON() { delete this.a; this.b = 2; return this; }}; var o = Object.create(proto); o.a = 1; JSON.stringify({x: o})",
        // prototypes that are proxies, and holes that read the prototype
        "var o = Object.create(new Proxy({}, {get(t, k) { return k === 'toJSON' ? () => 'trap' : undefined; }})); o.a = 1; JSON.stringify({o: o})",
        "Array.prototype[1] = {toJSON() { return 'hole'; }}; var r = JSON.stringify([0, , 2]); delete Array.prototype[1]; r",
        // an array shrinks under a toJSON
        "var a = [1, {toJSON() { a.length = 2; return 'x'; }}, 3, 4]; JSON.stringify(a)",
        // many rows sharing one class, with a key that needs escaping
        "var rows = []; for (var i = 0; i < 50; i++) { rows.push({id: i, 'na\\nme': 'r' + i, ok: i % 2 === 0}); } JSON.stringify(rows)",
        // the serializer's layout cache serves later calls: objects change class between calls, and gain a toJSON
        "var o = {a: 1, b: 2}; var first = JSON.stringify([o, {a: 3, b: 4}]); o.c = 3; delete o.a; var second = JSON.stringify([o, {a: 3, b: 4}]); o.toJSON = () => 'now'; first + second + JSON.stringify([o, {a: 5, b: 6}])",
        "var rows = []; for (var i = 0; i < 40; i++) { var r = {}; r['k' + (i % 37)] = i; r.v = i; rows.push(r); } JSON.stringify(rows) + JSON.stringify(rows.reverse())",
        // objects whose properties live in a table (over 64 of them, or one deleted): order, accessors, non-enumerable
        // properties, symbols, integer-like keys, and changes made by user code part-way through
        "var wide = {}; for (var i = 0; i < 100; i++) { wide['k' + i] = i % 3 ? i : 'v' + i; } JSON.stringify([wide, wide])",
        "var o = {a: 1, b: 2, c: 3}; delete o.b; o.d = 4; o.b = 5; JSON.stringify(o)",
        "var o = {a: 1, b: 2, c: 3, z: 0}; delete o.z; Object.defineProperty(o, 'h', {value: 'hidden', enumerable: false}); o[Symbol('s')] = 1; Object.defineProperty(o, 'g', {get() { return 'got'; }, enumerable: true}); JSON.stringify(o)",
        "var o = {b: 1, z: 0}; delete o.z; o[2] = 'two'; o[1] = 'one'; o.a = 3; o['01'] = 'x'; JSON.stringify(o)",
        "var o = JSON.parse('{\"b\":1,\"10\":2,\"9\":3,\"4294967295\":4,\"4294967294\":5,\"0\":6,\"007\":7,\"1x\":8,\"a\":9,\"-1\":10}'); Object.defineProperty(o, '5', {value: 'hidden', enumerable: false}); Object.defineProperty(o, '3', {get() { return 'got'; }, enumerable: true}); JSON.stringify([o, o])",
        "var t = {}; for (var i = 40; i > 0; i -= 3) { t[i] = i; t['k' + i] = i; } JSON.stringify({t: t, u: [t]})",
        "var t = {}; t[3] = 'c'; Object.defineProperty(t, '1', {get() { delete t[3]; t[2] = 'new'; return 'one'; }, enumerable: true}); JSON.stringify([t, t])",
        "var t = JSON.parse('{\"2\":\"two\",\"x\":1}'); JSON.stringify([{toJSON() { t[1] = 'one'; delete t[2]; return 0; }}, t])",
        "var o = {p: 1, q: 2, r: 3, z: 0}; delete o.z; var holder = {o: o}; o.p = {toJSON() { delete o.q; o.r = 'late'; o.s = 4; return 'p'; }}; JSON.stringify(holder)",
        "var o = {a: 1, b: 2, z: 0}; delete o.z; Object.defineProperty(o, 'a', {get() { o.b = 'changed'; return 1; }, enumerable: true}); JSON.stringify(o)",
        "var o = {a: 1, b: {c: 2}, z: 0}; delete o.z; JSON.stringify(o, (k, v) => k === 'a' ? (o.b = 'replaced', v) : v)",
        "var o = {x: 1, z: 0}; delete o.z; JSON.stringify([o, new Proxy(o, {ownKeys(t) { t.x = 'trap'; return Reflect.ownKeys(t); }}), o])",
        // a table of 5,000 keys whose values are tables: the stack of table properties outgrows the array a walker
        // keeps and goes on in one rented from the pool, call after call, compact and indented; and a getter that
        // throws while it is rented, twice, before the table is read again
        "var big = {}; for (var i = 0; i < 5000; i++) { var t = {}; t['k'] = i; t['n' + (i % 3)] = {z: 0, v: i}; delete t['n' + (i % 3)].z; big['key' + i] = t; } var wrap = {}; wrap['big'] = big; wrap['next'] = {}; wrap['next']['a'] = 1; JSON.stringify([wrap, wrap]) + JSON.stringify(big, null, 1) + JSON.stringify(wrap)",
        "var big = {}; for (var i = 0; i < 5000; i++) { big['k' + i] = {v: i}; } Object.defineProperty(big, 'boom', {enumerable: true, get() { throw new Error('boom at ' + Object.keys(this).length); }}); var r = []; for (var n = 0; n < 2; n++) { try { JSON.stringify([big]); } catch (e) { r.push(e.message); } } delete big.boom; r.join() + JSON.stringify([big, big]).length + JSON.stringify(big).slice(-40)",
        // objects built by assignment (tables all the way down), read from their tables and opened from the loops:
        // toJSON own (enumerable or not), on a prototype, or added part-way through; getters that change later tables
        "function r(v) { if (Array.isArray(v)) return v.map(r); if (v && typeof v === 'object') { const o = {}; for (const k of Object.keys(v)) o[k] = r(v[k]); return o; } return v; } JSON.stringify(r({a: [{b: 1, c: {d: 'x'}}, {}], e: {f: [1, 2, {g: null}]}, '3': {'1': 0}}), null, 1)",
        "var o = {}; o['a'] = 1; Object.defineProperty(o, 'toJSON', {value: () => 'hidden toJSON', enumerable: false}); var p = {}; p['o'] = o; JSON.stringify([o, p, {x: o}])",
        "var o = {}; o['a'] = {}; o['a']['toJSON'] = () => 'inner'; o['b'] = {}; o['b']['c'] = 1; JSON.stringify({o: o})",
        "var t = {}; t['x'] = {}; t['x']['y'] = 1; Object.defineProperty(t, 'g', {get() { delete t.z; t.x.y = 'changed'; return 'g'; }, enumerable: true}); t['z'] = {}; JSON.stringify([t, t])",
        "var proto = {}; var a = {}; a['k'] = 1; var b = Object.create(proto); b['k'] = 2; Object.defineProperty(a, 'g', {get() { proto.toJSON = () => 'late'; return 0; }, enumerable: true}); JSON.stringify([a, b, {b: b}])",
        "var t = {}; t['s'] = 'x'; var u = {}; u['t'] = t; u['n'] = 1; JSON.stringify([u, u], (k, v) => typeof v === 'number' ? v + 1 : v)",
        "var t = {}; t['a'] = 1; t['toJSON'] = function () { delete this.toJSON; delete this.a; this.b = 2; return this; }; var u = {}; u['t'] = t; JSON.stringify([u, t])",
        // tables read ahead and never opened (a toJSON on their prototype), before siblings and as the last property;
        // and tables nested 40 deep, whose parents read on after the stack of open tables has grown under them
        "var P = {toJSON() { return 'p'; }}; function mk(p, kv) { var o = Object.create(p); for (var k of Object.keys(kv)) o[k] = kv[k]; o.z = 0; delete o.z; return o; } var inner = mk(P, {a: 1}); var outer = mk(Object.prototype, {x: inner, y: mk(Object.prototype, {b: 2, c: inner}), w: 3}); JSON.stringify([outer, mk(Object.prototype, {q: outer, r: inner})])",
        "var root = {}; var cur = root; for (var i = 0; i < 40; i++) { var n = {}; for (var j = 0; j < 3 + i % 9; j++) n['k' + j] = j; cur['c'] = n; cur['after'] = i; cur = n; } JSON.stringify([root, root.c])",
        // a replacer property list over hidden-class objects: keys the class lacks are looked up on the prototypes,
        // which may hold them (as values or getters) or gain them part-way through
        "JSON.stringify([{a: 1, b: 2}, {b: 3, c: 4}, {c: 5}], ['c', 'a', 'z', 'b'])",
        "Object.prototype.z = 'proto'; var r = JSON.stringify([{a: 1}, {a: 2, z: 'own'}], ['a', 'z']); delete Object.prototype.z; r",
        "var log = []; Object.defineProperty(Object.prototype, 'g', {get() { log.push(this.a); return 'got' + this.a; }, configurable: true}); var r = JSON.stringify([{a: 1}, {a: 2}], ['g', 'a']); delete Object.prototype.g; r + log",
        "var r = JSON.stringify([{a: {toJSON() { Object.prototype.b = 'late'; return 1; }}}, {a: 2}], ['a', 'b']); delete Object.prototype.b; r",
        "var second = {a: 2, b: 3}; var r = JSON.stringify([{a: {toJSON() { delete second.b; second.c = 9; return 1; }}}, second], ['a', 'b', 'c']); r",
        "class P { constructor(a) { this.a = a; } get b() { return 'b' + this.a; } } JSON.stringify([new P(1), {a: 2}, new P(3)], ['a', 'b'])",
        "JSON.stringify([{a: 1}, Object.create(new Proxy({}, {get(t, k) { return k === 'b' ? 'trapped' : undefined; }}))], ['a', 'b'])",
        "JSON.stringify({'na\\\"me': 1, x: {'na\\\"me': 2}}, ['na\\\"me', 'x'], 1)",
        // a property list is reused by later calls while its items stay the same: items that change, repeat, are
        // numbers or boxed, a nested call with the same list, and objects whose properties live in a table
        "var list = ['a', 1, 'b']; var o = {a: 1, 1: 'one', b: 2, c: 3}; var r1 = JSON.stringify(o, list); list.push('c'); var r2 = JSON.stringify(o, list); list[0] = 'c'; var r3 = JSON.stringify(o, list); list.length = 1; var r4 = JSON.stringify(o, list); [r1, r2, r3, r4, JSON.stringify(o, ['b', 'a', 'b', new String('c'), 1.0, new Number(1)]), JSON.stringify(o, [])].join()",
        "JSON.stringify({1: 'a', '1.5': 'b', '0': 'z', 'NaN': 'n', Infinity: 'i', '-Infinity': 'm', '1e+21': 'e'}, [1, 1.5, -0, NaN, Infinity, -Infinity, 1e21, 1.5])",
        "var list = ['a', 'b']; var o = {a: {toJSON() { return JSON.stringify({a: 1, b: 2}, list) + JSON.stringify({b: 3}, ['b']); }}, b: {a: 5, b: 6}}; JSON.stringify(o, list) + JSON.stringify(o, list)",
        "var t = {a: 1, b: 2, c: 3, z: 0}; delete t.z; Object.defineProperty(t, 'g', {get() { t.b = 'changed'; return 'got'; }, enumerable: true}); Object.prototype.p = 'proto'; var r = JSON.stringify([t, t], ['a', 'g', 'b', 'p', 'missing']); delete Object.prototype.p; r",
        "var t = {a: {toJSON() { Object.prototype.m = 'late'; return 1; }}, z: 0}; delete t.z; var u = {m: 0, z: 0}; delete u.m; var r = JSON.stringify([t, u], ['a', 'm']); delete Object.prototype.m; r",
        "var protos = [null, {}, Object.create(null), {q: 'pq'}, {r: 'pr'}, {}]; var arr = []; for (var i = 0; i < 24; i++) { var o = Object.create(protos[i % 6]); o.a = i; if (i % 4 === 0) { o.z = 0; delete o.z; } arr.push(o); } JSON.stringify(arr, ['a', 'q', 'r'])",
        // a proxy on the prototype chain, with a property list: its getPrototypeOf trap is never run by [[Get]]
        "var log = []; var proto = new Proxy({}, {getPrototypeOf(t) { log.push('gpo'); return null; }}); var o = Object.create(proto); o.a = 1; JSON.stringify(o, ['a', 'b']) + log.join()",
        "var proto = new Proxy({}, {getPrototypeOf(t) { Object.prototype.b = 'late'; return null; }}); var child = Object.create(proto); var r = JSON.stringify({a: child}, ['a', 'b']); delete Object.prototype.b; r",
        "var bare = Object.create(null); bare.a = 1; JSON.stringify([bare, Object.create(null), {a: 2}], ['a', 'b'])",
        // a proxy's ownKeys trap (with no keys to read after it) or its length trap changes the object that holds it
        "var o = {a: 1, p: null, c: 3, d: 4}; o.p = new Proxy({}, {ownKeys() { delete o.c; o.d = 'late'; return []; }}); JSON.stringify([o, {a: 2, p: 0, c: 5, d: 6}])",
        "var o = {a: 1, p: null, b: 2}; o.p = new Proxy([], {get(t, k) { if (k === 'length') { delete o.b; o.b = 'late'; } return Reflect.get(t, k); }}); JSON.stringify(o)",
        // objects whose values are all primitives: every kind of primitive, values that are not (undefined, functions,
        // symbols, objects) at the start, middle and end, and rows of one class whose values are primitives or not in
        // turn, compact and indented
        "JSON.stringify([{a: 1, b: 'x\\\"y\\n', c: null, d: true, e: -0, f: NaN, g: 1e21, h: 'a much longer string value, past sixteen chars'}], null, 2)",
        "JSON.stringify([{u: undefined, a: 1}, {a: 1, f() {}, b: 2}, {a: 1, b: 2, s: Symbol('s')}, {a: 1, o: {}, b: [], c: 3}, {}], null, '\\t')",
        "var rows = []; for (var i = 0; i < 60; i++) rows.push({a: i, b: i % 7 === 0 ? {n: i} : i % 11 === 0 ? [i] : 'b' + i, c: i % 13 === 0 ? undefined : true}); JSON.stringify(rows) + JSON.stringify({rows: rows, last: rows[59]}, null, 1)",
        "class R { constructor(i) { this.id = i; this.name = 'r' + i; this.ok = i % 2 === 0; } } JSON.stringify({list: [new R(1), new R(2), {id: 3, name: {first: 'x'}, ok: false}, new R(4)]})",
        // the same for rows that are property tables (built by assignment, with a key deleted, over 64 keys): every
        // primitive, values that are not at the start, middle and end, an accessor whose getter changes the row and the
        // rows after it, empty rows, and a toJSON that a getter puts on Object.prototype, compact and indented
        "function t(o) { var r = {}; for (var k of Object.keys(o)) r[k] = o[k]; return r; } JSON.stringify([t({a: 1, b: 'x\\\"y\\n', c: null, d: true, e: -0, f: NaN, g: 1e21, h: 'a much longer string value, past sixteen chars'})], null, 2)",
        "function t(o) { var r = {}; for (var k of Object.keys(o)) r[k] = o[k]; return r; } JSON.stringify([t({u: undefined, a: 1}), t({a: 1, f() {}, b: 2}), t({a: 1, b: 2, s: Symbol('s')}), t({a: 1, o: {}, b: [], c: 3}), t({})], null, '\\t')",
        "var rows = []; for (var i = 0; i < 40; i++) { var r = {x: 0, a: i}; delete r.x; r.b = i % 7 === 0 ? {n: i} : 'b' + i; r.c = i % 13 === 0 ? undefined : true; rows.push(r); } JSON.stringify(rows) + JSON.stringify({rows: rows}, null, 1)",
        "var w = []; for (var j = 0; j < 3; j++) { var o = {}; for (var i = 0; i < 70; i++) o['k' + i] = j === 1 && i === 69 ? [i] : i; w.push(o); } JSON.stringify(w) + JSON.stringify(w, null, 2)",
        "var rows = [{}, {}, {}]; rows[0].a = 1; Object.defineProperty(rows[0], 'g', {enumerable: true, get() { rows[0].z = 'late'; delete rows[0].b; rows[1].a = 'changed'; return 2; }}); rows[0].b = 3; rows[1].a = 4; rows[2].a = 5; JSON.stringify(rows)",
        "var e1 = {a: 1}; delete e1.a; var e2 = {}; e2.a = 1; delete e2.a; JSON.stringify([e1, e2, {}], null, 2)",
        // table rows read one after another at the same place on the stack, sharing their key strings there or not:
        // the same keys, the same keys in another order, fewer, more, and the same key at another place
        "function t(ks) { var r = {}; for (var k of ks) r[k] = k.length; return r; } JSON.stringify([t(['a', 'b', 'c']), t(['a', 'b', 'c']), t(['a', 'c', 'b']), t(['b']), t(['a', 'b', 'c', 'd']), t(['x', 'b']), {n: t(['b', 'a'])}])",
        "var rows = [{}, {}]; rows[0].a = 1; Object.defineProperty(rows[0], 'g', {enumerable: true, get() { Object.prototype.toJSON = function () { return 'late'; }; return 2; }}); rows[1].a = 3; var r = JSON.stringify(rows); delete Object.prototype.toJSON; r",
        // arrays whose elements are all primitives, written whole: every kind of primitive, as elements and as values
        // of hidden-class and table objects, compact and indented; elements that are not primitives (or holes) at the
        // start, middle and end; a hole whose getter on Array.prototype changes the rest; a toJSON on Number.prototype,
        // which primitives never read (a cycle after primitives is a row of ConformanceTests)
        "function t(o) { var r = {}; for (var k of Object.keys(o)) r[k] = o[k]; return r; } var v = [[1, 'a', null, true, -0, NaN, 1e21, 'x\\\"y'], {p: [1, 2], q: ['a', 'b']}, t({p: [3.5], q: [[1, 2], [3, 4]]}), [[1.5, 2.5], [3, 4]]]; JSON.stringify(v) + JSON.stringify(v, null, 2)",
        "JSON.stringify([[undefined, 1], [1, function () {}, 2], [1, 2, Symbol('s')], [1, {}, [], 3], [1, , 3], [, 1], [1, , ], [1, [2, [3, {a: [4, 5]}]]]], null, '-')",
        "Object.defineProperty(Array.prototype, 1, {get() { this[2] = 'late'; return 'got'; }, configurable: true}); var r = JSON.stringify([[0, , 2], [0, 1, 2], {a: [0, , 2]}]); delete Array.prototype[1]; r",
        "Number.prototype.toJSON = function () { return 'no'; }; String.prototype.toJSON = Number.prototype.toJSON; var r = JSON.stringify([1, ['s', 3], {a: [4, 's']}]); delete Number.prototype.toJSON; delete String.prototype.toJSON; r",
        // values that an object being written whole opens in place: objects and arrays, leaves or not, one to four
        // deep, of a class or a table, with a toJSON or a getter among them, compact and indented; chains 10 to 40
        // deep whose every level holds such values, opened as the stack of frames grows under them; and an object, or
        // an array's element, written whole with its values opened in place where the stack of frames is full (at 16
        // to 1,024 frames, whichever a pooled walker has), with more after it for its container to go on with
        "function t(o) { var r = {}; for (var k of Object.keys(o)) r[k] = o[k]; return r; } var P = {toJSON() { return 'p'; }}; var v = [{a: 1, b: {c: {d: {e: {f: 1}}}, g: [1, [2]]}, h: {}, i: [], j: t({k: 1}), l: Object.create(P), m: 'x'}, {a: 2, b: {c: 1, get g() { return {late: 1}; }}, n: {o: undefined, p() {}}}, {a: 3, b: {c: [{d: 1}, {e: [2]}]}, q: {r: {s: {t: {u: 1}}}}}]; JSON.stringify(v) + JSON.stringify(v, null, 2)",
        "function chain(n) { var root = {}; var cur = root; for (var i = 0; i < n; i++) { cur.s = {v: [i], w: {x: i}}; cur.n = {}; cur = cur.n; } cur.end = [n]; return root; } var out = []; for (var n = 10; n <= 40; n++) out.push(JSON.stringify(chain(n))); out.join('|')",
        "function at(d, end) { var root = {}; var cur = root; for (var i = 0; i < d; i++) { cur.n = {}; cur = cur.n; } cur.n = end(); cur.tail = [3]; return root; } var out = []; [16, 32, 64, 128, 256, 512, 1024].forEach(function (c) { for (var d = c - 4; d <= c + 1; d++) { out.push(JSON.stringify(at(d, () => ({leaf: {s: 1}, after: 2}))).length, JSON.stringify(at(d, () => [{leaf: {s: 1}}, 2])).length); } }); out.join()",
        // one empty array met many times is not a cycle
        "var e = []; JSON.stringify({x: e, y: [e, e], z: {w: e}})",
        // a nested call on the same serializer, while the outer call holds the cache
        "var o = {a: {toJSON() { return JSON.stringify({x: 1, y: [{z: 2}]}) + JSON.stringify({a: 0}); }}, b: {x: 3, y: []}}; JSON.stringify([o, o, {a: 9}])",
    };

    [Theory]
    [MemberData(nameof(ObservableCases))]
    public void FastAndPublicReadersAgree(string script)
    {
        using Engine fast = new Engine().UseJsonStringify();
        using Engine slow = new Engine().UseJsonStringify(new JsonSerializerOptions { EnableFastPath = false });
        using Engine builtin = new();
        string expected = Js.Run(slow, script);
        Assert.Equal(expected, Js.Run(fast, script));
        Assert.Equal(Js.Run(builtin, script), expected);
    }

    // The compiled table reader and the public GetOwnProperties it stands in for push the same properties, in the
    // same order, with the same descriptors, and see the same toJSON: tables small and large, with deletions, index
    // keys, accessors and a non-enumerable toJSON, and large ones whose first keys were deleted and whose new keys went
    // round to the start of the table's slots; read onto stacks that hold other tables' properties below, every other
    // one with the memory after the table fetched first, which changes nothing that is read.
    [Fact]
    public void TableReaderAgreesWithThePublicOne()
    {
        if (!FastPath.Holds(JintAssumption.PropertyTables))
        {
            // Not compiled on this release (ProbesFindWhatEachReleaseIsKnownToBreak checks that it is expected).
            Assert.NotEqual(JintAssumption.None, JintReleases.Broken & JintAssumption.PropertyTables);
            return;
        }

        using var engine = new Engine();
        engine.Execute("""
            var tables = [];
            for (var n of [1, 2, 8, 9, 10, 64, 65, 300]) {
              var t = {};
              for (var i = 0; i < n; i++) { t[(i % 7 === 3) ? String(i) : 'k' + i] = i; }
              for (var i = 0; i < n; i += 4) { delete t['k' + i]; }
              t['k0'] = 'again';
              Object.defineProperty(t, 'hidden', {value: 1, enumerable: false});
              if (n === 1) { Object.defineProperty(t, 'toJSON', {value: 1, enumerable: false}); }
              Object.defineProperty(t, 'got', {get() { return 1; }, enumerable: true});
              t[Symbol('s')] = 1;
              tables.push(t);
            }
            for (var n of [12, 40]) {
              var r = {};
              for (var i = 0; i < n; i++) { r['k' + i] = i; }
              for (var i = 0; i < n / 4; i++) { delete r['k' + i]; }
              for (var i = 0; i < n / 3; i++) { r['n' + i] = i; }
              delete r['k' + (n - 2)];
              tables.push(r);
            }
            """);
        var tables = (JsArray)engine.GetValue("tables");
        var fast = new TableStack();
        var slow = new TableStack();
        for (uint i = 0; i < tables.Length; i++)
        {
            var table = (Jint.Native.JsObject)tables[i];
            Assert.Equal(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(table));

            // Onto stacks that hold the previous table already, as they do for an object nested in another.
            TableSegment fastSegment = JintInternals.ReadTable(table, fast, fetchAhead: i % 2 == 0);
            TableSegment slowSegment = ValueReader.ReadTablePublic(table, slow);
            Assert.Equal(slowSegment, fastSegment);
            TableEntry[] read = fast.Entries.AsSpan(fastSegment.Start, fastSegment.Count).ToArray();
            TableEntry[] expected = slow.Entries.AsSpan(slowSegment.Start, slowSegment.Count).ToArray();
            string[] names = [.. read.Select(e => e.Name)];
            Assert.Equal(expected.Select(e => e.Name), names);
            Assert.Equal(expected.Select(e => e.Descriptor), read.Select(e => e.Descriptor));
            Assert.Equal(i == 0, fastSegment.HasToJson);
            if (i < 8)
            {
                Assert.Contains("got", names);
                Assert.DoesNotContain("hidden", names);
            }
            else
            {
                Assert.Equal(tables[i].AsObject().GetOwnPropertyKeys().Select(k => k.ToString()), names);
            }

            if (i % 2 == 1)
            {
                fast.PopTo(fastSegment.Start);
                slow.PopTo(slowSegment.Start);
            }
        }
    }

    // The stack of table properties keeps an array of up to MaxRetainedTableCapacity entries from call to call; past
    // that it moves to one rented from the shared pool, with the segments below the top intact. Reset gives that one
    // back (cleared) and leaves the kept array cleared too, so that a pooled walker pins nothing. Two rounds: the
    // second finds the same kept array, so a walk that needs that much allocates no new one.
    [Fact]
    public void TableStackRentsPastTheArrayItKeepsAndGivesItBack()
    {
        var stack = new TableStack();
        var descriptor = new PropertyDescriptor(JsNumber.Create(1), PropertyFlag.ConfigurableEnumerableWritable);
        TableEntry[]? kept = null;
        for (int round = 0; round < 2; round++)
        {
            TableSegment first = Push(stack, "a", JsonConstants.MaxRetainedTableCapacity - 10);
            Assert.True(stack.Entries.Length <= JsonConstants.MaxRetainedTableCapacity);
            kept ??= stack.Entries;
            Assert.Same(kept, stack.Entries);

            TableSegment second = Push(stack, "b", 300);
            Assert.True(stack.Entries.Length > JsonConstants.MaxRetainedTableCapacity);
            Assert.All(kept, entry => Assert.Null(entry.Name));
            Assert.Equal(Enumerable.Range(0, first.Count).Select(i => "a" + i), stack.Entries.AsSpan(first.Start, first.Count).ToArray().Select(e => e.Name));
            Assert.Equal(Enumerable.Range(0, second.Count).Select(i => "b" + i), stack.Entries.AsSpan(second.Start, second.Count).ToArray().Select(e => e.Name));

            stack.PopTo(second.Start);
            TableSegment third = Push(stack, "c", 5000);
            Assert.Equal(first.Count, third.Start);
            Assert.Equal("a0", stack.Entries[0].Name);
            Assert.Equal("c4999", stack.Entries[third.Start + 4999].Name);

            stack.Reset();
            Assert.Same(kept, stack.Entries);
            Assert.Equal(0, stack.Top);
            Assert.All(kept, entry => Assert.Null(entry.Descriptor));
        }

        // As a reader does: the entries written above the top, then pushed as one segment.
        TableSegment Push(TableStack tables, string prefix, int count)
        {
            tables.EnsureRoom(count);
            for (int i = 0; i < count; i++)
            {
                tables.Entries[tables.Top + i] = new TableEntry { Name = prefix + i, Descriptor = descriptor };
            }

            return tables.Push(count, TableNameKinds.None);
        }
    }

    // Between calls the stack may replace its kept array with a new one of the same length (see
    // Walker.RenewAgedArrays), which then serves as the old one did: kept across Reset, and left for the pool's.
    [Fact]
    public void TableStackRenewsTheArrayItKeeps()
    {
        var stack = new TableStack();
        var descriptor = new PropertyDescriptor(JsNumber.Create(1), PropertyFlag.ConfigurableEnumerableWritable);
        stack.EnsureRoom(100);
        TableEntry[] old = stack.Entries;
        stack.Reset();

        stack.Renew();
        TableEntry[] renewed = stack.Entries;
        Assert.NotSame(old, renewed);
        Assert.Equal(old.Length, renewed.Length);
        Assert.Equal(0, stack.Top);

        stack.Entries[0] = new TableEntry { Name = "a", Descriptor = descriptor };
        TableSegment segment = stack.Push(1, TableNameKinds.None);
        Assert.Equal((0, 1), (segment.Start, segment.Count));
        Assert.Equal("a", stack.Entries[0].Name);
        stack.Reset();
        Assert.Same(renewed, stack.Entries);
        Assert.Null(renewed[0].Name);
    }

    // SerializeJSONArray and SerializeJSONObject check the stack first, whatever the length, so a container emptied
    // while it is open is still a cycle when it is met again, whether a toJSON, a getter or a replacer empties it.
    // Jint 4.18.0 writes "[]" or "{}" for an empty container without that check; V8 14.6 does so for an array only,
    // and makes the check for an object (see docs/semantics.md). start is the constructor of the container met again;
    // circle, the lines after it.
    [Theory]
    [InlineData("var a = [{toJSON() { a.length = 0; return {q: a}; }}]; JSON.stringify(a)", "[{\"q\":[]}]", "Array", "|     index 0 -> object with constructor 'Object'\n    --- property 'q'")]
    [InlineData("var a = [{toJSON() { a.length = 0; return [a]; }}]; JSON.stringify(a)", "[[[]]]", "Array", "|     index 0 -> object with constructor 'Array'\n    --- index 0")]
    [InlineData("var a = [{toJSON() { a.length = 0; return [a]; }}]; JSON.stringify(a, null, 2)", "[\n  [\n    []\n  ]\n]", "Array", "|     index 0 -> object with constructor 'Array'\n    --- index 0")]
    [InlineData("var a = [1]; Object.defineProperty(a, 0, {get() { a.length = 0; return {back: a}; }, configurable: true, enumerable: true}); JSON.stringify(a)", "[{\"back\":[]}]", "Array", "|     index 0 -> object with constructor 'Object'\n    --- property 'back'")]
    [InlineData("var a = [1]; JSON.stringify(a, function (k, v) { if (k === '0') { this.length = 0; return {y: this}; } return v; })", "[{\"y\":[]}]", "Array", "|     index 0 -> object with constructor 'Object'\n    --- property 'y'")]
    [InlineData("var o = {x: {toJSON() { delete o.x; return {back: o}; }}}; JSON.stringify(o)", "{\"x\":{\"back\":{}}}", "Object", "|     property 'x' -> object with constructor 'Object'\n    --- property 'back'")]
    [InlineData("var o = {x: {toJSON() { delete o.x; return {back: o}; }}}; JSON.stringify(o, null, 2)", "{\n  \"x\": {\n    \"back\": {}\n  }\n}", "Object", "|     property 'x' -> object with constructor 'Object'\n    --- property 'back'")]
    [InlineData("var o = {x: {toJSON() { delete o.x; return o; }}}; JSON.stringify(o)", "{\"x\":{}}", "Object", "--- property 'x'")]
    [InlineData("var o = {}; Object.defineProperty(o, 'x', {get() { delete o.x; return {back: o}; }, configurable: true, enumerable: true}); JSON.stringify(o)", "{\"x\":{\"back\":{}}}", "Object", "|     property 'x' -> object with constructor 'Object'\n    --- property 'back'")]
    [InlineData("var o = {x: 1}; JSON.stringify(o, function (k, v) { if (k === 'x') { delete this.x; return {y: this}; } return v; })", "{\"x\":{\"y\":{}}}", "Object", "|     property 'x' -> object with constructor 'Object'\n    --- property 'y'")]
    public void AContainerEmptiedWhileOpenIsStillACycle(string script, string jint, string start, string circle)
    {
        using Engine fast = new Engine().UseJsonStringify();
        using Engine slow = new Engine().UseJsonStringify(new JsonSerializerOptions { EnableFastPath = false });
        using Engine builtin = new();
        string cycle = "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor '" + start + "'\n    " + circle + " closes the circle";
        Assert.Equal(cycle, Js.Run(fast, script));
        Assert.Equal(cycle, Js.Run(slow, script));
        Assert.Equal(jint, Js.Run(builtin, script));
    }

    // What the lazy values of the tests below do when read: change the object being read, an object further out, or
    // Object.prototype.
    private const string MutateScript = """
        var parent = {x: null, y: 1, z: 2};
        function mutate(o, target) {
          if (target === 'self') { delete o.c; }
          if (target === 'parent') { delete parent.y; }
          if (target === 'prototype') { Object.prototype.toJSON = function () { return 'late'; }; }
        }
        """;

    // The value to serialize for a target of MutateScript: the lazy object itself, the parent that holds it, or an
    // array whose second element is read after it.
    private static JsValue PlaceLazyObject(Engine engine, JsObject lazy, string target)
    {
        switch (target)
        {
            case "parent":
                JsValue parent = engine.Evaluate("parent");
                ((JsObject)parent).Set("x", lazy);
                return parent;
            case "prototype":
                JsValue array = engine.Evaluate("[null, {q: 1}]");
                ((JsArray)array).Set(0, lazy);
                return array;
            default:
                return lazy;
        }
    }

    // {a: 'A', b: 'B', c: 'C', d: 'D'} in a hidden class whose slot b is lazy: reading it runs mutate(o, target).
    private static JsObject CreateLazySlotObject(Engine engine, string target)
    {
        JsObjectLayout layout = JsObjectLayout.CreateBuilder()
            .Add("a")
            .AddLazy("b", (o, state) =>
            {
                o.Engine.Invoke("mutate", o, (string)state!);
                return new JsString("B");
            })
            .Add("c")
            .Add("d")
            .Build();
        return JsObject.Create(engine, layout, [new JsString("A"), null, new JsString("C"), new JsString("D")], target);
    }

    // JSON.stringify(value, replacer) by Jint's own serializer ("builtin") or by ours with the fast path on or off.
    private static string SerializeWith(string serializerKind, Engine engine, JsValue value, JsValue? replacer = null) =>
        serializerKind == "builtin"
            ? new Jint.Native.Json.JsonSerializer(engine).Serialize(value, replacer ?? JsValue.Undefined, JsValue.Undefined).ToString()
            : new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = serializerKind == "fast" }).SerializeToString(value, replacer)!;

    // A lazy slot's factory (Jint's public JsObjectLayout API) is host code that may run scripts: here it changes the
    // object being read, an object further out, or Object.prototype. The slot is read as a getter would be, and each
    // case must match Jint's own serializer on both readers.
    [Theory]
    [InlineData("self", "{\"a\":\"A\",\"b\":\"B\",\"d\":\"D\"}")]
    [InlineData("parent", "{\"x\":{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"z\":2}")]
    [InlineData("prototype", "[{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"late\"]")]
    public void LazySlotsAreReadAsUserCode(string target, string expected)
    {
        // Each serializer gets fresh objects, since a factory runs only once.
        foreach (string serializerKind in (string[])["builtin", "fast", "public"])
        {
            using var engine = new Engine();
            engine.Execute(MutateScript);
            JsObject lazy = CreateLazySlotObject(engine, target);
            Assert.Equal(expected, SerializeWith(serializerKind, engine, PlaceLazyObject(engine, lazy, target)));
        }
    }

    // A lazy slot stays lazy when its object drops to a property table (here through a non-enumerable property), and a
    // host may put a lazy descriptor (PropertyDescriptor.CreateLazy) into a table itself. The public reader reads such
    // an object from its table, where the descriptor's value is not a plain one: the value is read when its turn comes,
    // through [[Get]], as user code. Each case must match Jint's own serializer on both readers.
    [Theory]
    [InlineData("slot", "self", "{\"a\":\"A\",\"b\":\"B\",\"d\":\"D\"}")]
    [InlineData("slot", "parent", "{\"x\":{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"z\":2}")]
    [InlineData("slot", "prototype", "[{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"late\"]")]
    [InlineData("descriptor", "self", "{\"a\":\"A\",\"b\":\"B\",\"d\":\"D\"}")]
    [InlineData("descriptor", "parent", "{\"x\":{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"z\":2}")]
    [InlineData("descriptor", "prototype", "[{\"a\":\"A\",\"b\":\"B\",\"c\":\"C\",\"d\":\"D\"},\"late\"]")]
    public void LazyValuesInATableAreReadAsUserCode(string laziness, string target, string expected)
    {
        foreach (string serializerKind in (string[])["builtin", "fast", "public"])
        {
            using var engine = new Engine();
            engine.Execute(MutateScript);
            JsObject lazy;
            if (laziness == "slot")
            {
                lazy = CreateLazySlotObject(engine, target);
                lazy.DefineOwnProperty("hidden", new PropertyDescriptor(new JsString("H"), writable: true, enumerable: false, configurable: true));
            }
            else
            {
                lazy = new JsObject(engine);
                lazy.FastSetDataProperty("a", new JsString("A"));
                JsObject self = lazy;
                lazy.FastSetProperty("b", PropertyDescriptor.CreateLazy(
                    () =>
                    {
                        engine.Invoke("mutate", self, target);
                        return new JsString("B");
                    },
                    PropertyFlag.ConfigurableEnumerableWritable));
                lazy.FastSetDataProperty("c", new JsString("C"));
                lazy.FastSetDataProperty("d", new JsString("D"));
            }

            // The case is about tables: the object must not be in a hidden class.
            Assert.NotEqual(ObjectRepresentation.HiddenClass, engine.Advanced.GetObjectRepresentation(lazy));
            Assert.Equal(expected, SerializeWith(serializerKind, engine, PlaceLazyObject(engine, lazy, target)));
        }
    }

    // The same through a replacer property list, which reads listed keys from their slots.
    [Fact]
    public void LazySlotsAreReadAsUserCodeWithAPropertyList()
    {
        foreach (string serializerKind in (string[])["builtin", "fast", "public"])
        {
            using var engine = new Engine();
            JsObjectLayout layout = JsObjectLayout.CreateBuilder()
                .Add("a")
                .AddLazy("b", (o, _) =>
                {
                    o.Engine.Execute("lazy.c = 'changed'; delete lazy.d;");
                    return new JsString("B");
                })
                .Add("c")
                .Add("d")
                .Build();
            JsObject lazy = JsObject.Create(engine, layout, [new JsString("A"), null, new JsString("C"), new JsString("D")]);
            engine.SetValue("lazy", lazy);
            JsValue list = engine.Evaluate("['d', 'b', 'c', 'a']");
            Assert.Equal("{\"d\":\"D\",\"b\":\"B\",\"c\":\"changed\",\"a\":\"A\"}", SerializeWith(serializerKind, engine, lazy, list));
        }
    }

    // A prototype in a hidden class whose toJSON is a lazy slot: the walk finds the key in the class's layout without
    // running the factory, and the lookup that follows runs it, as Jint's serializer does.
    [Fact]
    public void ALazyToJsonOnAPrototypeIsFoundAndCalled()
    {
        using var engine = new Engine();
        int calls = 0;
        JsObjectLayout layout = JsObjectLayout.CreateBuilder()
            .AddLazy("toJSON", (o, _) =>
            {
                calls++;
                return o.Engine.Evaluate("(function () { return 'from lazy ' + this.k; })");
            })
            .Build();
        JsObject prototype = JsObject.Create(engine, layout, [null]);
        engine.SetValue("proto", prototype);
        JsValue value = engine.Evaluate("var o = Object.create(proto); o.k = 1; [o, {k: 2}]");
        Assert.Equal("[\"from lazy 1\",{\"k\":2}]", new JsonSerializer(engine).SerializeToString(value));
        Assert.Equal("[\"from lazy 1\",{\"k\":2}]", new Jint.Native.Json.JsonSerializer(engine).Serialize(value, JsValue.Undefined, JsValue.Undefined).ToString());
        Assert.Equal(1, calls);
    }

    [Fact]
    public void CorpusIsIdenticalOnBothReaders()
    {
        using var engine = new Engine();
        var fast = new JsonSerializer(engine);
        var slow = new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = false });
        foreach (string file in new[] { "canada.json", "citm_catalog.json", "twitter.json" })
        {
            JsValue document = Corpus.Parse(engine, file);
            Assert.Equal(slow.SerializeToString(document), fast.SerializeToString(document));
            Assert.Equal(slow.SerializeToString(document, null, 2), fast.SerializeToString(document, null, 2));
        }
    }
}
