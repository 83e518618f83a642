using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using Jint;
using Jint.Native;
using JsonStringify.Internals;
using StjOptions = System.Text.Json.JsonSerializerOptions;

namespace JsonStringify.Tests;

/// <summary>
/// Indented writers: what goes through <c>WriteRawValue</c> in a compact writer (numbers that are not integers below
/// 2^53, raw JSON, strings with an unpaired surrogate) is laid out as the writer lays out its own values, in every
/// position and with every indentation option, for <c>Serialize(value, writer)</c> and for a node's <c>WriteTo</c>. The
/// oracle is the writer itself: our string output parsed and written back by <c>JsonElement.WriteTo</c> with the same
/// options, in the same place.
/// </summary>
public class IndentedWriterTests
{
    public enum Bridge
    {
        Node,
        Writer,
    }

    /// <summary>Where the caller's writer stands when the value is written.</summary>
    public enum Position
    {
        Root,
        FirstInArray,
        InNestedArray,
        AfterName,
    }

    // Deeper than any golden case (3,000 levels), as SystemTextJsonTests allows, plus the caller's own two levels.
    private const int Depth = 10_003;

    private static readonly JsonDocumentOptions s_parseOptions = new() { MaxDepth = Depth };

    // The writer's default layout, a tab per level with CRLF, no indentation at all, and four spaces with the relaxed
    // encoder.
    private static readonly JsonWriterOptions[] s_layouts =
    [
        new() { Indented = true, NewLine = "\n", MaxDepth = Depth },
        new() { Indented = true, IndentCharacter = '\t', IndentSize = 1, NewLine = "\r\n", MaxDepth = Depth },
        new() { Indented = true, IndentSize = 0, NewLine = "\n", MaxDepth = Depth },
        new() { Indented = true, IndentSize = 4, NewLine = "\r\n", Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, MaxDepth = Depth },
    ];

    public static TheoryData<string, Bridge> ConformanceRows =>
        TheoryRows.EachWithEvery<Bridge>(ConformanceTests.Cases.Select(row => (string)row[0]));

    public static TheoryData<string, Bridge> GoldenRows => TheoryRows.EachWithEvery<Bridge>(V8GoldenTests.Data.CaseNames);

    [Theory]
    [MemberData(nameof(ConformanceRows))]
    public void ConformanceRowsAreLaidOutAsTheWriterLaysOutTheirJson(string script, Bridge bridge) =>
        AssertLaidOutAsTheWriter(script, bridge, options: null);

    [Theory]
    [MemberData(nameof(GoldenRows))]
    public void GoldenCasesAreLaidOutAsTheWriterLaysOutTheirJson(string name, Bridge bridge) =>
        AssertLaidOutAsTheWriter(V8GoldenTests.Data.CasesByName[name].Script, bridge, V8GoldenTests.SerializerOptions);

    [Fact]
    public void ElementsOfAnArrayGetTheirLineBreak()
    {
        var engine = new Engine();
        JsValue value = engine.Evaluate("({a: [1.5, 2, 2.5]})");
        Assert.Equal("{\n  \"a\": [\n    1.5,\n    2,\n    2.5\n  ]\n}", Write(writer => new JsonSerializer(engine).Serialize(value, writer)));
        Assert.Equal("{\n  \"a\": [\n    1.5,\n    2,\n    2.5\n  ]\n}", Write(writer => new JsonSerializer(engine).ToJsonNode(value)!.WriteTo(writer)));
    }

    // Every kind of value that a compact writer gets raw, at every depth, first and not, after names, in empty
    // containers' company, with every layout and in every place in the caller's document.
    [Theory]
    [InlineData("[1.5, 2, 2.5]")]
    [InlineData("[1e21, 1e-7, -0, 5e-324, 1.7976931348623157e308, 123456789012345680000, -1e-6, 0.000001, 1e15, 1e20]")]
    [InlineData("[[1.5, [2.5e-7, [1e21, []]], {}], {a: [0.1, {b: 1e300}], c: -2.5}, [[], [[0.5]]]]")]
    [InlineData("[JSON.rawJSON('1e1000'), [JSON.rawJSON('\"x\\u00e9\"'), JSON.rawJSON('null')], {r: JSON.rawJSON('-0.0')}, JSON.rawJSON('true')]")]
    [InlineData("[[], {}, [[]], [{}], {a: []}, {a: {}}]")]
    [InlineData("({a: {}, b: [{}], c: {d: {}, e: {}}})")]
    [InlineData("1.5")]
    [InlineData("1e-7")]
    [InlineData("JSON.rawJSON('12.50')")]
    [InlineData("({a: 1e21, b: [1e21], c: {d: 1e-300}})")]
    public void ValuesAWriterWouldGetRawAreLaidOutAsItsOwn(string script)
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(script);
        string text = serializer.SerializeToString(value)!;
        foreach (JsonWriterOptions options in s_layouts)
        {
            foreach (Position position in Enum.GetValues<Position>())
            {
                string expected = Write(writer => WriteParsed(writer, text), options, position);
                Assert.Equal(expected, Write(writer => Assert.True(serializer.Serialize(value, writer)), options, position));
                Assert.Equal(expected, Write(writer => WriteNode(writer, serializer.ToJsonNode(value)), options, position));
            }
        }
    }

    // The values the writer gets raw after its layout (a string with an unpaired surrogate, JSON.stringify's escape in
    // it; a raw JSON string with one; with SkipValidation, numbers and raw JSON too), at every depth, first and not,
    // after names, with every layout and in every place in the caller's document: the layout is the writer's own for
    // the same value with U+FFFD for each such surrogate. The strings themselves are compared elsewhere
    // (UnpairedSurrogatesGetTheLayoutOfTheWritersOwnStrings).
    [Theory]
    [InlineData("['a\\uD800', {k: 'x\\uDC00'}, [JSON.rawJSON('\"\\\\ud800\"')]]")]
    [InlineData("({a: ['\\uD800', 1.5], b: {c: 'x\\uDC00y', 'n\\uD800': {}}, d: [[], '\\uDBFF']})")]
    [InlineData("[[['\\uDBFF', 1e21]], JSON.rawJSON('\"\\\\udc00\"'), {e: [JSON.rawJSON('-0.0'), '\\uD800\\uD800']}]")]
    public void ValuesTheWriterGetsRawAfterItsLayoutAreLaidOutAsItsOwn(string script)
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate(script);
        string text = SystemTextJsonTests.ReplaceUnpairedSurrogateEscapes(serializer.SerializeToString(value)!);
        foreach (JsonWriterOptions layout in s_layouts)
        {
            foreach (bool skipValidation in (bool[])[false, true])
            {
                JsonWriterOptions options = layout with { SkipValidation = skipValidation };
                foreach (Position position in Enum.GetValues<Position>())
                {
                    string expected = Write(writer => WriteParsed(writer, text), options, position);
                    string written = Write(writer => Assert.True(serializer.Serialize(value, writer)), options, position);
                    Assert.Equal(WithoutStrings(expected), WithoutStrings(written));
                }
            }
        }
    }

    // JSON.stringify's escape of an unpaired surrogate goes in raw, after the line break and indentation the writer
    // would write; as does a raw JSON string that has one, which System.Text.Json cannot write back.
    [Fact]
    public void UnpairedSurrogatesGetTheLayoutOfTheWritersOwnStrings()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("['a\\uD800', ['\\uDC00', 'b'], {k: 'x\\uD800', 'n\\uD800': [JSON.rawJSON('\"\\\\ud800\"')]}]");
        Assert.Equal(
            "[\n  \"a\\ud800\",\n  [\n    \"\\udc00\",\n    \"b\"\n  ],\n  {\n    \"k\": \"x\\ud800\",\n    \"n\\uFFFD\": [\n      \"\\ud800\"\n    ]\n  }\n]",
            Write(writer => serializer.Serialize(value, writer)));
        Assert.Equal(
            "[\r\n\t\t\"a\\ud800\",\r\n\t\t[\r\n\t\t\t\t\"\\udc00\",\r\n\t\t\t\t\"b\"\r\n\t\t],\r\n\t\t{\r\n\t\t\t\t\"k\": \"x\\ud800\",\r\n\t\t\t\t\"n\\uFFFD\": [\r\n\t\t\t\t\t\t\"\\ud800\"\r\n\t\t\t\t]\r\n\t\t}\r\n]",
            Write(writer => serializer.Serialize(value, writer), new JsonWriterOptions { Indented = true, IndentCharacter = '\t', IndentSize = 2, NewLine = "\r\n" }));

        // The same layout with the writer's own strings, which replace the surrogate, as a node writes its strings.
        JsValue strings = engine.Evaluate("['a\\uD800', ['\\uDC00', 'b'], {k: 'x\\uD800', 'n\\uD800': ['\\uD800']}]");
        Assert.Equal(
            "[\n  \"a\\uFFFD\",\n  [\n    \"\\uFFFD\",\n    \"b\"\n  ],\n  {\n    \"k\": \"x\\uFFFD\",\n    \"n\\uFFFD\": [\n      \"\\uFFFD\"\n    ]\n  }\n]",
            Write(writer => WriteNode(writer, serializer.ToJsonNode(strings))));
    }

    // Raw JSON that the writer does not validate goes in as it is, after the layout; a host serializer's object or
    // array, validated, is laid out by the writer token by token, as a node parsed from it is.
    [Fact]
    public void RawJsonIsLaidOutByTheWriterUnlessItSkipsValidation()
    {
        using var engine = new Engine(o => o.Interop.SerializeToJson = (_, _, _) => "{\"host\":[1e400,\"é\"]}");
        engine.SetValue("poco", new Poco());
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("[poco, [JSON.rawJSON('1e1000')], {p: poco}]");
        Assert.Equal(
            "[\n  {\n    \"host\": [\n      1e400,\n      \"\\u00E9\"\n    ]\n  },\n  [\n    1e1000\n  ],\n  {\n    \"p\": {\n      \"host\": [\n        1e400,\n        \"\\u00E9\"\n      ]\n    }\n  }\n]",
            Write(writer => serializer.Serialize(value, writer)));
        Assert.Equal(
            "[\n  {\"host\":[1e400,\"é\"]},\n  [\n    1e1000\n  ],\n  {\n    \"p\": {\"host\":[1e400,\"é\"]}\n  }\n]",
            Write(writer => serializer.Serialize(value, writer), new JsonWriterOptions { Indented = true, NewLine = "\n", SkipValidation = true }));
    }

    // A second value at the root, which only a writer that skips validation takes, comes after the writer's comma and
    // line break, as its own values do.
    [Fact]
    public void ASecondValueAtTheRootOfAWriterThatSkipsValidationIsLaidOutAsItsOwn()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        var options = new JsonWriterOptions { Indented = true, NewLine = "\n", SkipValidation = true };
        string expected = Write(
            writer =>
            {
                writer.WriteNumberValue(1);
                writer.WriteNumberValue(1.5);
                writer.WriteStringValue("\uFFFD");
                writer.WriteNumberValue(2);
            },
            options);
        string actual = Write(
            writer =>
            {
                writer.WriteNumberValue(1);
                serializer.Serialize(engine.Evaluate("1.5"), writer);
                serializer.Serialize(engine.Evaluate("'\\uD800'"), writer);
                writer.WriteNumberValue(2);
            },
            options);
        Assert.Equal("1,\n1.5,\n\"\\uFFFD\",\n2", expected);
        Assert.Equal("1,\n1.5,\n\"\\ud800\",\n2", actual);
    }

    // The one place the writer's public API leaves unknown: a call made inside the caller's container, whose writer
    // does not tell whether a property name waits for the value. Numbers and raw JSON go through the writer's own value
    // methods and are right in both places; a string with an unpaired surrogate, which only goes raw, is written as
    // after a name: right there, without its line break inside the caller's array.
    [Fact]
    public void AtTheRootOfACallInsideTheCallersArrayOnlyAnUnpairedSurrogateMissesItsLineBreak()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        string inArray = Write(writer =>
        {
            writer.WriteStartArray();
            serializer.Serialize(engine.Evaluate("1e21"), writer);
            serializer.Serialize(engine.Evaluate("JSON.rawJSON('\"x\"')"), writer);
            serializer.Serialize(engine.Evaluate("'\\uD800'"), writer);
            serializer.Serialize(engine.Evaluate("['\\uD800']"), writer);
            writer.WriteEndArray();
        });
        Assert.Equal("[\n  1e+21,\n  \"x\",\"\\ud800\",\n  [\n    \"\\ud800\"\n  ]\n]", inArray);

        string afterName = Write(writer =>
        {
            writer.WriteStartObject();
            writer.WritePropertyName("a");
            serializer.Serialize(engine.Evaluate("'\\uD800'"), writer);
            writer.WriteEndObject();
        });
        Assert.Equal("{\n  \"a\": \"\\ud800\"\n}", afterName);
    }

    // Number::toString writes plain decimals from 1e-6 to below 1e21: each of those is the writer's own decimal, whose
    // text is the same (checked at run time too), and the others, e-notation, a JsonElement of the text. Over V8's
    // recorded numbers and seeded ones of every exponent, both signs, and the boundaries.
    [Fact]
    public void EveryPlainNumberIsTheWritersDecimalAndEveryNumberKeepsJavaScriptsText()
    {
        var numbers = new List<double>();
        foreach (GoldenNumber number in V8GoldenTests.Data.Numbers)
        {
            numbers.Add(BitConverter.Int64BitsToDouble(long.Parse(number.Bits, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture)));
        }

        var random = new Random(20261123);
        for (int i = 0; i < 20_000; i++)
        {
            double bits = BitConverter.Int64BitsToDouble(random.NextInt64());
            if (double.IsFinite(bits))
            {
                numbers.Add(bits);
            }

            // A decimal of 1 to 17 digits with any exponent, and one written in plain notation (1e-7 to 1e21).
            long digits = random.NextInt64(1, 100_000_000_000_000_000L) / (long)Math.Pow(10, random.Next(0, 17));
            numbers.Add(double.Parse($"{digits}e{random.Next(-340, 310)}", CultureInfo.InvariantCulture) * (random.Next(2) == 0 ? 1 : -1));
            numbers.Add(double.Parse($"{digits}e{random.Next(-24, 5)}", CultureInfo.InvariantCulture) * (random.Next(2) == 0 ? 1 : -1));
        }

        numbers.AddRange([1e21, 1e21 - 65536, 999999999999999900000d, 1e-6, 1e-6 - 1e-22, 9.999999999999999e-7, 1e-7, 5e-324, -5e-324,
            double.MaxValue, double.Epsilon, 9007199254740992d, 9007199254740994d, -9007199254740994d, 0.1, 0.3 - 0.2, 1e15, 1e16,
            123456789012345680000d, 0.000001234567890123456, -0.0000012345678901234567]);

        Span<char> chars = stackalloc char[JsonConstants.NumberBufferLength];
        Span<byte> text = stackalloc byte[JsonConstants.NumberBufferLength];
        int plain = 0;
        foreach (double number in numbers)
        {
            if (NumberFormatter.IsExactInteger(number) || !double.IsFinite(number))
            {
                continue;
            }

            int length = NumberFormatter.Format(number, chars);
            for (int i = 0; i < length; i++)
            {
                text[i] = (byte)chars[i];
            }

            bool isPlain = !chars[..length].Contains('e');
            Assert.True(isPlain == JsNumberConverter.TryGetDecimal(text[..length], out _), new string(chars[..length]));
            plain += isPlain ? 1 : 0;
        }

        Assert.True(plain > 15_000, $"only {plain} plain numbers");

        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsArray array = new(engine, numbers.Select(n => (JsValue)JsNumber.Create(n)).ToArray());
        string ours = serializer.SerializeToString(array)!;
        foreach (JsonWriterOptions options in s_layouts)
        {
            string expected = Write(writer => WriteParsed(writer, ours), options);
            Assert.Equal(expected, Write(writer => serializer.Serialize(array, writer), options));
            Assert.Equal(expected, Write(writer => WriteNode(writer, serializer.ToJsonNode(array)), options));
        }
    }

    // Given options, a node writes its numbers with the options' own converter for double (1E+21, the same value):
    // the writer's own WriteNumberValue(double), laid out as the writer lays out any value.
    [Fact]
    public void ToJsonStringWithIndentedOptionsIsLaidOutAsTheWriterLaysOutItsNumbers()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("({a: [1.5, 2, 1e21, [1e-7, {b: 0.5}]], r: [JSON.rawJSON('1e1000')]})");
        var options = new StjOptions(StjOptions.Default) { WriteIndented = true, NewLine = "\n" };
        string text = serializer.ToJsonNode(value)!.ToJsonString(options);
        Assert.Equal(
            "{\n  \"a\": [\n    1.5,\n    2,\n    1E+21,\n    [\n      1E-07,\n      {\n        \"b\": 0.5\n      }\n    ]\n  ],\n  \"r\": [\n    1e1000\n  ]\n}",
            text);
        Assert.Equal(text, JsonNode.Parse(text)!.ToJsonString(options));
        Assert.True(JsonNode.DeepEquals(JsonNode.Parse(serializer.SerializeToString(value)!), JsonNode.Parse(text)));
    }

    // System.Text.Json's JsonSerializer always writes with options, its default ones when it is given none, and passes
    // them to the nodes it writes: a node inside a value it serializes writes its numbers with those options'
    // converter for double too (1E+21, the same value), as after ToJsonString(options); alone, JavaScript's digits.
    [Fact]
    public void JsonSerializerWithoutOptionsWritesNumberNodesWithItsDefaultOptions()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsonNode node = serializer.ToJsonNode(engine.Evaluate("({n: 1e21, m: 1e-7, k: 5, f: 0.5})"))!;
        Assert.Equal("{\"n\":1e+21,\"m\":1e-7,\"k\":5,\"f\":0.5}", node.ToJsonString());
        Assert.Equal("{\"n\":1E+21,\"m\":1E-07,\"k\":5,\"f\":0.5}", System.Text.Json.JsonSerializer.Serialize(node));
        Assert.Equal(
            "{\"Node\":{\"n\":1E+21,\"m\":1E-07,\"k\":5,\"f\":0.5}}",
            System.Text.Json.JsonSerializer.Serialize(new NodeHolder(node)));
    }

    // Each JSON.stringify call of the script is written by the bridge into an indented writer, with each layout and in
    // each place, and by the reference as the writer writes the parsed string output; each call returns the pieces of
    // text that must agree, and the scripts' results (and errors) must agree too. Strings are compared by value and
    // everything else, the layout included, by text: a string's escapes are the encoder's, and a string with an
    // unpaired surrogate, which System.Text.Json cannot write back, goes in with JSON.stringify's escapes.
    // Each place once, each with a layout that depends on the script (its length), so that the rows together take
    // every layout to every place.
    private static void AssertLaidOutAsTheWriter(string script, Bridge bridge, JsonSerializerOptions? options)
    {
        foreach (Position position in Enum.GetValues<Position>())
        {
            JsonWriterOptions layout = s_layouts[(script.Length + (int)position) % s_layouts.Length];
            var expected = new List<string>();
            var actual = new List<string>();
            string expectedResult = Js.Run(EngineWith(bridge: null, layout, position, options, expected, bridge), script);
            string actualResult = Js.Run(EngineWith(bridge, layout, position, options, actual, bridge), script);
            Assert.Equal(expectedResult, actualResult);
            Assert.Equal(expected, actual);
        }
    }

    // With no bridge, the reference; it knows which bridge it is compared with for the writer's one unknown place (see
    // AtTheRootOfACallInsideTheCallersArrayOnlyAnUnpairedSurrogateMissesItsLineBreak).
    private static Engine EngineWith(
        Bridge? bridge, JsonWriterOptions layout, Position position, JsonSerializerOptions? options, List<string> texts, Bridge compared) => Js.WithStringify(
        (serializer, value, replacer, _) =>
        {
            string? text = bridge switch
            {
                null => serializer.SerializeToString(value, replacer) is { } json
                    ? Write(writer => WriteReference(writer, json, compared == Bridge.Writer && position is Position.FirstInArray or Position.InNestedArray), layout, position)
                    : null,
                Bridge.Node => serializer.TryToJsonNode(value, replacer, out JsonNode? node)
                    ? Write(writer => WriteNode(writer, node), layout, position)
                    : null,
                _ => WriteOrNull(serializer, value, replacer, layout, position),
            };
            if (text is null)
            {
                return JsValue.Undefined;
            }

            string canonical = SystemTextJsonTests.Canonical(text);
            texts.Add(WithoutStrings(text));
            texts.Add(canonical);
            return new JsString(canonical);
        },
        options);

    internal static string? WriteOrNull(JsonSerializer serializer, JsValue value, JsValue replacer, JsonWriterOptions layout, Position position)
    {
        bool written = true;
        string text = Write(
            writer =>
            {
                written = serializer.Serialize(value, replacer, JsValue.Undefined, writer);
                if (!written)
                {
                    // Nothing was written: the caller's document is finished with a null, and the call gives undefined.
                    writer.WriteNullValue();
                }
            },
            layout,
            position);
        return written ? text : null;
    }

    // The text with each string replaced by "": its layout, numbers and literals.
    private static string WithoutStrings(string json) => WithEachString(json, _ => "\"\"");

    /// <summary>The JSON text with each string token (quotes included) replaced by what <paramref name="replace"/>
    /// gives for it.</summary>
    internal static string WithEachString(string json, Func<string, string> replace)
    {
        var result = new StringBuilder(json.Length);
        for (int i = 0; i < json.Length; i++)
        {
            if (json[i] != '"')
            {
                result.Append(json[i]);
                continue;
            }

            int start = i;
            for (i++; json[i] != '"'; i++)
            {
                if (json[i] == '\\')
                {
                    i++;
                }
            }

            result.Append(replace(json[start..(i + 1)]));
        }

        return result.ToString();
    }

    // The oracle for a bridge: our string output written by the writer itself, each unpaired surrogate's escape (which
    // it cannot write back) first replaced by U+FFFD. The one exception: at the root of a call inside the caller's
    // array, a string with an unpaired surrogate goes to the Utf8JsonWriter with no line break before it.
    internal static void WriteReference(Utf8JsonWriter writer, string json, bool unknownPlace)
    {
        string replaced = SystemTextJsonTests.ReplaceUnpairedSurrogateEscapes(json);
        if (unknownPlace && json.StartsWith('"') && replaced != json)
        {
            writer.WriteRawValue(json, skipInputValidation: true);
            return;
        }

        WriteParsed(writer, replaced);
    }

    // JSON text written by the writer itself.
    private static void WriteParsed(Utf8JsonWriter writer, string json)
    {
        using JsonDocument document = JsonDocument.Parse(json, s_parseOptions);
        document.RootElement.WriteTo(writer);
    }

    private static void WriteNode(Utf8JsonWriter writer, JsonNode? node)
    {
        if (node is null)
        {
            writer.WriteNullValue();
            return;
        }

        node.WriteTo(writer);
    }

    internal static string Write(Action<Utf8JsonWriter> writeValue, JsonWriterOptions? options = null, Position position = Position.Root)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, options ?? new JsonWriterOptions { Indented = true, NewLine = "\n" }))
        {
            switch (position)
            {
                case Position.Root:
                    writeValue(writer);
                    break;
                case Position.FirstInArray:
                    writer.WriteStartArray();
                    writeValue(writer);
                    writer.WriteNumberValue(0);
                    writer.WriteEndArray();
                    break;
                case Position.InNestedArray:
                    writer.WriteStartArray();
                    writer.WriteStartArray();
                    writer.WriteStringValue("before");
                    writeValue(writer);
                    writer.WriteEndArray();
                    writer.WriteEndArray();
                    break;
                default:
                    writer.WriteStartObject();
                    writer.WritePropertyName("value");
                    writeValue(writer);
                    writer.WriteNumber("after", 0);
                    writer.WriteEndObject();
                    break;
            }
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    // A CLR object, which Jint wraps, for the host serializer to write.
    private sealed class Poco
    {
        public int A { get; set; } = 1;
    }

    // A record that holds a node, as a host's own model would.
    public sealed record NodeHolder(JsonNode? Node);
}
