using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Tests;

/// <summary>
/// Jint's host extensions, done as Jint's serializer does them, and exceptions that must pass unchanged.
/// </summary>
public class HostObjectTests
{
    public static TheoryData<string> HostValues => new()
    {
        "list",
        "array",
        "dictionary",
        "readOnlyDictionary",
        "poco",
        "hashSet",
        "nested",
        "queue",
        "enumerable",
    };

    [Theory]
    [MemberData(nameof(HostValues))]
    public void ClrValuesSerializeAsJintSerializesThem(string name)
    {
        static void Configure(Engine engine)
        {
            engine.SetValue("list", new List<int> { 1, 2, 3 });
            engine.SetValue("array", new[] { "a", "b" });
            engine.SetValue("dictionary", new Dictionary<string, object> { ["x"] = 1, ["y"] = "two" });
            engine.SetValue("readOnlyDictionary", (IReadOnlyDictionary<string, int>)new Dictionary<string, int> { ["k"] = 5 });
            engine.SetValue("poco", new Poco { Name = "n", Count = 4, Tags = ["t"] });
            engine.SetValue("hashSet", new HashSet<int> { 5 });
            engine.SetValue("nested", new List<object> { new Poco { Name = "inner" }, new List<int> { 7 } });
            engine.SetValue("queue", new Queue<int>([1, 2]));
            engine.SetValue("enumerable", Enumerable.Range(0, 3).Select(i => i * 2));
        }

        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        Configure(ours);
        Configure(builtin);
        foreach (string space in new[] { "undefined", "2" })
        {
            string script = $"JSON.stringify({{v: {name}, w: [{name}]}}, null, {space})";
            Assert.Equal(Js.Run(builtin, script), Js.Run(ours, script));
        }
    }

    // A CLR value is an array or an object by the type of the member, indexer or argument it came through (the type
    // Jint's wrapper exposes), not by its runtime type; its keys and length follow that type too.
    public static TheoryData<string, string> ExposedTypeRows => new()
    {
        // a List<int> behind IEnumerable<int>: an object with the list's indices
        { "items", "{\"Items\":{\"0\":1,\"1\":2}}" },
        // a Dictionary behind ICollection<KeyValuePair<..>>: an array of Count elements, none of which Jint can read
        { "map", "{\"Map\":[null]}" },
        { "expando", "{\"Map\":[null]}" },
        // the dictionary holds itself, but no element is read
        { "selfMap", "{\"Map\":[null,null]}" },
        // a getter of the runtime type (IsReadOnly throws) that the exposed collection type never reads
        { "pairs", "{\"Map\":[null]}" },
        // the same values behind members declared as what they are
        { "plainItems", "{\"Items\":[1,2]}" },
        { "plainMap", "{\"Map\":{\"a\":1}}" },
        // a lookup's elements come through its indexer, declared as IEnumerable<int>
        { "lookup", "[{},{}]" },
        { "grouping", "[1,3]" },
        { "readOnly", "{\"Items\":[1,2]}" },
        { "list", "{\"Items\":[1,2]}" },
        { "dictionary", "{\"Map\":{\"a\":1}}" },
    };

    [Theory]
    [MemberData(nameof(ExposedTypeRows))]
    public void HostValuesAreArraysOrObjectsByTheTypeTheirWrapperExposes(string name, string expected)
    {
        static void Configure(Engine engine)
        {
            engine.SetValue("items", new ItemsHolder<IEnumerable<int>>(new List<int> { 1, 2 }));
            engine.SetValue("map", new MapHolder<ICollection<KeyValuePair<string, object>>>(new Dictionary<string, object> { ["a"] = 1 }));
            var expando = new System.Dynamic.ExpandoObject();
            ((IDictionary<string, object?>)expando)["a"] = 1;
            engine.SetValue("expando", new MapHolder<ICollection<KeyValuePair<string, object?>>>(expando));
            var selfMap = new Dictionary<string, object> { ["a"] = 1 };
            selfMap["self"] = selfMap;
            engine.SetValue("selfMap", new MapHolder<ICollection<KeyValuePair<string, object>>>(selfMap));
            engine.SetValue("pairs", new MapHolder<ICollection<KeyValuePair<string, object>>>(new PairsDictionary { ["a"] = 1 }));
            engine.SetValue("plainItems", new ItemsHolder<List<int>>([1, 2]));
            engine.SetValue("plainMap", new MapHolder<Dictionary<string, object>>(new Dictionary<string, object> { ["a"] = 1 }));
            engine.SetValue("lookup", new[] { 1, 2, 3 }.ToLookup(x => x % 2));
            engine.SetValue("grouping", new[] { 1, 2, 3 }.GroupBy(x => x % 2).First());
            engine.SetValue("readOnly", new ItemsHolder<IReadOnlyCollection<int>>(new List<int> { 1, 2 }));
            engine.SetValue("list", new ItemsHolder<System.Collections.IList>(new List<int> { 1, 2 }));
            engine.SetValue("dictionary", new MapHolder<System.Collections.IDictionary>(new Dictionary<string, object> { ["a"] = 1 }));
        }

        foreach (bool hostSerializer in (bool[])[false, true])
        {
            void Options(Options o)
            {
                if (hostSerializer)
                {
                    o.Interop.SerializeToJson = (target, _, _) => "\"host:" + target?.GetType().Name + "\"";
                }
            }

            using Engine ours = Js.Ours(Options);
            using Engine builtin = Js.Builtin(Options);
            Configure(ours);
            Configure(builtin);
            foreach (string space in (string[])["undefined", "2"])
            {
                string script = $"JSON.stringify({name}, null, {space})";
                Assert.Equal(Js.Run(builtin, script), Js.Run(ours, script));
            }

            if (!hostSerializer)
            {
                Assert.Equal(expected, Js.Run(ours, $"JSON.stringify({name})"));
            }
        }
    }

    // SerializeToJson writes what Jint exposes as an object: a List behind IEnumerable<T> is one, a dictionary behind
    // ICollection<KeyValuePair<..>> is not.
    [Fact]
    public void SerializeToJsonIsCalledForWhatTheWrapperExposesAsAnObject()
    {
        var targets = new List<string>();
        using Engine engine = Js.Ours(o => o.Interop.SerializeToJson = (target, _, _) =>
        {
            targets.Add(target?.GetType().Name ?? "null");
            return "\"host\"";
        });
        engine.SetValue("items", new ItemsHolder<IEnumerable<int>>(new List<int> { 1, 2 }));
        engine.SetValue("map", new MapHolder<ICollection<KeyValuePair<string, object>>>(new Dictionary<string, object> { ["a"] = 1 }));
        Assert.Equal("[\"host\",\"host\"]", Js.Run(engine, "JSON.stringify([items, map])"));
        Assert.Equal(["ItemsHolder`1", "MapHolder`1"], targets);
        targets.Clear();
        Assert.Equal("[\"host\",[null]]", Js.Run(engine, "JSON.stringify([items.Items, map.Map])"));
        Assert.Equal(["List`1"], targets);
    }

    // A proxy over a wrapped CLR collection is an array, as Jint has it (Jint looks through the proxy to its target, as
    // IsArray does): its length and elements are read through the proxy's get trap, and no other trap runs.
    public static TheoryData<string, string> ProxyRows => new()
    {
        { "new Proxy(list, {})", "[1,2]" },
        { "new Proxy(new Proxy(list, {}), {})", "[1,2]" },
        { "new Proxy(set, {ownKeys: function (t) { return Reflect.ownKeys(t); }})", "[null,null]" },
        { "new Proxy(items, {})", "{\"Items\":{\"0\":1,\"1\":2}}" },
        { "new Proxy(items.Items, {})", "{\"0\":1,\"1\":2}" },
        { "new Proxy(map, {})", "{\"a\":1}" },
        { "{p: new Proxy(list, {get: function (t, k, r) { log.push(String(k)); return Reflect.get(t, k, r); }}), log: log}", "{\"p\":[1,2],\"log\":[\"toJSON\",\"length\",\"0\",\"1\"]}" },
    };

    [Theory]
    [MemberData(nameof(ProxyRows))]
    public void AProxyOverAWrappedCollectionIsAnArray(string expression, string expected)
    {
        static void Configure(Engine engine)
        {
            engine.SetValue("list", new List<int> { 1, 2 });
            engine.SetValue("set", new HashSet<object> { new(), new() });
            engine.SetValue("items", new ItemsHolder<IEnumerable<int>>(new List<int> { 1, 2 }));
            engine.SetValue("map", new Dictionary<string, object> { ["a"] = 1 });
        }

        Assert.True(Internals.FastPath.Holds(Internals.JintAssumption.ProxyTarget));
        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        Configure(ours);
        Configure(builtin);
        string script = $"log = []; JSON.stringify({expression})";
        Assert.Equal(expected, Js.Run(ours, script));
        Assert.Equal(Js.Run(builtin, script), Js.Run(ours, script));
    }

    // IsArray comes first, and throws for a revoked proxy before its target is looked at.
    [Fact]
    public void ARevokedProxyOverAWrappedCollectionIsATypeError()
    {
        using Engine engine = Js.Ours();
        engine.SetValue("list", new List<int> { 1, 2 });
        Assert.Equal("TypeError", Js.Run(engine, "var r = Proxy.revocable(list, {}); r.revoke(); try { JSON.stringify(r.proxy); } catch (e) { e.name }"));
        Assert.Equal("TypeError", Js.Run(engine, "try { JSON.stringify(new Proxy(r.proxy, {})); } catch (e) { e.name }"));
    }

    // A toJSON that is a proxy over an object that is not callable is not called (IsCallable is false), as ECMA-262
    // says; Jint calls it and throws "Proxy target is not a function" (a documented difference).
    [Theory]
    [InlineData("({toJSON: new Proxy({}, {}), x: 1})", "{\"toJSON\":{},\"x\":1}")]
    [InlineData("[tojsonMap]", "[{\"toJSON\":{},\"x\":1}]")]
    [InlineData("({toJSON: new Proxy(function () { return 'called'; }, {}), x: 1})", "\"called\"")]
    public void AToJsonProxyIsCalledOnlyWhenItsTargetIsCallable(string value, string expected)
    {
        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        foreach (Engine engine in (Engine[])[ours, builtin])
        {
            engine.SetValue("tojsonMap", new Dictionary<string, object> { ["toJSON"] = engine.Evaluate("new Proxy({}, {})"), ["x"] = 1 });
        }

        string script = $"JSON.stringify({value})";
        Assert.Equal(expected, Js.Run(ours, script));
        if (expected.Contains("toJSON", StringComparison.Ordinal))
        {
            Assert.Equal("TypeError: Proxy target is not a function", Js.Run(builtin, script));
        }
        else
        {
            Assert.Equal(Js.Run(builtin, script), Js.Run(ours, script));
        }
    }

    // Enumerability is asked as Jint's serializer asks it, through the object's ProbeOwnProperty, on both readers (a
    // host convention): the same keys as GetOwnProperty gives, as the probe must agree with it.
    [Fact]
    public void EnumerabilityIsAskedThroughTheHostsProbeOnBothReaders()
    {
        Assert.True(Internals.FastPath.Holds(Internals.JintAssumption.OwnPropertyProbe));
        using Engine builtin = Js.Builtin();
        builtin.SetValue("probed", new Probed(builtin));
        const string Script = "({p: probed, q: new Proxy(probed, {})})";
        string expected = new Jint.Native.Json.JsonSerializer(builtin).Serialize(builtin.Evaluate(Script)).ToString();
        Assert.Equal("{\"p\":{\"a\":1,\"b\":2},\"q\":{\"a\":1,\"b\":2}}", expected);

        using var engine = new Engine();
        var probed = new Probed(engine);
        engine.SetValue("probed", probed);
        JsValue value = engine.Evaluate(Script);
        var counts = new List<(int Probes, int Lookups)>();
        foreach (bool fastPath in (bool[])[true, false])
        {
            (probed.Probes, probed.Lookups) = (0, 0);
            Assert.Equal(expected, new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = fastPath }).SerializeToString(value));
            counts.Add((probed.Probes, probed.Lookups));
        }

        // The three own keys of the object are probed on both readers, and nothing else differs. A proxy's
        // [[GetOwnProperty]] (here its target's) is a lookup on both.
        Assert.Equal(3, counts[0].Probes);
        Assert.Equal(counts[0], counts[1]);
    }

    // Under Interop.EnumerableConversion's Snapshot, a CLR sequence becomes an array each time it is read: a value in a
    // wrapped dictionary is read once, by [[Get]], as Jint's serializer reads it, on both readers, so a sequence that
    // can be enumerated only once is written whole.
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ASequenceInADictionaryIsEnumeratedOnceUnderSnapshotConversion(bool fastPath)
    {
        var options = new Options();
        options.Interop.EnumerableConversion = EnumerableConversionMode.Snapshot;
        using var engine = new Engine(options.UseJsonStringify(new JsonSerializerOptions { EnableFastPath = fastPath }));
        var once = new EnumerableOnce();
        engine.SetValue("map", new Dictionary<string, object?> { ["a"] = once, ["b"] = 1 });
        Assert.Equal("{\"a\":[1,2],\"b\":1}", Js.Run(engine, "JSON.stringify(map)"));
        Assert.Equal(1, once.Enumerations);
    }

    [Fact]
    public void CollectionsAreArraysAndDictionariesAreObjects()
    {
        using Engine engine = Js.Ours();
        engine.SetValue("list", new List<int> { 1, 2 });
        engine.SetValue("map", new Dictionary<string, int> { ["a"] = 1 });
        Assert.Equal("[[1,2],{\"a\":1}]", Js.Run(engine, "JSON.stringify([list, map])"));
    }

    // A CLR list that shrinks while it is walked (its length was read once, before its elements): the elements past
    // its new end are null, as in Jint's serializer and as for a JS array. On Jint 4.16.0 and 4.16.1 the wrapper throws
    // ArgumentOutOfRangeException for such an index asked as a string.
    [Theory]
    [InlineData("list.Add(1); list.Add({toJSON() { list.RemoveAt(0); list.RemoveAt(0); return 'X'; }}); list.Add(3); JSON.stringify(list)", "[1,\"X\",null]")]
    [InlineData("list.Add(1); list.Add(2); list.Add(3); JSON.stringify(list, function (k, v) { if (k === '0') list.Clear(); return v; })", "[1,null,null]")]
    [InlineData("list.Add(1); list.Add(2); list.Add(3); JSON.stringify({a: list}, function (k, v) { if (k === '1') list.RemoveAt(2); return v; }, 1)", "{\n \"a\": [\n  1,\n  2,\n  null\n ]\n}")]
    [InlineData("typed.Add(1); typed.Add(2); JSON.stringify(typed, function (k, v) { if (k === '0') typed.Clear(); return v; })", "[1,null]")]
    [InlineData("typed.Add(1); typed.Add(2); typed.Add(3); JSON.stringify([typed, {toJSON() { typed.Add(4); return 0; }}, typed])", "[[1,2,3],0,[1,2,3,4]]")]
    public void AListThatShrinksDuringTheWalkHasNullPastItsNewEnd(string script, string expected)
    {
        static void Configure(Engine engine)
        {
            engine.SetValue("list", new List<object?>());
            engine.SetValue("typed", new List<int>());
        }

        using Engine builtin = Js.Builtin();
        Configure(builtin);
        Assert.Equal(expected, Js.Run(builtin, script));

        using Engine ours = Js.Ours();
        Configure(ours);
        Assert.Equal(expected, Js.Run(ours, script));
    }

    [Fact]
    public void ArrayLikeObjectsAreArrays()
    {
        using Engine engine = Js.Ours();
        engine.SetValue("arrayLike", new Squares(engine, 4));
        Assert.Equal("{\"s\":[0,1,4,9]}", Js.Run(engine, "JSON.stringify({s: arrayLike})"));
    }

    [Fact]
    public void SerializeToJsonWritesWrappedObjectsWithGapAndIndent()
    {
        var calls = new List<string>();
        void Configure(Options o) => o.Interop.SerializeToJson = (target, gap, indent) =>
        {
            calls.Add($"{target?.GetType().Name}|{gap}|{indent ?? "<null>"}");
            return "\"host:" + ((Poco)target!).Name + "\"";
        };

        using Engine ours = Js.Ours(Configure);
        using Engine builtin = Js.Builtin(Configure);
        foreach (Engine engine in new[] { builtin, ours })
        {
            engine.SetValue("poco", new Poco { Name = "p" });
            engine.SetValue("list", new List<Poco> { new() { Name = "q" } });
        }

        foreach (string script in new[] { "JSON.stringify({a: {b: poco}, l: list}, null, 2)", "JSON.stringify([poco])", "JSON.stringify(poco, null, '--')" })
        {
            string expected = Js.Run(builtin, script);
            var expectedCalls = calls.ToList();
            calls.Clear();
            Assert.Equal(expected, Js.Run(ours, script));
            Assert.Equal(expectedCalls, calls);
            calls.Clear();
        }
    }

    [Fact]
    public void SerializeToJsonIsHonouredWhenInstalledOnTheEngine()
    {
        using var engine = new Engine(o => o.Interop.SerializeToJson = (_, _, _) => "\"from host\"");
        engine.UseJsonStringify();
        engine.SetValue("poco", new Poco());
        Assert.True(Internals.FastPath.Holds(Internals.JintAssumption.EngineOptions));
        Assert.Equal("[\"from host\"]", Js.Run(engine, "JSON.stringify([poco])"));
        Assert.Equal("[\"from host\"]", new JsonSerializer(engine).SerializeToString(engine.Evaluate("[poco]")));
    }

    [Fact]
    public void WrappersOfTheSameClrObjectFormACycle()
    {
        using Engine engine = Js.Ours();
        var node = new Node();
        node.Self = node;
        engine.SetValue("node", node);
        Assert.Equal("TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'Self' closes the circle", Js.Run(engine, "JSON.stringify(node)"));
    }

    [Fact]
    public void ScriptExceptionsReachTheCallerUnchanged()
    {
        using Engine engine = Js.Ours();
        Assert.Equal("true,true,true,true", Js.Run(engine, """
            var thrown = {marker: 1};
            function same(f) { try { f(); return false; } catch (e) { return e === thrown; } }
            [same(() => JSON.stringify({a: {toJSON() { throw thrown; }}})),
             same(() => JSON.stringify({get a() { throw thrown; }})),
             same(() => JSON.stringify([1], () => { throw thrown; })),
             same(() => JSON.stringify(new Proxy({}, {ownKeys() { throw thrown; }})))].join()
            """));
    }

    [Fact]
    public void ClrExceptionsReachTheCSharpCallerUnchanged()
    {
        using var engine = new Engine();
        var thrower = new Thrower();
        engine.SetValue("thrower", thrower);
        var serializer = new JsonSerializer(engine);

        var fromGetter = Assert.Throws<InvalidOperationException>(() => serializer.Serialize(engine.Evaluate("({a: thrower})")));
        Assert.Same(thrower.Exception, fromGetter);

        engine.SetValue("fail", new Func<JsValue, JsValue>(_ => throw thrower.Exception));
        var fromToJson = Assert.Throws<InvalidOperationException>(() => serializer.Serialize(engine.Evaluate("({a: {toJSON: fail}})")));
        Assert.Same(thrower.Exception, fromToJson);

        JsValue script = engine.Evaluate("({a: {toJSON() { throw new RangeError('mine'); }}})");
        var fromScript = Assert.Throws<JavaScriptException>(() => serializer.Serialize(script));
        Assert.Equal("RangeError: mine", Js.ErrorText(fromScript));
    }

    public sealed class Poco
    {
        public string? Name { get; set; }

        public int Count { get; set; }

        public IList<string> Tags { get; set; } = [];
    }

    // A host object that answers the probe itself, without a descriptor, and counts both ways of asking.
    private sealed class Probed : ObjectInstance
    {
        public Probed(Engine engine)
            : base(engine)
        {
            FastSetProperty("a", new PropertyDescriptor(1, PropertyFlag.ConfigurableEnumerableWritable));
            FastSetProperty("hidden", new PropertyDescriptor(0, PropertyFlag.Configurable));
            FastSetProperty("b", new PropertyDescriptor(2, PropertyFlag.ConfigurableEnumerableWritable));
        }

        public int Probes { get; set; }

        public int Lookups { get; set; }

        public override PropertyDescriptor GetOwnProperty(JsValue property)
        {
            Lookups++;
            return base.GetOwnProperty(property);
        }

        protected override OwnPropertyProbe ProbeOwnProperty(JsValue property)
        {
            Probes++;
            return property.ToString() switch
            {
                "a" or "b" => OwnPropertyProbe.Enumerable,
                "hidden" => OwnPropertyProbe.NonEnumerable,
                _ => OwnPropertyProbe.Missing,
            };
        }
    }

    public sealed class ItemsHolder<T>(T items)
    {
        public T Items { get; } = items;
    }

    public sealed class MapHolder<T>(T map)
    {
        public T Map { get; } = map;
    }

    // A dictionary whose IsReadOnly throws, as many hand-written collections do.
    public sealed class PairsDictionary : Dictionary<string, object>, ICollection<KeyValuePair<string, object>>
    {
        bool ICollection<KeyValuePair<string, object>>.IsReadOnly => throw new NotImplementedException();
    }

    public sealed class Node
    {
        public Node? Self { get; set; }
    }

    public sealed class Thrower
    {
        public InvalidOperationException Exception { get; } = new("thrown by a host getter");

        public int Value => throw Exception;
    }

    private sealed class Squares(Engine engine, uint length) : ArrayLikeObject(engine)
    {
        public override uint Length => length;

        public override bool TryGetIndex(uint index, out JsValue value)
        {
            value = index < length ? JsNumber.Create(index * index) : JsValue.Undefined;
            return index < length;
        }
    }

    // A sequence whose first enumeration gives 1 and 2, and every later one nothing; counts its enumerations.
    private sealed class EnumerableOnce : IEnumerable<int>
    {
        public int Enumerations { get; private set; }

        public IEnumerator<int> GetEnumerator() => ++Enumerations == 1 ? new List<int> { 1, 2 }.GetEnumerator() : Enumerable.Empty<int>().GetEnumerator();

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
