using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Unicode;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using StjOptions = System.Text.Json.JsonSerializerOptions;

namespace JsonStringify.Tests;

/// <summary>
/// The System.Text.Json bridge: every conformance row and V8 golden case through ToJsonNode and a compact
/// Utf8JsonWriter gives the JSON value of our string output (compared as System.Text.Json writes it back:
/// <c>JsonNode.Parse(ours).ToJsonString()</c>), plus layout, numbers, unpaired surrogates, errors, the writer's state
/// after them, and ToJsonElement.
/// </summary>
public class SystemTextJsonTests
{
    public enum Bridge
    {
        Node,
        Writer,
    }

    // Deeper than any golden case (3,000 levels), as V8GoldenTests.SerializerOptions allows; System.Text.Json's own
    // defaults (64 to parse, 1,000 to write) would stop them first.
    private const int Depth = 10_001;

    private static readonly JsonDocumentOptions s_parseOptions = new() { MaxDepth = Depth };
    private static readonly StjOptions s_writeOptions = new(StjOptions.Default) { MaxDepth = Depth };

    public static TheoryData<string, Bridge> ConformanceRows =>
        TheoryRows.EachWithEvery<Bridge>(ConformanceTests.Cases.Select(row => (string)row[0]));

    public static TheoryData<string, Bridge> GoldenRows => TheoryRows.EachWithEvery<Bridge>(V8GoldenTests.Data.CaseNames);

    // Every JSON.stringify call in the row's script goes through the bridge, and returns System.Text.Json's text of
    // the result; the reference engine returns the same of our string output. Both see the same calls, so the
    // scripts' own results (lengths, logs of toJSON calls, errors) must agree too. Neither passes space on (see
    // EngineWith), so the rows about space check the rest of the call there.
    [Theory]
    [MemberData(nameof(ConformanceRows))]
    public void ConformanceRowsGiveTheJsonValueOfTheString(string script, Bridge bridge) =>
        Assert.Equal(Js.Run(EngineWith(bridge: null), script), Js.Run(EngineWith(bridge), script));

    [Theory]
    [MemberData(nameof(GoldenRows))]
    public void GoldenCasesGiveTheJsonValueOfTheString(string name, Bridge bridge)
    {
        GoldenCase golden = V8GoldenTests.Data.CasesByName[name];
        string expected = Js.Run(EngineWith(bridge: null, V8GoldenTests.SerializerOptions), golden.Script);
        string actual = Js.Run(EngineWith(bridge, V8GoldenTests.SerializerOptions), golden.Script);
        Assert.Equal(expected, actual);
    }

    [Fact]
    public void NestsInALargerDocumentWithTheWritersIndentation()
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate("({a: [1, {b: 'x'}, []], c: {}, d: null})");
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true, IndentCharacter = '\t', IndentSize = 1, NewLine = "\n" }))
        {
            writer.WriteStartObject();
            writer.WritePropertyName("result");
            Assert.True(new JsonSerializer(engine).Serialize(value, writer));
            writer.WriteString("after", "y");
            writer.WriteEndObject();
        }

        Assert.Equal(
            "{\n\t\"result\": {\n\t\t\"a\": [\n\t\t\t1,\n\t\t\t{\n\t\t\t\t\"b\": \"x\"\n\t\t\t},\n\t\t\t[]\n\t\t],\n\t\t\"c\": {},\n\t\t\"d\": null\n\t},\n\t\"after\": \"y\"\n}",
            Encoding.UTF8.GetString(buffer.WrittenSpan));
    }

    [Fact]
    public void WritesAsElementsOfAnArrayTheWriterHolds()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        string text = WriteWith(writer =>
        {
            writer.WriteStartArray();
            serializer.Serialize(engine.Evaluate("[1, 'a']"), writer);
            serializer.Serialize(engine.Evaluate("({toJSON() { return true; }})"), writer);
            writer.WriteEndArray();
        });
        Assert.Equal("[[1,\"a\"],true]", text);
    }

    [Fact]
    public void NumbersHaveJavaScriptsDigitsAndKeepTheirValue()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("[1e21, 1e-7, 1e20, 0.1, -0, 123456789012345680000, 5e-324, NaN, -Infinity, 2**53, -(2**53) - 2]");
        const string Expected = "[1e+21,1e-7,100000000000000000000,0.1,0,123456789012345680000,5e-324,null,null,9007199254740992,-9007199254740994]";

        JsonNode node = serializer.ToJsonNode(value)!;
        Assert.Equal(Expected, node.ToJsonString());
        Assert.Equal(1e21, node[0]!.GetValue<double>());
        Assert.Equal(1e-7, node[1]!.GetValue<double>());
        Assert.Equal(JsonValueKind.Number, node[0]!.GetValueKind());
        Assert.False(double.IsNegative(node[4]!.GetValue<double>()));
        Assert.Null(node[7]);
        Assert.Equal(Expected, WriteWith(writer => serializer.Serialize(value, writer)));
    }

    [Fact]
    public void NodesAreBuiltInKeyOrderFromEveryKindOfObject()
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate("""
            var table = {}; for (var i = 0; i < 100; i++) { table['k' + i] = i; } delete table.k3;
            ({ shaped: {b: 1, a: 2, 1: 3}, table: table, proxy: new Proxy({x: 1, y: [2]}, {}), s: new String('str'),
               raw: JSON.rawJSON('1e1000'), t: true, f: false, n: null, u: undefined, fn() {} })
            """);
        var serializer = new JsonSerializer(engine);
        JsonObject node = serializer.ToJsonNode(value)!.AsObject();
        Assert.Equal(["shaped", "table", "proxy", "s", "raw", "t", "f", "n"], node.Select(p => p.Key));
        Assert.Equal(["1", "b", "a"], node["shaped"]!.AsObject().Select(p => p.Key));
        Assert.Equal(99, node["table"]!.AsObject().Count);
        Assert.Equal("str", node["s"]!.GetValue<string>());
        Assert.Equal("1e1000", node["raw"]!.ToJsonString());
        Assert.True(node["t"]!.GetValue<bool>());
        Assert.Equal(serializer.SerializeToString(value), node.ToJsonString());
    }

    [Fact]
    public void RowsWrittenWholeMakeTheSameNodesAndTokens()
    {
        // Array elements whose values are all primitives are written without a frame (of a hidden class or a property
        // table); rows that are not go on from their first value that is not a primitive.
        var engine = new Engine();
        JsValue value = engine.Evaluate("""
            function assigned(o) { var r = {}; for (var k of Object.keys(o)) r[k] = o[k]; return r; }
            var emptied = {a: 1}; delete emptied.a;
            var rows = [];
            for (var i = 0; i < 40; i++) rows.push({id: i, name: 'r' + i, ok: i % 2 === 0, more: i % 9 === 0 ? {n: i} : null});
            [rows, [assigned({a: 1, b: 'x', c: null}), assigned({a: 2, b: [1, 2], c: true}), emptied, {}],
             [{x: 1, u: undefined, y: -0}, assigned({f() {}, x: 2})]]
            """);
        var serializer = new JsonSerializer(engine);
        string text = serializer.SerializeToString(value)!;
        JsonNode node = serializer.ToJsonNode(value)!;
        Assert.Equal(text, node.ToJsonString());
        Assert.Equal(text, WriteWith(writer => serializer.Serialize(value, writer)));
        Assert.Equal(["id", "name", "ok", "more"], node[0]![9]!.AsObject().Select(p => p.Key));
        Assert.Equal(9d, node[0]![9]!["more"]!["n"]!.GetValue<double>());
        Assert.Equal(["a", "b", "c"], node[1]![1]!.AsObject().Select(p => p.Key));
        Assert.Empty(node[1]![2]!.AsObject());
        Assert.Equal(["x", "y"], node[2]![0]!.AsObject().Select(p => p.Key));
        Assert.Equal(["x"], node[2]![1]!.AsObject().Select(p => p.Key));
    }

    [Fact]
    public void AReplacerShapesTheNodesAsItShapesTheText()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: 1, b: {a: 2, c: 3}, c: 4})");
        JsValue list = engine.Evaluate("['c', 'b']");
        JsValue function = engine.Evaluate("(function (k, v) { return typeof v === 'number' ? v * 10 : v; })");
        Assert.Equal(serializer.SerializeToString(value, list), serializer.ToJsonNode(value, list)!.ToJsonString());
        Assert.Equal(serializer.SerializeToString(value, function), serializer.ToJsonNode(value, function)!.ToJsonString());
        Assert.Equal(serializer.SerializeToString(value, function), WriteWith(writer => serializer.Serialize(value, function, JsValue.Undefined, writer)));
        Assert.Equal("{\"c\":4,\"b\":{\"c\":3}}", serializer.ToJsonElement(value, list)!.Value.GetRawText());
        Assert.Equal("{\"a\":10,\"b\":{\"a\":20,\"c\":30},\"c\":40}", serializer.ToJsonElement(value, function)!.Value.GetRawText());
    }

    // JSON.stringify escapes an unpaired surrogate (\ud800), which System.Text.Json cannot read as a string. The
    // writer gets a value that has one as JSON.stringify's text, raw; a property name cannot be written raw, and the
    // writer's replacement (U+FFFD) stands there. A node holds the exact .NET string, and ToJsonString writes it as the
    // writer does, with U+FFFD.
    [Fact]
    public void UnpairedSurrogatesAreWrittenAsJsonStringifyEscapesThemWhereTheWriterAllows()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({'k\\uD800': ['a\\uDC00b', '\\uD83D\\uDE00', 'x\\uD800']})");

        Assert.Equal(@"{""k\uFFFD"":[""a\udc00b"",""\uD83D\uDE00"",""x\ud800""]}", WriteWith(writer => serializer.Serialize(value, writer)));

        JsonNode node = serializer.ToJsonNode(value)!;
        JsonArray array = node["k\uD800"]!.AsArray();
        Assert.Equal("a\uDC00b", array[0]!.GetValue<string>());
        Assert.Equal("x\uD800", array[2]!.GetValue<string>());
        Assert.Equal(@"{""k\uFFFD"":[""a\uFFFDb"",""\uD83D\uDE00"",""x\uFFFD""]}", node.ToJsonString());
    }

    // The writer's encoder decides how strings are escaped: the default one escapes non-ASCII and HTML-sensitive
    // chars; the relaxed one, like JSON.stringify, does not. The JSON value is the same.
    [Fact]
    public void TheWritersEncoderDecidesTheEscaping()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({'é<': 'a\"b\\n<&>\\u00e9\\u2028'})");
        string ours = serializer.SerializeToString(value)!;
        string relaxed = WriteWith(writer => serializer.Serialize(value, writer), JavaScriptEncoder.UnsafeRelaxedJsonEscaping);
        string escaped = WriteWith(writer => serializer.Serialize(value, writer));
        Assert.Equal(@"{""\u00E9\u003C"":""a\u0022b\n\u003C\u0026\u003E\u00E9\u2028""}", escaped);
        Assert.Equal(@"{""é<"":""a\""b\n<&>é\u2028""}", relaxed);
        Assert.Equal(JsonNode.Parse(ours)!.ToJsonString(), JsonNode.Parse(escaped)!.ToJsonString());
        Assert.Equal(JsonNode.Parse(ours)!.ToJsonString(), JsonNode.Parse(relaxed)!.ToJsonString());
    }

    [Fact]
    public void NothingIsWrittenWhenThereIsNoJsonForm()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        foreach (string script in (string[])["undefined", "(function () {})", "Symbol()", "({toJSON() {}})"])
        {
            JsValue value = engine.Evaluate(script);
            var buffer = new ArrayBufferWriter<byte>();
            using (var writer = new Utf8JsonWriter(buffer))
            {
                writer.WriteStartArray();
                Assert.False(serializer.Serialize(value, writer));
                writer.WriteEndArray();
            }

            Assert.Equal("[]", Encoding.UTF8.GetString(buffer.WrittenSpan));
            Assert.Null(serializer.ToJsonNode(value));
            Assert.Null(serializer.ToJsonElement(value));
        }

        // JSON null is a null node, as JsonNode.Parse("null") gives, but an element of kind Null.
        Assert.Null(serializer.ToJsonNode(JsValue.Null));
        Assert.Equal(JsonValueKind.Null, serializer.ToJsonElement(JsValue.Null)!.Value.ValueKind);
    }

    [Fact]
    public void ASpaceThatWouldIndentIsRefusedTheWritersOptionsSetTheLayout()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: [1]})");
        foreach (string space in (string[])["2", "'\\t'", "new Number(1)"])
        {
            using var writer = new Utf8JsonWriter(new ArrayBufferWriter<byte>());
            Assert.Throws<ArgumentException>("space", () => serializer.Serialize(value, JsValue.Undefined, engine.Evaluate(space), writer));
            Assert.Equal(0, writer.BytesPending);
        }

        foreach (string space in (string[])["0", "''", "null", "undefined", "-1"])
        {
            Assert.Equal("{\"a\":[1]}", WriteWith(writer => serializer.Serialize(value, JsValue.Undefined, engine.Evaluate(space), writer)));
        }

        // Refused after the property list and space are read, as JSON.stringify reads them: the list's elements, then
        // the Number object's valueOf; the root's toJSON never runs.
        engine.Execute(
            "var log = []; var list = []; Object.defineProperty(list, 0, {get() { log.push('list'); return 'a'; }, enumerable: true});"
            + "var space = new Number(0); space.valueOf = function () { log.push('space'); return 2; };"
            + "var root = {a: 1, toJSON() { log.push('toJSON'); return this; }};");
        using (var writer = new Utf8JsonWriter(new ArrayBufferWriter<byte>()))
        {
            Assert.Throws<ArgumentException>("space", () => serializer.Serialize(engine.GetValue("root"), engine.GetValue("list"), engine.GetValue("space"), writer));
            Assert.Equal(0, writer.BytesPending + writer.BytesCommitted);
        }

        Assert.Equal("list,space", engine.Evaluate("log.join()").ToString());
    }

    [Theory]
    [InlineData("var a = {}; a.self = a; a", "TypeError")]
    [InlineData("[1, {b: [2n]}]", "TypeError")]
    [InlineData("var o = {}; for (var i = 0; i < 20; i++) { o = {o: o}; } o", "RangeError")]
    public void ErrorsAreThoseOfTheOtherOverloads(string script, string error)
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxDepth = 10 });
        JsValue value = engine.Evaluate(script);
        string expected = Js.ErrorText(Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(value)));
        Assert.StartsWith(error + ":", expected, StringComparison.Ordinal);
        Assert.Equal(expected, Js.ErrorText(Assert.Throws<JavaScriptException>(() => serializer.ToJsonNode(value))));
        Assert.Equal(expected, Js.ErrorText(Assert.Throws<JavaScriptException>(() => serializer.ToJsonElement(value))));
        using var writer = new Utf8JsonWriter(new ArrayBufferWriter<byte>());
        Assert.Equal(expected, Js.ErrorText(Assert.Throws<JavaScriptException>(() => serializer.Serialize(value, writer))));
    }

    // The writer's MaxDepth counts from where it stands: nesting past it is the RangeError of the other overloads,
    // before the writer would throw its own exception.
    [Fact]
    public void NestingPastTheWritersMaxDepthIsARangeError()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("[[[[1]]]]");
        Assert.Equal("[[[[1]]]]", WriteWith(writer => serializer.Serialize(value, writer), maxDepth: 4));

        using var writer = new Utf8JsonWriter(new ArrayBufferWriter<byte>(), new JsonWriterOptions { MaxDepth = 4 });
        writer.WriteStartArray();
        var e = Assert.Throws<JavaScriptException>(() => serializer.Serialize(value, writer));
        Assert.StartsWith("RangeError:", Js.ErrorText(e), StringComparison.Ordinal);
    }

    // An exception from user code reaches the caller unchanged; the writer holds what was written before it, with its
    // containers open (CurrentDepth), and the caller decides whether to Reset it.
    [Fact]
    public void OnAnExceptionTheWriterHoldsWhatWasWrittenBeforeIt()
    {
        var engine = new Engine();
        var failure = new InvalidOperationException("from the host");
        engine.SetValue("fail", new Action(() => throw failure));
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: [1, 2], b: {c: 'x', d: {toJSON() { fail(); }}}})");
        // Token by token, whatever the encoder: the toJSON of "d" runs before its name is written, as JSON.stringify
        // orders them.
        var buffer = new ArrayBufferWriter<byte>();
        foreach (JavaScriptEncoder? encoder in (JavaScriptEncoder?[])[null, JavaScriptEncoder.Create(UnicodeRanges.BasicLatin)])
        {
            buffer.Clear();
            using var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Encoder = encoder });
            writer.WriteStartArray();
            Assert.Same(failure, Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, writer)));
            Assert.Equal(3, writer.CurrentDepth);
            writer.Flush();
            Assert.Equal("[{\"a\":[1,2],\"b\":{\"c\":\"x\"", Encoding.UTF8.GetString(buffer.WrittenSpan));
        }

        JsValue thrower = engine.Evaluate("({toJSON() { throw new SyntaxError('from the script'); }})");
        var e = Assert.Throws<JavaScriptException>(() => serializer.ToJsonNode(thrower));
        Assert.Equal("SyntaxError: from the script", Js.ErrorText(e));
        Assert.Same(failure, Assert.Throws<InvalidOperationException>(() => serializer.ToJsonElement(value)));
    }

    // A value that fails (a cycle, a BigInt, a throwing toJSON, an object too deep) after its object's first property
    // leaves no name in the writer, whatever kind of name it has: a hidden class's, a property table's (an object built
    // by assignment), one with a surrogate pair or an unpaired surrogate (which go in plain), a property list's. The
    // caller can close the containers and go on.
    [Theory]
    [InlineData("({ok: 1, bad: 1n})", null)]
    [InlineData("var o = {}; o.ok = 1; o.bad = 2n; o", null)]
    [InlineData("var o = {}; o.ok = 1; o.self = o; o", null)]
    [InlineData("var o = {ok: 1}; o.bad = {toJSON() { throw new Error('from toJSON'); }}; o", null)]
    [InlineData("({ok: 1, '\\ud83d\\ude00': 1n})", null)]
    [InlineData("var o = {}; o.ok = 1; o['a\\ud800'] = 1n; o", null)]
    [InlineData("var o = {}; o.ok = 1; o.deep = {d: 1}; o", null)]
    [InlineData("var o = {}; o.ok = 1; o.bad = 3n; o", "['ok', 'bad']")]
    public void AFailedValueLeavesNoNameInTheWriter(string script, string? propertyList)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(script);
        JsValue replacer = propertyList is null ? JsValue.Undefined : engine.Evaluate(propertyList);
        var buffer = new ArrayBufferWriter<byte>();
        // Two levels: the array and the object; a third is too deep.
        using var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { MaxDepth = 2 });
        writer.WriteStartArray();

        Assert.ThrowsAny<JavaScriptException>(() => serializer.Serialize(value, replacer, JsValue.Undefined, writer));

        writer.WriteEndObject();
        writer.WriteEndArray();
        writer.Flush();
        Assert.Equal("[{\"ok\":1}]", Encoding.UTF8.GetString(buffer.WrittenSpan));
    }

    // A value where a validating writer expects a property name is the writer's own exception, at the value's first
    // token: the root's toJSON and the replacer have run by then (SerializeJSONProperty comes first), no property of
    // the value has been read, and nothing is written. A writer that skips validation writes what it is told.
    [Fact]
    public void SkipValidationIsTheWritersOwn()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        engine.Evaluate("globalThis.log = []");
        JsValue value = engine.Evaluate(
            "({toJSON(key) { log.push('toJSON:' + key); return {get a() { log.push('get a'); return 1; }}; }})");
        JsValue replacer = engine.Evaluate("(key, v) => { log.push('replacer:' + key); return v; }");

        var validated = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(validated))
        {
            writer.WriteStartObject();
            Assert.Throws<InvalidOperationException>(() => serializer.Serialize(value, replacer, JsValue.Undefined, writer));
            writer.Flush();
        }

        Assert.Equal("{", Encoding.UTF8.GetString(validated.WrittenSpan));
        Assert.Equal("toJSON:,replacer:", engine.Evaluate("log.join()").AsString());

        engine.Evaluate("log.length = 0");
        Assert.Equal("{{\"a\":1}", WriteWith(
            writer =>
            {
                writer.WriteStartObject();
                serializer.Serialize(value, replacer, JsValue.Undefined, writer);
            },
            skipValidation: true));
        Assert.Equal("toJSON:,replacer:,get a,replacer:a", engine.Evaluate("log.join()").AsString());
    }

    // MaxLength counts what an indented writer writes, its new lines and indentation included: the limit that the
    // indented text just fits passes, one byte less is the RangeError, though the compact text is far shorter. With
    // "\n" as the new line and with the writer's default, whatever the platform's is.
    [Theory]
    [InlineData("[[1, 2], {a: [3, {}], b: 'x'}, []]")]
    [InlineData("({list: [true, null], deep: {deeper: {deepest: [0]}}})")]
    public void MaxLengthCountsAnIndentedWritersLayout(string expression)
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate(expression);
        int compact = Encoding.UTF8.GetByteCount(new JsonSerializer(engine).SerializeToString(value)!);
        foreach (JsonWriterOptions options in (JsonWriterOptions[])[new() { Indented = true, NewLine = "\n" }, new() { Indented = true }])
        {
            string indented = Write(new JsonSerializer(engine), options);
            int bytes = Encoding.UTF8.GetByteCount(indented);
            Assert.True(compact < bytes - 10, indented);

            Assert.Equal(indented, Write(new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = bytes }), options));
            var thrown = Assert.Throws<JavaScriptException>(
                () => Write(new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = bytes - 1 }), options));
            Assert.Equal("RangeError: Invalid string length", Js.ErrorText(thrown));
        }

        string Write(JsonSerializer serializer, JsonWriterOptions writerOptions)
        {
            var buffer = new ArrayBufferWriter<byte>();
            using (var writer = new Utf8JsonWriter(buffer, writerOptions))
            {
                Assert.True(serializer.Serialize(value, writer));
            }

            return Encoding.UTF8.GetString(buffer.WrittenSpan);
        }
    }

    // JSON.rawJSON's text and a host serializer's (Jint's SerializeToJson) go into the writer raw, and into a node
    // parsed, so both write the text back as it was.
    [Fact]
    public void RawTextFromJsonRawJsonAndTheHostIsKept()
    {
        using var engine = new Engine(o => o.Interop.SerializeToJson = (_, _, _) => "{\"host\":[1e400]}");
        engine.SetValue("poco", new Poco());
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("[poco, JSON.rawJSON('1e1000'), {r: JSON.rawJSON('\"s\"')}]");
        const string Expected = "[{\"host\":[1e400]},1e1000,{\"r\":\"s\"}]";
        Assert.Equal(Expected, serializer.SerializeToString(value));
        Assert.Equal(Expected, WriteWith(writer => serializer.Serialize(value, writer)));
        Assert.Equal(Expected, serializer.ToJsonNode(value)!.ToJsonString());
    }

    // Raw text may carry a surrogate without its other half as it is (JSON.rawJSON accepts one inside a string, a host
    // serializer may write one), which UTF-8 cannot hold: the UTF-8 sinks write U+FFFD for it, and so do the writer,
    // the node and the element, in every layout. A pair stays a pair; the string result keeps the text as it is.
    [Theory]
    [InlineData("JSON.rawJSON('\"\\uD800\"')", "\"\uFFFD\"")]
    [InlineData("[1, JSON.rawJSON('\"a\\uDC00\"'), {r: JSON.rawJSON('\"\\uDC00\\uD800x\\uD83D\\uDE00\"')}]", "[1,\"a\uFFFD\",{\"r\":\"\uFFFD\uFFFDx\uD83D\uDE00\"}]")]
    [InlineData("({toJSON: () => [JSON.rawJSON('\"\\uD800\"'), JSON.rawJSON('\"\\uDBFF\\uDFFF\"')]})", "[\"\uFFFD\",\"\uDBFF\uDFFF\"]")]
    public void RawTextWithAnUnpairedSurrogateHasUFFFDInEveryUtf8Output(string expression, string expected)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(expression);
        string text = serializer.SerializeToString(value)!;
        Assert.DoesNotContain('\uFFFD', text);
        Assert.Equal(expected, text.Replace('\uD800', '\uFFFD').Replace('\uDC00', '\uFFFD'));

        var bytes = new ArrayBufferWriter<byte>();
        serializer.Serialize(value, bytes);
        Assert.Equal(expected, Encoding.UTF8.GetString(bytes.WrittenSpan));
        Assert.Equal(expected, serializer.ToJsonElement(value)!.Value.GetRawText());

        JsonNode node = serializer.ToJsonNode(value)!;
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(expected), node));
        foreach (bool skipValidation in (bool[])[false, true])
        {
            string written = WriteWith(writer => serializer.Serialize(value, writer), JavaScriptEncoder.UnsafeRelaxedJsonEscaping, skipValidation: skipValidation);
            Assert.Equal(expected, written);
            string indented = WriteWith(writer => serializer.Serialize(value, writer), skipValidation: skipValidation, indented: true);
            Assert.True(JsonNode.DeepEquals(JsonNode.Parse(expected), JsonNode.Parse(indented)));
        }
    }

    // The same for a host serializer's text (Jint's SerializeToJson), which nothing checks.
    [Fact]
    public void HostTextWithAnUnpairedSurrogateHasUFFFDInEveryUtf8Output()
    {
        using var engine = new Engine(o => o.Interop.SerializeToJson = (_, _, _) => "{\"h\":\"\uDC00\uD83D\uDE00\"}");
        engine.SetValue("poco", new Poco());
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("[poco]");
        const string Expected = "[{\"h\":\"\uFFFD\uD83D\uDE00\"}]";
        var bytes = new ArrayBufferWriter<byte>();
        serializer.Serialize(value, bytes);
        Assert.Equal(Expected, Encoding.UTF8.GetString(bytes.WrittenSpan));
        Assert.Equal(Expected, serializer.ToJsonElement(value)!.Value.GetRawText());
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(Expected), serializer.ToJsonNode(value)));
        Assert.Equal(Expected, WriteWith(writer => serializer.Serialize(value, writer), JavaScriptEncoder.UnsafeRelaxedJsonEscaping));
    }

    // MaxLength counts the bytes written into a Utf8JsonWriter by this call; nodes have no text, and only an array
    // whose shortest text could not fit is a RangeError there, as on the string path (see docs/limits.md).
    [Fact]
    public void MaxLengthCountsTheWritersBytesAndBoundsNodesOnlyThroughArrayLengths()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = 20 });

        // 10 chars of text; 50 bytes once the writer's default encoder has escaped each é as \u00E9.
        JsValue accented = engine.Evaluate("'é'.repeat(8)");
        Assert.Equal("\"éééééééé\"", serializer.SerializeToString(accented));
        using (var writer = new Utf8JsonWriter(new ArrayBufferWriter<byte>()))
        {
            var e = Assert.Throws<JavaScriptException>(() => serializer.Serialize(accented, writer));
            Assert.Equal("RangeError: Invalid string length", Js.ErrorText(e));
        }

        // The bytes the writer held before the call are not counted.
        var earlier = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(earlier))
        {
            writer.WriteStartArray();
            writer.WriteStringValue(new string('x', 30));
            Assert.True(serializer.Serialize(engine.Evaluate("'ab'"), writer));
            writer.WriteEndArray();
        }

        Assert.Equal("[\"" + new string('x', 30) + "\",\"ab\"]", Encoding.UTF8.GetString(earlier.WrittenSpan));

        JsValue longString = engine.Evaluate("'z'.repeat(100)");
        Assert.Equal(100, serializer.ToJsonNode(longString)!.GetValue<string>().Length);

        // An array's shortest text is a digit per element and the commas between: 19 chars for 9 elements, 21 for 10.
        Assert.Equal(9, serializer.ToJsonNode(engine.Evaluate("Array(9).fill(0)"))!.AsArray().Count);
        var over = Assert.Throws<JavaScriptException>(() => serializer.ToJsonNode(engine.Evaluate("Array(10).fill(0)")));
        Assert.Equal("RangeError: Invalid string length", Js.ErrorText(over));

        JsValue huge = engine.Evaluate("new Proxy([], {get: (t, k) => k === 'length' ? 2**32 + 1 : t[k]})");
        var thrown = Assert.Throws<JavaScriptException>(() => serializer.ToJsonNode(huge));
        Assert.Equal("RangeError: Invalid string length", Js.ErrorText(thrown));
    }

    [Fact]
    public void ToJsonElementIsTheParsedStringAndOwnsItsData()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: [1, 1e21, 'é\\u2028', {b: null}], 'k\\uD800': 'x\\uDC00', t: true})");
        string ours = serializer.SerializeToString(value)!;
        JsonElement element = serializer.ToJsonElement(value)!.Value;

        // The pooled buffer it was parsed from is reused by the next call: the element must not depend on it.
        serializer.ToJsonElement(engine.Evaluate("'z'.repeat(10000)"));
        Assert.Equal(ours, element.GetRawText());
        Assert.Equal(1e21, element.GetProperty("a")[1].GetDouble());
        Assert.Equal("é\u2028", element.GetProperty("a")[2].GetString());
        Assert.Equal(JsonValueKind.Object, element.ValueKind);
    }

    // A host serializer's text deeper than System.Text.Json's default of 64 levels: the node, like the element and the
    // text, nests as deep as the options let the walk; past that, the parser's JsonException, as the element's.
    [Fact]
    public void HostTextNestsInANodeAsDeepAsTheOptionsAllow()
    {
        string deep = new string('[', 70) + "1" + new string(']', 70);
        using var engine = new Engine(o => o.Interop.SerializeToJson = (_, _, _) => deep);
        engine.SetValue("poco", new Poco());
        JsValue value = engine.Evaluate("[{host: poco}]");
        var serializer = new JsonSerializer(engine);
        string expected = serializer.SerializeToString(value)!;
        Assert.Equal("[{\"host\":" + deep + "}]", expected);
        Assert.Equal(expected, serializer.ToJsonNode(value)!.ToJsonString());
        Assert.Equal(expected, serializer.ToJsonElement(value)!.Value.GetRawText());

        // The text's 70 levels count from where it stands, two levels down.
        var deepEnough = new JsonSerializer(engine, new JsonSerializerOptions { MaxDepth = 72 });
        Assert.Equal(expected, deepEnough.ToJsonNode(value)!.ToJsonString());
        Assert.Equal(expected, deepEnough.ToJsonElement(value)!.Value.GetRawText());
        var shallow = new JsonSerializer(engine, new JsonSerializerOptions { MaxDepth = 71 });
        Assert.ThrowsAny<JsonException>(() => shallow.ToJsonNode(value));
        Assert.ThrowsAny<JsonException>(() => shallow.ToJsonElement(value));
    }

    [Fact]
    public void ToJsonElementTakesTheDepthOfTheOptions()
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate("var a = 1; for (var i = 0; i < 200; i++) { a = [a]; } a");
        JsonElement element = new JsonSerializer(engine).ToJsonElement(value)!.Value;
        Assert.Equal(JsonValueKind.Array, element.ValueKind);
        Assert.Equal(new JsonSerializer(engine).SerializeToString(value), element.GetRawText());
    }

    // Containers join their parent when they close, so System.Text.Json's check that a node is not its own ancestor
    // is one step, whatever the depth (it walks up the parents).
    [Fact]
    public void ADeepValueBuildsADeepTree()
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate("var a = [1]; for (var i = 0; i < 100000; i++) { a = [a, {k: i}]; } a");
        JsonNode? node = new JsonSerializer(engine).ToJsonNode(value);
        int depth = 0;
        while (node is JsonArray array)
        {
            Assert.Equal(depth == 100_000 ? 1 : 2, array.Count);
            if (array.Count == 2)
            {
                Assert.Equal(100_000 - depth - 1, array[1]!["k"]!.GetValue<double>());
            }

            Assert.Same(array, array[0]?.Parent ?? array);
            node = array[0];
            depth++;
        }

        Assert.Equal(100_001, depth);
        Assert.Equal(1, node!.GetValue<double>());
    }

    // Objects are made when they close, from all their properties at once; a host object whose own keys repeat a key
    // (which no JavaScript object does) still gives the last value at the first key's place, as JSON.parse does.
    [Fact]
    public void AKeyAHostObjectRepeatsKeepsItsLastValue()
    {
        var engine = new Engine();
        var value = new RepeatingKeys(engine);
        var serializer = new JsonSerializer(engine);
        string text = serializer.SerializeToString(value)!;
        Assert.Equal("{\"a\":[1],\"b\":{\"c\":2},\"a\":{\"d\":[3]}}", text);
        JsonNode node = serializer.ToJsonNode(new RepeatingKeys(engine))!;
        Assert.Equal("{\"a\":{\"d\":[3]},\"b\":{\"c\":2}}", node.ToJsonString());
        Assert.Same(node, node["b"]!.Parent);
        Assert.Same(node, node["a"]!.Parent);
    }

    [Fact]
    public void ACallNestedInAToJsonGetsItsOwnBuilderAndBuffers()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        engine.SetValue("inner", new Func<JsValue, string>(v =>
            serializer.ToJsonNode(v)!.ToJsonString() + serializer.ToJsonElement(v)!.Value.GetRawText()));
        JsValue value = engine.Evaluate("({a: [1, {toJSON() { return inner({b: [2]}); }}, 3]})");
        const string Expected = "{\"a\":[1,\"{\\\"b\\\":[2]}{\\\"b\\\":[2]}\",3]}";
        Assert.Equal(Canonical(Expected), serializer.ToJsonNode(value)!.ToJsonString());
        Assert.Equal(Expected, serializer.ToJsonElement(value)!.Value.GetRawText());
    }

    // What System.Text.Json makes of JSON text: parsed and written back compactly, with each unpaired surrogate (an
    // escape only our text has) first replaced by U+FFFD, as the writer replaces them in names and nodes write them.
    internal static string Canonical(string json) =>
        JsonNode.Parse(ReplaceUnpairedSurrogateEscapes(json), documentOptions: s_parseOptions)?.ToJsonString(s_writeOptions) ?? "null";

    internal static string ReplaceUnpairedSurrogateEscapes(string json)
    {
        if (!json.Contains("\\ud", StringComparison.OrdinalIgnoreCase))
        {
            return json;
        }

        var result = new StringBuilder(json.Length);
        for (int i = 0; i < json.Length; i++)
        {
            if (json[i] != '\\')
            {
                result.Append(json[i]);
                continue;
            }

            if (json[i + 1] != 'u')
            {
                result.Append(json, i, 2);
                i++;
                continue;
            }

            char c = (char)int.Parse(json.AsSpan(i + 2, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture);
            bool paired = char.IsHighSurrogate(c) && i + 11 < json.Length && json[i + 6] == '\\' && json[i + 7] == 'u'
                && char.IsLowSurrogate((char)int.Parse(json.AsSpan(i + 8, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
            if (paired)
            {
                result.Append(json, i, 12);
                i += 11;
            }
            else
            {
                result.Append(char.IsSurrogate(c) ? "\\ufffd" : json.Substring(i, 6));
                i += 5;
            }
        }

        return result.ToString();
    }

    // An engine whose JSON.stringify returns System.Text.Json's compact text of the bridge's result (undefined when
    // there is none); with no bridge, that of our string output. The replacer goes through; space does not, since
    // neither bridge indents (ToJsonNode has no space, and the writer refuses one).
    private static Engine EngineWith(Bridge? bridge, JsonSerializerOptions? options = null) => Js.WithStringify(
        (serializer, value, replacer, _) =>
        {
            string? text = bridge switch
            {
                null => serializer.SerializeToString(value, replacer) is { } json ? Canonical(json) : null,
                Bridge.Node => serializer.TryToJsonNode(value, replacer, out JsonNode? node) ? NodeText(node) : null,
                _ => WriteJson(serializer, value, replacer) is { } json ? Canonical(json) : null,
            };
            return text is null ? JsValue.Undefined : new JsString(text);
        },
        options);

    // ToJsonString() as it writes without options (with options, System.Text.Json writes a number node through those
    // options' own converter for double), but deep enough for the golden cases.
    private static string NodeText(JsonNode? node)
    {
        if (node is null)
        {
            return "null";
        }

        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { MaxDepth = Depth }))
        {
            node.WriteTo(writer);
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static string? WriteJson(JsonSerializer serializer, JsValue value, JsValue replacer)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { MaxDepth = Depth });
        if (!serializer.Serialize(value, replacer, JsValue.Undefined, writer))
        {
            return null;
        }

        writer.Flush();
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static string WriteWith(
        Action<Utf8JsonWriter> write, JavaScriptEncoder? encoder = null, int maxDepth = 0, bool skipValidation = false, bool indented = false)
    {
        var buffer = new ArrayBufferWriter<byte>();
        var options = new JsonWriterOptions { Encoder = encoder, MaxDepth = maxDepth, SkipValidation = skipValidation, Indented = indented };
        using (var writer = new Utf8JsonWriter(buffer, options))
        {
            write(writer);
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    // A CLR object, which Jint wraps, for the host serializer to write.
    private sealed class Poco
    {
        public int A { get; set; } = 1;
    }

    // A host object whose [[OwnPropertyKeys]] lists "a" twice; "a" is a getter whose first value is [1], then {d: [3]}.
    private sealed class RepeatingKeys(Engine engine) : ObjectInstance(engine)
    {
        private readonly PropertyDescriptor _a = new GetSetPropertyDescriptor(
            engine.Evaluate("(() => { var reads = 0; return () => reads++ === 0 ? [1] : {d: [3]}; })()"), null, enumerable: true, configurable: true);

        private readonly PropertyDescriptor _b = new(engine.Evaluate("({c: 2})"), PropertyFlag.AllForbidden | PropertyFlag.Enumerable);

        public override List<JsValue> GetOwnPropertyKeys(Types types = Types.String | Types.Symbol) =>
            [new JsString("a"), new JsString("b"), new JsString("a")];

        public override PropertyDescriptor GetOwnProperty(JsValue property) => property.ToString() switch
        {
            "a" => _a,
            "b" => _b,
            _ => PropertyDescriptor.Undefined,
        };
    }
}
