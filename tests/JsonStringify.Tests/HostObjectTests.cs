using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>Jint's host extensions, done as Jint's serializer does them, and exceptions that must pass unchanged.</summary>
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

    [Fact]
    public void CollectionsAreArraysAndDictionariesAreObjects()
    {
        using Engine engine = Js.Ours();
        engine.SetValue("list", new List<int> { 1, 2 });
        engine.SetValue("map", new Dictionary<string, int> { ["a"] = 1 });
        Assert.Equal("[[1,2],{\"a\":1}]", Js.Run(engine, "JSON.stringify([list, map])"));
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
}
