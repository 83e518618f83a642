using System.Buffers;
using Jint;
using Jint.Native;
using Jint.Runtime;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>The C# surface: results, arguments, installation in scripts, and errors as JavaScript errors.</summary>
public class ApiTests
{
    [Fact]
    public void SerializeReturnsAJsString()
    {
        using var engine = new Engine();
        JsValue result = new JsonSerializer(engine).Serialize(engine.Evaluate("({a: [1, 'x']})"));
        Assert.IsType<JsString>(result);
        Assert.Equal("{\"a\":[1,\"x\"]}", result.ToString());
    }

    [Fact]
    public void SerializeReturnsUndefinedWhenThereIsNoJsonForm()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        Assert.Same(JsValue.Undefined, serializer.Serialize(JsValue.Undefined));
        Assert.Same(JsValue.Undefined, serializer.Serialize(engine.Evaluate("(function () {})")));
        Assert.Same(JsValue.Undefined, serializer.Serialize(engine.Evaluate("Symbol()")));
        Assert.Null(serializer.SerializeToString(JsValue.Undefined));
    }

    [Fact]
    public void NullAndUndefinedMeanNoReplacerAndNoSpace()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({b: [1]})");
        Assert.Equal("{\"b\":[1]}", serializer.Serialize(value, JsValue.Null, JsValue.Null).ToString());
        Assert.Equal("{\"b\":[1]}", serializer.Serialize(value, JsValue.Undefined, JsValue.Undefined).ToString());
        Assert.Equal("{\"b\":[1]}", serializer.SerializeToString(value, null, null));
    }

    [Fact]
    public void ReplacerAndSpaceWorkFromCSharp()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: 1, b: 2, c: 3})");
        JsValue list = engine.Evaluate("['c', 'a']");
        JsValue replacer = engine.Evaluate("(k, v) => typeof v === 'number' ? v + 1 : v");
        Assert.Equal("{\n  \"c\": 3,\n  \"a\": 1\n}", serializer.SerializeToString(value, list, 2));
        Assert.Equal("{\"a\":2,\"b\":3,\"c\":4}", serializer.SerializeToString(value, replacer));
        Assert.Equal("{\n\t\"a\": 1,\n\t\"b\": 2,\n\t\"c\": 3\n}", serializer.SerializeToString(value, space: "\t"));
    }

    [Fact]
    public void OneSerializerServesManyCalls()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        for (int i = 0; i < 100; i++)
        {
            Assert.Equal($"[{i},\"{i}\"]", serializer.SerializeToString(engine.Evaluate($"[{i}, '{i}']")));
        }
    }

    [Fact]
    public void ArgumentsAreChecked()
    {
        Assert.Throws<ArgumentNullException>(() => new JsonSerializer(null!));
        using var engine = new Engine();
        Assert.Throws<ArgumentNullException>(() => new JsonSerializer(engine).Serialize(null!));
        Assert.Throws<ArgumentNullException>(() => ((Engine)null!).UseJsonStringify());
        Assert.Throws<ArgumentNullException>(() => ((Options)null!).UseJsonStringify());
    }

    [Fact]
    public void InstalledStringifyLooksBuiltIn()
    {
        using Engine engine = new Engine().UseJsonStringify();
        string description = Js.Run(engine, """
            var d = Object.getOwnPropertyDescriptor(JSON, 'stringify');
            var n = Object.getOwnPropertyDescriptor(JSON.stringify, 'name');
            var l = Object.getOwnPropertyDescriptor(JSON.stringify, 'length');
            [typeof d.value, d.writable, d.enumerable, d.configurable,
             n.value, n.writable, n.enumerable, n.configurable,
             l.value, l.writable, l.enumerable, l.configurable,
             'prototype' in JSON.stringify, Object.keys(JSON).length,
             Object.getPrototypeOf(JSON.stringify) === Function.prototype].join()
            """);
        Assert.Equal("function,true,false,true,stringify,false,false,true,3,false,false,true,false,0,true", description);
        Assert.StartsWith("TypeError", Js.Run(engine, "new JSON.stringify({})"), StringComparison.Ordinal);
    }

    [Fact]
    public void UseJsonStringifyReplacesTheBuiltIn()
    {
        using Engine builtin = new();
        using Engine ours = new Engine().UseJsonStringify();
        const string Probe = "JSON.stringify(2 ** 55)";
        Assert.Equal("36028797018963968", Js.Run(builtin, Probe));
        Assert.Equal("36028797018963970", Js.Run(ours, Probe));
    }

    [Fact]
    public void OptionsFormInstallsInEveryEngine()
    {
        var options = new Options().UseJsonStringify();
        for (int i = 0; i < 3; i++)
        {
            using var engine = new Engine(options);
            Assert.Equal("36028797018963970", Js.Run(engine, "JSON.stringify(2 ** 55)"));
        }
    }

    [Fact]
    public void ErrorsAreJavaScriptErrorsThatScriptsCatch()
    {
        using Engine engine = Js.Ours();
        Assert.Equal("true|Converting circular structure to JSON\n    --> starting at object with constructor 'Object'\n    --- property 'self' closes the circle", Js.Run(engine, """
            var o = {}; o.self = o;
            try { JSON.stringify(o); } catch (e) { (e instanceof TypeError) + '|' + e.message }
            """));
        Assert.Equal("true", Js.Run(engine, "try { JSON.stringify(1n); } catch (e) { e instanceof TypeError }"));
        using Engine limited = new Engine().UseJsonStringify(new JsonSerializerOptions { MaxDepth = 1000 });
        Assert.Equal("true|Maximum call stack size exceeded", Js.Run(limited, """
            var a = []; for (var i = 0; i < 1000; i++) { a = [a]; }
            try { JSON.stringify(a); } catch (e) { (e instanceof RangeError) + '|' + e.message }
            """));
    }

    // A replacer or toJSON that answers every value with a new container makes the value deeper without end: the walk
    // stops at MaxDepth with the RangeError, after one call per level. (V8 14.6 throws the same RangeError when its
    // stack runs out; Jint 4.18.0's serializer recurses until the thread's stack overflows and the process dies.)
    [Theory]
    [InlineData("JSON.stringify({a: 1}, function (k, v) { calls++; return Array.of(k, v); })")]
    [InlineData("JSON.stringify({a: 1}, function (k, v) { calls++; return {k: k}; })")]
    [InlineData("function Deeper() {} Deeper.prototype.toJSON = function () { calls++; return [new Deeper()]; }; JSON.stringify(new Deeper())")]
    public void AValueThatGrowsAsItIsReadEndsAtMaxDepth(string stringify)
    {
        using Engine engine = new Engine().UseJsonStringify(new JsonSerializerOptions { MaxDepth = 1000 });
        Assert.Equal("true|Maximum call stack size exceeded|1001", Js.Run(engine, "var calls = 0; try { " + stringify + "; 'no error' } catch (e) { (e instanceof RangeError) + '|' + e.message + '|' + calls }"));
    }

    [Fact]
    public void ErrorsReachCSharpAsJavaScriptExceptions()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        var cycle = Assert.Throws<JavaScriptException>(() => serializer.Serialize(engine.Evaluate("var o = []; o.push(o); o")));
        Assert.Equal("TypeError: Converting circular structure to JSON\n    --> starting at object with constructor 'Array'\n    --- index 0 closes the circle", Js.ErrorText(cycle));
        var bigInt = Assert.Throws<JavaScriptException>(() => serializer.Serialize(engine.Evaluate("({a: [10n]})")));
        Assert.Equal("TypeError: Do not know how to serialize a BigInt", Js.ErrorText(bigInt));
    }

    [Fact]
    public void RangeErrorIsTheEnginesEvenWhenAScriptReplacedTheGlobal()
    {
        using Engine engine = new Engine().UseJsonStringify(new JsonSerializerOptions { MaxDepth = 100 });
        Assert.Equal("true|Maximum call stack size exceeded", Js.Run(engine, """
            var original = RangeError; RangeError = function Fake() {};
            var a = []; for (var i = 0; i < 200; i++) { a = [a]; }
            try { JSON.stringify(a); } catch (e) { (e instanceof original) + '|' + e.message }
            """));
    }

    [Fact]
    public void OutputLongerThanTheLimitIsARangeError()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = 1000 });
        Assert.Equal(new string('1', 1000), serializer.SerializeToString(new JsString(new string('1', 998)))!.Replace("\"", "1", StringComparison.Ordinal));

        foreach (string script in new[] { "'x'.repeat(999)", "'\\n'.repeat(10000)", "new Array(600).fill(0)", "({a: 'x'.repeat(500), b: 'y'.repeat(500)})" })
        {
            var e = Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate(script)));
            Assert.Equal("RangeError: Invalid string length", Js.ErrorText(e));
        }
    }

    [Fact]
    public void DeepNestingNeedsNoThreadStack()
    {
        string? outcome = null;
        var thread = new Thread(
            () =>
            {
                using var engine = new Engine();
                JsValue deep = engine.Evaluate("var o = {}; for (var i = 0; i < 100000; i++) { o = {o: o}; } o");
                outcome = new JsonSerializer(engine).SerializeToString(deep);
            },
            maxStackSize: 256 * 1024);
        thread.Start();
        thread.Join();
        Assert.Equal(string.Concat(Enumerable.Repeat("{\"o\":", 100000)) + "{}" + new string('}', 100000), outcome);
    }

    [Fact]
    public void MaxDepthIsACatchableRangeError()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxDepth = 3 });
        Assert.Equal("[[[1]]]", serializer.SerializeToString(engine.Evaluate("[[[1]]]")));
        var e = Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[[1]]]]")));
        Assert.Equal("RangeError: Maximum call stack size exceeded", Js.ErrorText(e));

        // An empty array is written without being opened, and counts all the same, inside an array or an object.
        Assert.Equal("[[[]]]", serializer.SerializeToString(engine.Evaluate("[[[]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[[]]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("({a: {b: {c: []}}})")));

        // So is an empty object, from a literal, from JSON.parse, or of a class without fields.
        Assert.Equal("[[{}]]", serializer.SerializeToString(engine.Evaluate("[[{}]]")));
        Assert.Equal("{\"a\":{\"b\":{}}}", serializer.SerializeToString(engine.Evaluate("JSON.parse('{\"a\":{\"b\":{}}}')")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[{}]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("JSON.parse('{\"a\":{\"b\":{\"c\":{}}}}')")));

        // And so does an object of a hidden class whose values are all primitives, as an element or a property, first
        // of its class or after one of its class that held a container.
        Assert.Equal("[[{\"x\":1,\"y\":\"y\"}]]", serializer.SerializeToString(engine.Evaluate("[[{x: 1, y: 'y'}]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[{x: 1, y: 'y'}]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("({a: {b: {c: {x: 1}}}})")));
        var four = new JsonSerializer(engine, new JsonSerializerOptions { MaxDepth = 4 });
        Assert.Equal("[[{\"x\":[1]}],[[{\"x\":2}]]]", four.SerializeToString(engine.Evaluate("[[{x: [1]}], [[{x: 2}]]]")));
        Assert.Throws<JavaScriptException>(() => four.SerializeToString(engine.Evaluate("[[{x: [1]}], [[[{x: 2}]]]]")));

        // And values opened in place by an object written whole: the limit counts the object they are opened in.
        Assert.Equal("{\"p\":1,\"a\":{\"q\":2,\"b\":{\"x\":1}},\"r\":3}", serializer.SerializeToString(engine.Evaluate("({p: 1, a: {q: 2, b: {x: 1}}, r: 3})")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("({p: 1, a: {q: 2, b: {x: {}}}, r: 3})")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[{p: 1, a: {q: 2, b: [1]}}]")));

        // And an array whose elements are all primitives, as an element or a property, or whose first elements are.
        Assert.Equal("{\"a\":{\"b\":[1,2]}}", serializer.SerializeToString(engine.Evaluate("({a: {b: [1, 2]}})")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("({a: {b: {c: [1]}}})")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[1, []]]]")));
        Assert.Equal("[[[1,\"2\"]],[[3]]]", serializer.SerializeToString(engine.Evaluate("[[[1, '2']], [[3]]]")));

        // And a property-table object (built by assignment, or with a key deleted), empty or not, as an element.
        engine.Execute("function table(n) { var o = {}; for (var i = 0; i < n; i++) o['k' + i] = i; return o; }");
        engine.Execute("function emptied() { var o = {a: 1}; delete o.a; return o; }");
        Assert.Equal("[[{\"k0\":0,\"k1\":1}]]", serializer.SerializeToString(engine.Evaluate("[[table(2)]]")));
        Assert.Equal("[[{}]]", serializer.SerializeToString(engine.Evaluate("[[emptied()]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[table(2)]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[table(70)]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("[[[emptied()]]]")));
        Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("class E {} [[[new E()]]]")));
        Assert.Equal(2_000_000, JsonSerializerOptions.Default.MaxDepth);
        using Engine script = new Engine().UseJsonStringify(new JsonSerializerOptions { MaxDepth = 5000 });
        Assert.Equal("RangeError: Maximum call stack size exceeded", Js.Run(script, "var o = {}; o.toJSON = () => [o]; JSON.stringify(o)"));
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonSerializerOptions { MaxDepth = 0 });
        Assert.Throws<ArgumentOutOfRangeException>(() => new JsonSerializerOptions { MaxLength = 0 });
    }

    [Fact]
    public void NestedStringifyFromToJsonGetsItsOwnBuffers()
    {
        var pool = new CountingCharPool();
        using Engine engine = new Engine().UseJsonStringify(new JsonSerializerOptions { CharPool = pool });
        // Each level writes past the writer's 4K-char buffer before the next level starts, so each needs a chunk (the
        // pad ends in a line break to escape, so that it is copied in slices rather than kept whole).
        string result = Js.Run(engine, """
            var pad = 'p'.repeat(4999) + '\n';
            JSON.stringify({
              pad: pad,
              a: {toJSON() { return JSON.stringify({pad: pad, inner: [1, {toJSON() { return JSON.stringify([pad, 'deep']).length; }}]}).length; }},
              b: [2]
            })
            """);
        Assert.Equal("{\"pad\":\"" + new string('p', 4999) + "\\n\",\"a\":5028,\"b\":[2]}", result);
        Assert.Equal(3, pool.MaxOutstanding);
        Assert.Equal(3, pool.Rented);
        Assert.Equal(pool.Rented, pool.Returned);
    }

    [Fact]
    public void ChunksGoBackToThePoolOnEveryPath()
    {
        var pool = new CountingCharPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });
        // Outputs longer than the writer's 4K-char buffer need a chunk; shorter ones become the string directly. (The
        // long strings end in a line break to escape, so that they are copied in slices rather than kept whole.)
        JsValue throwing = engine.Evaluate("({a: 'x'.repeat(4999) + '\\n', b: {toJSON() { throw new Error('boom'); }}})");
        JsValue cyclic = engine.Evaluate("var c = {pad: 'x'.repeat(4999) + '\\n', x: [1]}; c.x.push(c); c");
        JsValue large = engine.Evaluate("['x'.repeat(4999) + '\\n']");
        for (int i = 0; i < 100; i++)
        {
            Assert.Throws<JavaScriptException>(() => serializer.Serialize(throwing));
            Assert.Throws<JavaScriptException>(() => serializer.Serialize(cyclic));
            Assert.Equal(5005, serializer.SerializeToString(large)!.Length);
            Assert.Equal("[1]", serializer.SerializeToString(engine.Evaluate("[1]")));
            Assert.Null(serializer.SerializeToString(JsValue.Undefined));
        }

        Assert.Equal(300, pool.Rented);
        Assert.Equal(300, pool.Returned);
        Assert.Equal(1, pool.MaxOutstanding);
    }

    [Fact]
    public void ACharPoolThatHandsOutShortArraysIsAClearError()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = new ShortArrayPool() });
        JsValue large = engine.Evaluate("['x'.repeat(4999) + '\\n']");

        var error = Assert.Throws<InvalidOperationException>(() => serializer.SerializeToString(large));
        Assert.Contains("CharPool returned an array of 16 chars when asked for at least 8192", error.Message);
        Assert.Equal("[1]", serializer.SerializeToString(engine.Evaluate("[1]")));
        Assert.Throws<ArgumentNullException>(() => new JsonSerializerOptions { CharPool = null! });
    }

    [Fact]
    public void ChunksGrowWithTheTextUpTo1MCharsAndAreCopiedOnce()
    {
        Assert.Same(ResultChunkPool.Instance, JsonSerializerOptions.Default.CharPool);
        var pool = new CountingCharPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });

        // 5M chars in 2,000 strings, each ending in a line break to escape: each chunk is about as long as the text
        // before it, up to 1M chars, so a few chunks hold it all; and reused chunks that still hold the last call's
        // text leave none of it in the result.
        JsValue value = engine.Evaluate("Array.from({length: 2000}, (_, i) => String(i % 10).repeat(2499) + '\\n')");
        string expected = "[" + string.Join(",", Enumerable.Range(0, 2000).Select(i => "\"" + new string((char)('0' + (i % 10)), 2499) + "\\n\"")) + "]";
        Assert.Equal(expected, serializer.SerializeToString(value));
        Assert.Equal(1024 * 1024, pool.LongestRequest);
        Assert.InRange(pool.Rented, 8, 15);
        for (int i = 0; i < 2; i++)
        {
            Assert.Equal(expected, serializer.SerializeToString(value));
        }

        Assert.Equal(pool.Rented, pool.Returned);
        Assert.InRange(pool.MaxOutstandingChars, expected.Length, expected.Length + (1024 * 1024));

        // Long text with nothing to escape (raw JSON, or the same strings without the line break) is not copied into
        // chunks: the result keeps the strings themselves and the writer goes on in its buffer between them, so the
        // raw text rents nothing, and the 2,000 strings one chunk, for the quotes and commas past the writer's buffer.
        string digits = new('1', 10_000);
        int rented = pool.Rented;
        Assert.Equal("[" + digits + "]", serializer.SerializeToString(engine.Evaluate($"[JSON.rawJSON('{digits}')]")));
        Assert.Equal(rented, pool.Rented);
        JsValue clean = engine.Evaluate("Array.from({length: 2000}, (_, i) => String(i % 10).repeat(2500))");
        string cleanExpected = "[" + string.Join(",", Enumerable.Range(0, 2000).Select(i => "\"" + new string((char)('0' + (i % 10)), 2500) + "\"")) + "]";
        Assert.Equal(cleanExpected, serializer.SerializeToString(clean));
        Assert.Equal(rented + 1, pool.Rented);
        Assert.Equal(pool.Rented, pool.Returned);
    }

    // Indentation lines longer than half the writer's 4K-char buffer: a gap of 10 past depth 204, a tab past depth
    // 2,048, a gap of ten chars past depth 409 (lines longer than the whole buffer). They go through the buffer as any
    // text does, so a string result's chunks grow with the text, not two more with each line (one as long as the text
    // before it, up to 1M chars, and one for the line: gigabytes for a few million chars of text); and every output
    // writes Jint's text.
    [Theory]
    [InlineData("10", 210)]
    [InlineData("'\\t'", 2_100)]
    [InlineData("'0123456789'", 420)]
    public void LongIndentationLinesGoThroughTheBufferAsAnyText(string gap, int depth)
    {
        var pool = new CountingCharPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });
        engine.Execute($$"""
            var v = Array.from({length: 200}, (_, i) => i % 3 === 0 ? {k: [i, {}], n: null} : i);
            for (var d = 0; d < {{depth}}; d++) v = d % 2 ? [v] : {w: v};
            """);
        JsValue value = engine.Evaluate("v");
        JsValue space = engine.Evaluate(gap);
        string expected = new Jint.Native.Json.JsonSerializer(engine).Serialize(value, JsValue.Undefined, space).ToString();
        Assert.True(expected.Split('\n').Count(line => line.Length > 2_048) > 500, "over 500 long lines");

        Assert.Equal(expected, serializer.SerializeToString(value, null, space));
        Assert.Equal(pool.Rented, pool.Returned);
        Assert.InRange(pool.MaxOutstandingChars, expected.Length, expected.Length + StringSink.MaxChunkLength);

        var utf8 = new ArrayBufferWriter<byte>();
        Assert.True(serializer.Serialize(value, JsValue.Undefined, space, utf8));
        Assert.Equal(expected, System.Text.Encoding.UTF8.GetString(utf8.WrittenSpan));
        using var stream = new MemoryStream();
        Assert.True(serializer.Serialize(value, JsValue.Undefined, space, stream));
        Assert.Equal(expected, System.Text.Encoding.UTF8.GetString(stream.ToArray()));
        using var text = new StringWriter();
        Assert.True(serializer.Serialize(value, JsValue.Undefined, space, text));
        Assert.Equal(expected, text.ToString());
    }

    // Breaks ArrayPool's contract: every array is 16 chars, whatever was asked for.
    private sealed class ShortArrayPool : ArrayPool<char>
    {
        public override char[] Rent(int minimumLength) => new char[16];

        public override void Return(char[] array, bool clearArray = false)
        {
        }
    }

    // docs/usage.md: Jint's own JSON.stringify, read before ours is installed, stays callable beside it.
    [Fact]
    public void JintsOwnStringifyCanBeKeptBesideOurs()
    {
        using var engine = new Engine();
        engine.Execute("JSON.builtinStringify = JSON.stringify");
        engine.UseJsonStringify();

        // 2**55: Jint's serializer writes every digit, ours the shortest round-trip ones.
        Assert.Equal("36028797018963968|36028797018963970", engine.Evaluate("JSON.builtinStringify(2 ** 55) + '|' + JSON.stringify(2 ** 55)").ToString());
    }
}
