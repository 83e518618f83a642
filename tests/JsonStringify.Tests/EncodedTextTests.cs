using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Unicode;
using Jint;
using Jint.Native;
using Position = JsonStringify.Tests.IndentedWriterTests.Position;

namespace JsonStringify.Tests;

/// <summary>
/// Into a <see cref="Utf8JsonWriter"/> with the default encoder, a value goes in as the writer's own bytes: every
/// conformance row and golden case, in every place of the caller's document, compact and indented, must give the bytes
/// the writer gives for our string output parsed and written back (the oracle), strings and layout alike. A string with
/// an unpaired surrogate, which the writer cannot write back, is compared by value, with U+FFFD for that surrogate. An
/// encoder made for Basic Latin escapes exactly as the default one does, but is another instance, so the encoded names
/// the bridge keeps are made again for it: a writer with it must give the same bytes too.
/// </summary>
public class EncodedTextTests
{
    public enum Layout
    {
        Compact,
        TwoSpaces,
        TabCrLf,
    }

    // Deeper than any golden case, plus the caller's own two levels.
    private const int Depth = 10_003;

    public static TheoryData<string, Layout> ConformanceRows =>
        TheoryRows.EachWithEvery<Layout>(ConformanceTests.Cases.Select(row => (string)row[0]));

    public static TheoryData<string, Layout> GoldenRows => TheoryRows.EachWithEvery<Layout>(V8GoldenTests.Data.CaseNames);

    [Theory]
    [MemberData(nameof(ConformanceRows))]
    public void ConformanceRowsGoInAsTheWritersOwnBytes(string script, Layout layout) =>
        AssertSameBytes(script, layout, options: null);

    [Theory]
    [MemberData(nameof(GoldenRows))]
    public void GoldenCasesGoInAsTheWritersOwnBytes(string name, Layout layout) =>
        AssertSameBytes(V8GoldenTests.Data.CasesByName[name].Script, layout, V8GoldenTests.SerializerOptions);

    [Theory]
    [InlineData("JSON.stringify(JSON.parse('[{\"a+b\": 1, \"<c>\": \"&\", \"é\": [\"\u2028\"]}, {\"a+b\": 2, \"<c>\": 3, \"é\": 4}]'))")]
    [InlineData("JSON.stringify([{'x\\'y': 1, 'plain': 2, '`': 3}, {'x\\'y': 1, 'plain': 2, '`': 3}])")]
    [InlineData("JSON.stringify({outer: {'a&b': 1, ok: 2}, list: [{'a&b': 3, ok: 4}]}, ['outer', 'list', 'a&b', 'ok'])")]
    [InlineData("JSON.stringify({'\"q\"': {'\"q\"': 1}, 'long name with + in it and more': 'and a value with < and > in it'})")]
    [InlineData("const o = {}; for (let i = 0; i < 80; i++) o['k+' + i] = i; JSON.stringify([o, o])")]
    [InlineData("JSON.stringify({'\\ud800': 1, 'x\\udc00y': [2]})")]
    public void NamesOfClassesTablesAndPropertyListsAreTheWritersOwn(string script) => AssertSameBytesInEveryLayout(script);

    [Theory]
    [InlineData("JSON.stringify(['é<'.repeat(20000) + '\\ud800' + 'x+', 'after'])")]
    [InlineData("JSON.stringify({a: 'a'.repeat(700) + '\\udc00', b: '\\ud800' + 'b'.repeat(40000), c: 'c&'.repeat(9000)})")]
    [InlineData("JSON.stringify({['k'.repeat(800) + '\\ud800']: 'é'.repeat(800) + '\\udbff\\udfff'})")]
    public void LongStringsWithAnUnpairedSurrogateAreTheTokenOutputsToo(string script) => AssertSameBytesInEveryLayout(script);

    [Fact]
    public void RawTextWithAnUnpairedSurrogateHasUFFFDWithEitherEncoder()
    {
        // A literal unpaired surrogate in raw text below the root, short and past the char buffer, into writers that
        // skip validation (which take raw text as it is) and one that does not: U+FFFD, as the UTF-8 sinks write it (an
        // indented writer that validates lays the text out, escaping it with its encoder).
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue shortText = engine.Evaluate("({a: JSON.rawJSON('\"x\\ud800\"')})");
        JsValue longText = engine.Evaluate("({a: 'b'.repeat(5000), c: JSON.rawJSON('\"x\\ud800\"')})");
        foreach (JsValue value in (JsValue[])[shortText, longText])
        {
            foreach (Layout layout in Enum.GetValues<Layout>())
            {
                foreach (bool skipValidation in (bool[])[true, false])
                {
                    JsonWriterOptions text = Options(layout, encoder: null) with { SkipValidation = skipValidation };
                    JsonWriterOptions tokens = Options(layout, JavaScriptEncoder.Create(UnicodeRanges.BasicLatin)) with { SkipValidation = skipValidation };
                    string? expected = Write(serializer, value, null, tokens, Position.Root);
                    Assert.Equal(expected, Write(serializer, value, null, text, Position.Root));
                    using JsonDocument written = JsonDocument.Parse(expected!);
                    Assert.Equal("x\uFFFD", written.RootElement.EnumerateObject().Last().Value.GetString());
                }
            }
        }
    }

    [Fact]
    public void EveryCharIsEscapedAsTheWriterEscapesIt()
    {
        // Every UTF-16 code unit but U+D800 (written as 'a'), in texts of 97 chars, as values and as names, then pairs
        // and unpaired surrogates among other chars.
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        var chars = new char[0x10000];
        for (int i = 0; i < chars.Length; i++)
        {
            chars[i] = (char)i;
        }

        var texts = new List<string>();
        for (int i = 0; i < chars.Length; i += 97)
        {
            string text = new(chars, i, Math.Min(97, chars.Length - i));
            texts.Add(text.Replace('\uD800', 'a'));
        }

        texts.Add("a😀b\uDBFF\uDFFF<script>&'+`\"\\\u007F\u0080");
        texts.Add("\uD800x\uDC00y");
        texts.Add(new string('é', 5000) + "\"" + new string('+', 5000));
        foreach (string text in texts)
        {
            var value = new JsArray(engine, [new JsString(text), JsValue.FromObject(engine, new Dictionary<string, object> { [text] = 1 })]);
            foreach (Layout layout in Enum.GetValues<Layout>())
            {
                AssertWritersOwn(serializer, value, layout);
            }
        }
    }

    // Every length up to nine blocks of 16 chars (past the longest value the writer copies inline), clean and with each
    // kind of char the writer escapes (or not: a valid pair, plain ASCII) at every position, as values and as names.
    [Fact]
    public void StringsOfEveryShortLengthAreTheWritersOwn()
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        string[] specials = ["\"", "\\", "\n", "\u0001", "\u007f", "<", ">", "&", "'", "+", "`", "\u00e9", "\u2028", "\ud83d\ude00", "\ud800", " "];
        foreach (string text in StringVariants.UpToBlocks(9, specials))
        {
            var value = new JsArray(engine, [new JsString(text), JsValue.FromObject(engine, new Dictionary<string, object> { [text] = 1 })]);
            AssertWritersOwn(serializer, value, Layout.Compact);
        }
    }

    // One value after a name in the caller's object: the oracle's bytes, and the same with either encoder.
    private static void AssertWritersOwn(JsonSerializer serializer, JsValue value, Layout layout)
    {
        string? text = WriteText(serializer, value, layout, Position.AfterName);
        Assert.Equal(WriteTokens(serializer, value, layout, Position.AfterName), text);
        string? reference = WriteReference(serializer, value, layout, Position.AfterName, JsValue.Undefined);
        Assert.Equal(WithUnpairedSurrogatesAsUFFFD(reference!), WithUnpairedSurrogatesAsUFFFD(text!));
    }

    private static void AssertSameBytesInEveryLayout(string script)
    {
        foreach (Layout layout in Enum.GetValues<Layout>())
        {
            AssertSameBytes(script, layout, options: null);
        }
    }

    // The script's result and every text JSON.stringify made, written by the oracle and by the bridge with each
    // encoder, in each place.
    private static void AssertSameBytes(string script, Layout layout, JsonSerializerOptions? options)
    {
        foreach (Position position in Enum.GetValues<Position>())
        {
            var oracle = new List<string>();
            var basicLatin = new List<string>();
            var actual = new List<string>();
            string oracleResult = Js.Run(EngineWith((s, v, r) => WriteReference(s, v, layout, position, r), options, oracle), script);
            string basicLatinResult = Js.Run(EngineWith((s, v, r) => WriteTokens(s, v, layout, position, r), options, basicLatin), script);
            string actualResult = Js.Run(EngineWith((s, v, r) => WriteText(s, v, layout, position, r), options, actual), script);
            Assert.Equal(basicLatinResult, actualResult);
            Assert.Equal(basicLatin, actual);

            // JSON.rawJSON's text goes in as it is spelled
            // (SystemTextJsonTests.RawTextFromJsonRawJsonAndTheHostIsKept), which the oracle, writing parsed values,
            // cannot know.
            if (!script.Contains("rawJSON", StringComparison.Ordinal))
            {
                Assert.Equal(oracleResult, actualResult);
                Assert.Equal(oracle, actual);
            }
        }
    }

    private static Engine EngineWith(Func<JsonSerializer, JsValue, JsValue, string?> write, JsonSerializerOptions? options, List<string> texts) =>
        Js.WithStringify(
            (serializer, value, replacer, _) =>
            {
                string? text = write(serializer, value, replacer);
                if (text is null)
                {
                    return JsValue.Undefined;
                }

                text = WithUnpairedSurrogatesAsUFFFD(text);
                texts.Add(text);
                return new JsString(text);
            },
            options);

    // Our string output, parsed and written by the writer itself, each unpaired surrogate's escape (which it cannot
    // write back) first replaced by U+FFFD; null where JSON.stringify gives undefined.
    private static string? WriteReference(JsonSerializer serializer, JsValue value, Layout layout, Position position, JsValue replacer)
    {
        if (serializer.SerializeToString(value, replacer) is not { } json)
        {
            return null;
        }

        // The bridge is the writer: at the root of a call inside the caller's array, a string with an unpaired
        // surrogate goes in raw, without the line break before it.
        bool unknownPlace = position is Position.FirstInArray or Position.InNestedArray;
        return IndentedWriterTests.Write(
            writer => IndentedWriterTests.WriteReference(writer, json, unknownPlace),
            Options(layout, encoder: null),
            position);
    }

    // The bridge writes a string value with an unpaired surrogate as JSON.stringify's text (its own escapes, the rest
    // raw), the writer (as the oracle, and for names) U+FFFD escaped, and the rest of the string with its encoder: each
    // string token with either is compared by value, those surrogates as U+FFFD, in one spelling.
    private static string WithUnpairedSurrogatesAsUFFFD(string text) =>
        !text.Contains("\\ud", StringComparison.OrdinalIgnoreCase) && !text.Contains("\\uFFFD", StringComparison.Ordinal)
            ? text
            : IndentedWriterTests.WithEachString(text, token =>
            {
                string replaced = SystemTextJsonTests.ReplaceUnpairedSurrogateEscapes(token);
                return replaced != token || token.Contains("\\uFFFD", StringComparison.Ordinal)
                    ? System.Text.Json.JsonSerializer.Serialize(JsonDocument.Parse(replaced).RootElement.GetString())
                    : token;
            });

    private static string? WriteText(JsonSerializer serializer, JsValue value, Layout layout, Position position, JsValue? replacer = null) =>
        Write(serializer, value, replacer, Options(layout, encoder: null), position);

    private static string? WriteTokens(JsonSerializer serializer, JsValue value, Layout layout, Position position, JsValue? replacer = null) =>
        Write(serializer, value, replacer, Options(layout, JavaScriptEncoder.Create(UnicodeRanges.BasicLatin)), position);

    private static string? Write(JsonSerializer serializer, JsValue value, JsValue? replacer, JsonWriterOptions options, Position position) =>
        IndentedWriterTests.WriteOrNull(serializer, value, replacer ?? JsValue.Undefined, options, position);

    private static JsonWriterOptions Options(Layout layout, JavaScriptEncoder? encoder) => layout switch
    {
        Layout.Compact => new() { Encoder = encoder, MaxDepth = Depth },
        Layout.TwoSpaces => new() { Encoder = encoder, Indented = true, NewLine = "\n", MaxDepth = Depth },
        _ => new() { Encoder = encoder, Indented = true, IndentCharacter = '\t', IndentSize = 1, NewLine = "\r\n", MaxDepth = Depth },
    };
}
