using System.Buffers;
using System.Reflection;
using System.Text.Encodings.Web;
using System.Text.Json;
using Jint;
using Jint.Native;
using Jint.Runtime;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// Which length limit each overload holds the output to: a result that becomes a JavaScript string (the installed
/// JSON.stringify, Serialize returning a JsValue) the longest JavaScript string, 536,870,888 chars as in V8 and Jint;
/// SerializeToString the longest .NET string; the streaming overloads MaxLength only. An array whose shortest text
/// (2 × length + 1 chars) cannot fit is a RangeError as soon as its length is read, before any element: a proxy that
/// reports a length and throws "stop" at its first element tells which limit was in force without writing anything.
/// </summary>
public class StringLimitTests
{
    public enum Way
    {
        Script,
        SerializeToJsValue,
        SerializeToString,
        BufferWriter,
        Stream,
        TextWriter,
    }

    private const string RangeError = "RangeError: Invalid string length";
    private const string Stopped = "stop";

    public static TheoryData<Way, string, string, long, string> ProxyRows
    {
        get
        {
            var rows = new TheoryData<Way, string, string, long, string>();
            foreach (Way way in Enum.GetValues<Way>())
            {
                // The proxy alone, or after "[[]," (compact) or "[\n  [],\n  " (a space of 2) already written, or after
                // "[0," or "[\n  0,\n  ": an odd length before it, so that the longest array that fits ends exactly at
                // each limit, whichever its parity (a shortest text is always odd: 2n + 1 chars).
                foreach ((string value, string space, long written) in new[]
                {
                    ("p", "undefined", 0L), ("p", "2", 0L), ("[[], p]", "undefined", 4L), ("[[], p]", "2", 10L),
                    ("[0, p]", "undefined", 3L), ("[0, p]", "2", 9L),
                })
                {
                    long[] lengths =
                    [
                        268_435_445, (1L << 32) + 1,
                        LongestArrayAfter(JsonConstants.MaxJsStringLength, written), LongestArrayAfter(JsonConstants.MaxJsStringLength, written) + 1,
                        LongestArrayAfter(JsonConstants.MaxStringLength, written), LongestArrayAfter(JsonConstants.MaxStringLength, written) + 1,
                    ];
                    foreach (long length in lengths)
                    {
                        bool fits = length <= LongestArrayAfter(LimitOf(way), written);
                        rows.Add(way, value, space, length, fits ? Stopped : RangeError);
                    }
                }
            }

            return rows;
        }
    }

    public static TheoryData<string> LongArrays => new()
    {
        "new Array(268435445)",
        "[new Array(268435445)]",
        "({a: [1, 2, 3], b: new Array(268435445)})",
        "new Array(2 ** 32 - 1)",
        "[[[new Array(300000000)]]]",
    };

    // Each way, with and without a space, the array first or after other text: RangeError exactly when the shortest
    // text cannot fit in that way's limit, and then nothing but toJSON and length was read.
    [Theory]
    [MemberData(nameof(ProxyRows))]
    public void AnArrayPastTheLimitInForceIsARangeErrorBeforeItsElementsAreRead(Way way, string wrapped, string space, long length, string expected)
    {
        using Engine engine = Js.Ours();
        var serializer = new JsonSerializer(engine);
        engine.Execute("var log = []; var p = new Proxy([], {get: function (t, k) { log.push(String(k)); if (k === 'length') return " + length
            + "; if (k === '0') throw 'stop'; return undefined; }});");
        JsValue value = engine.Evaluate(wrapped);

        string outcome = Outcome(engine, serializer, way, value, engine.Evaluate(space), wrapped, space);

        Assert.Equal(expected, outcome);
        Assert.Equal(expected == RangeError ? "toJSON,length" : "toJSON,length,0", engine.Evaluate("log.join()").ToString());
    }

    // The arrays of the issue, plain ones: a RangeError at once, through both JS string ways, with or without a space.
    // The pool fails the test if the walk writes more than a few chunks, so a walk that does not stop at the length
    // fails quickly instead of writing gigabytes.
    [Theory]
    [MemberData(nameof(LongArrays))]
    public void ALongArrayIsARangeErrorWithoutWritingIt(string array)
    {
        foreach (Way way in new[] { Way.Script, Way.SerializeToJsValue })
        {
            foreach (string space in new[] { "undefined", "'\\t'" })
            {
                var pool = new BudgetCharPool(budget: 1 << 20);
                using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { CharPool = pool });
                var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });
                JsValue value = engine.Evaluate(array);

                Assert.Equal(RangeError, Outcome(engine, serializer, way, value, engine.Evaluate(space), array, space));
                Assert.Equal(pool.Rented, pool.Returned);
            }
        }
    }

    // Names longer than the escaper's slice (65,536 chars) are quoted a slice at a time: a property list's and an
    // object literal's, with a pair and two escapes every four chars from the fourth on (so a pair across the first
    // slice's edge, which the slice leaves to the next) and an unpaired surrogate at the end, give Jint's own
    // serializer's text.
    [Theory]
    [InlineData(65_535)]
    [InlineData(65_536)]
    [InlineData(65_537)]
    [InlineData(200_001)]
    public void LongNamesAreQuotedInSlices(int length)
    {
        string script = $$"""
            var k = ('ab"' + '\ud83d\ude00\n"'.repeat({{length}} / 4 + 1)).slice(0, {{length}} - 1) + '\ud800';
            var o = {}; o[k] = k; o.x = 1;
            [JSON.stringify(o, [k, 'x']), JSON.stringify({[k]: 1, y: 2}), JSON.stringify(o)].join('|')
            """;
        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        string expected = Js.Run(builtin, script);
        Assert.True(expected.Length > 3 * length, "the names are in the text");
        Assert.Equal(expected, Js.Run(ours, script));
    }

    // MaxLength below the engine's limit still applies to a JS string result, and to the other ways.
    [Fact]
    public void MaxLengthBelowTheEnginesLimitStillApplies()
    {
        using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { MaxLength = 100 });
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = 100 });
        engine.Execute("var p = new Proxy([], {get: function (t, k) { if (k === 'length') return 50; if (k === '0') throw 'stop'; return undefined; }});");
        JsValue proxy = engine.GetValue("p");
        foreach (Way way in Enum.GetValues<Way>())
        {
            Assert.Equal(RangeError, Outcome(engine, serializer, way, proxy, JsValue.Undefined, "p"));
        }

        Assert.Equal("100", Js.Run(engine, "String(JSON.stringify('x'.repeat(98)).length)"));
        Assert.Equal(RangeError, Js.Run(engine, "JSON.stringify('x'.repeat(99))"));
    }

    // A long string that needs no escaping goes to the sink whole only where the text so far and the string fit within
    // MaxLength: one that makes the text exactly the limit is written, one char more is a RangeError, as for strings
    // copied in slices, and every way agrees. A longer one goes in slices and stops at the limit: a text writer gets no
    // more than the limit and a buffer (4K chars), not the whole string, and a UTF-8 buffer writer no more than that in
    // bytes.
    [Fact]
    public void MaxLengthHoldsForLongStringsWrittenWhole()
    {
        const int Limit = 5_004;
        using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { MaxLength = Limit });
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = Limit });

        // The limit counts chars, not bytes: strings of chars that are not ASCII, alone and after ASCII, take as much
        // of it as their length.
        engine.Execute("var fits = ['x'.repeat(5000)], over = ['x'.repeat(5001)], overAfter = ['x'.repeat(4000), 'y'.repeat(1000)];");
        engine.Execute("var fitsCyrillic = ['\u0416'.repeat(5000)], overCyrillic = ['\u0416'.repeat(5001)];");
        engine.Execute("var fitsMixed = ['x'.repeat(2000) + '\u0416'.repeat(3000)], overMixed = ['x'.repeat(2000) + '\u0416'.repeat(3001)];");
        engine.Execute("var overAfterCyrillic = ['x'.repeat(4000), '\u0416'.repeat(1000)];");
        foreach (Way way in Enum.GetValues<Way>())
        {
            foreach (string name in new[] { "fits", "fitsCyrillic", "fitsMixed" })
            {
                string fits = Outcome(engine, serializer, way, engine.GetValue(name), JsValue.Undefined, name);
                Assert.True(fits is "(written)" || fits.Length == Limit, $"{way}, {name}: {fits[..Math.Min(40, fits.Length)]}");
            }

            foreach (string name in new[] { "over", "overAfter", "overCyrillic", "overMixed", "overAfterCyrillic" })
            {
                Assert.Equal(RangeError, Outcome(engine, serializer, way, engine.GetValue(name), JsValue.Undefined, name));
            }
        }

        var written = new StringWriter();
        Assert.Throws<JavaScriptException>(() => serializer.Serialize(engine.Evaluate("['x'.repeat(1000000)]"), JsValue.Undefined, JsValue.Undefined, written));
        Assert.InRange(written.GetStringBuilder().Length, 0, Limit + 4096);

        // Whole, in one write, where "[\"" and the string fit; in slices of a buffer at most where they do not.
        var whole = new LongestWriteWriter();
        Assert.True(serializer.Serialize(engine.Evaluate("['x'.repeat(5000)]"), JsValue.Undefined, JsValue.Undefined, whole));
        Assert.Equal(5000, whole.LongestWrite);
        var sliced = new LongestWriteWriter();
        Assert.Throws<JavaScriptException>(() => serializer.Serialize(engine.Evaluate("['x'.repeat(5003)]"), JsValue.Undefined, JsValue.Undefined, sliced));
        Assert.InRange(sliced.LongestWrite, 1, 4096);

        // Nor does a buffer writer get the whole of a string that is not ASCII: no more than the limit and a buffer,
        // in bytes of up to three a char.
        var bytes = new ArrayBufferWriter<byte>();
        Assert.Throws<JavaScriptException>(() => serializer.Serialize(engine.Evaluate("['\u0416'.repeat(1000000)]"), JsValue.Undefined, JsValue.Undefined, bytes));
        Assert.InRange(bytes.WrittenCount, 0, 3 * (Limit + 4096));
    }

    // The limit counts chars in every kind of text the UTF-8 writer encodes, as the string path does: short strings and
    // names that are not ASCII (with escapes, pairs and unpaired surrogates), names quoted per hidden class, raw text,
    // and gaps that are not ASCII or have half a pair (one U+FFFD each). Text of exactly the limit is written, one char
    // less is a RangeError, through every way.
    [Theory]
    [InlineData("Array.from({length: 400}, (_, i) => 'é\"ж😀\\n' + i + '\\ud800ж'.repeat(i % 40))", "undefined")]
    [InlineData("JSON.parse('[' + Array.from({length: 300}, (_, i) => '{\"имя\":\"значение ' + i + '\",\"é\\\\n😀\":[' + i + ',\"' + 'ж'.repeat(i % 70) + '\"]}').join(',') + ']')", "undefined")]
    [InlineData("Array.from({length: 300}, (_, i) => ({['ключ' + i]: 'ж', n: i}))", "'é\\t'")]
    [InlineData("[[JSON.rawJSON('\"жж😀\"')], {a: [[1, 'é']]}]", "'\\ude00ж\\ud83d'")]
    public void TheLimitCountsCharsOfTextThatIsNotAscii(string script, string spaceScript)
    {
        using var unlimited = new Engine();
        int length = new JsonSerializer(unlimited).SerializeToString(unlimited.Evaluate(script), null, unlimited.Evaluate(spaceScript))!.Length;
        foreach (long limit in new long[] { length, length - 1 })
        {
            using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { MaxLength = limit });
            var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = limit });
            JsValue value = engine.Evaluate(script);
            JsValue space = engine.Evaluate(spaceScript);
            foreach (Way way in Enum.GetValues<Way>())
            {
                string outcome = Outcome(engine, serializer, way, value, space, script, spaceScript);
                if (limit == length)
                {
                    Assert.True(outcome is "(written)" || outcome.Length == length, $"{way} at the limit: {outcome[..Math.Min(40, outcome.Length)]}");
                }
                else
                {
                    Assert.Equal(RangeError, outcome);
                }
            }
        }
    }

    // An array of holes, undefined, functions or symbols is all nulls, 5 chars an element, against the 2 of its
    // shortest text: the walk stops once the output passes MaxLength, as for any other value, rather than at the
    // array's end.
    [Theory]
    [InlineData("new Array(1000000)")]
    [InlineData("new Array(1000000).fill(undefined)")]
    [InlineData("new Array(1000000).fill(function () {})")]
    [InlineData("new Array(1000000).fill(Symbol())")]
    [InlineData("[1, 2, 3].concat(new Array(1000000))")]
    public void NullsFromValuesWithoutJsonCountTowardsTheLimit(string array)
    {
        const int MaxLength = 2_500_000;
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = MaxLength });
        JsValue value = engine.Evaluate(array);
        var stream = new CountingStream();

        var e = Assert.Throws<JavaScriptException>(() => serializer.Serialize(value, stream));

        Assert.Equal(RangeError, Js.ErrorText(e));
        Assert.InRange(stream.Length, MaxLength - (64 * 1024), MaxLength + (64 * 1024));
    }

    // Jint's own limit, release by release: 4.16.1 and later keep it as an internal constant of JsString, and refuse a
    // longer string before they allocate it; 4.16.0 has none (its JSON.stringify of new Array(268435445) ran out of
    // memory after 36 s), and there the library holds JavaScript strings to V8's limit all the same.
    [Fact]
    public void TheJsStringLimitIsJintsOwn()
    {
        Version jint = typeof(Engine).Assembly.GetName().Version!;
        FieldInfo? field = typeof(JsString).GetField("MaxLength", BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static);
        if (jint < new Version(4, 16, 1))
        {
            Assert.Null(field);
            return;
        }

        Assert.NotNull(field);
        Assert.True(field.IsLiteral);
        Assert.Equal(JsonConstants.MaxJsStringLength, (int)field.GetRawConstantValue()!);

        // The constant is the one Jint enforces: one char more is refused at once, with the error the library throws.
        using var engine = new Engine();
        Assert.Equal(RangeError, Js.Run(engine, "'x'.repeat(" + (JsonConstants.MaxJsStringLength + 1) + ")"));
        Assert.Equal(RangeError, Js.Run(engine, "'xy'.padEnd(" + (JsonConstants.MaxJsStringLength + 1) + ")"));
        Assert.Equal(RangeError, Js.Run(engine, "JSON.stringify(new Array(268435445))"));
    }

    // The longest array whose shortest text, 2 × length + 1 chars, fits in limit after written chars.
    private static long LongestArrayAfter(long limit, long written) => (limit - written - 1) / 2;

    private static long LimitOf(Way way) => way switch
    {
        Way.Script or Way.SerializeToJsValue => JsonConstants.MaxJsStringLength,
        Way.SerializeToString => JsonConstants.MaxStringLength,
        _ => long.MaxValue,
    };

    // "RangeError: Invalid string length", "stop" (the proxy's element was read), or the JSON text.
    private static string Outcome(Engine engine, JsonSerializer serializer, Way way, JsValue value, JsValue space, string script, string spaceScript = "undefined")
    {
        if (way == Way.Script)
        {
            return Js.Run(engine, "try { JSON.stringify(" + script + ", undefined, " + spaceScript + ") } catch (e) { e instanceof RangeError ? 'RangeError: ' + e.message : String(e) }");
        }

        try
        {
            return way switch
            {
                Way.SerializeToJsValue => serializer.Serialize(value, JsValue.Undefined, space).ToString(),
                Way.SerializeToString => serializer.SerializeToString(value, null, space)!,
                Way.BufferWriter => Write(w => serializer.Serialize(value, JsValue.Undefined, space, w)),
                Way.Stream => serializer.Serialize(value, JsValue.Undefined, space, new CountingStream()) ? "(written)" : "(nothing)",
                _ => WriteText(t => serializer.Serialize(value, JsValue.Undefined, space, t)),
            };
        }
        catch (JavaScriptException e)
        {
            return e.Error.IsString() ? e.Error.ToString() : Js.ErrorText(e);
        }
    }

    private static string Write(Func<ArrayBufferWriter<byte>, bool> write)
    {
        var writer = new ArrayBufferWriter<byte>();
        write(writer);
        return System.Text.Encoding.UTF8.GetString(writer.WrittenSpan);
    }

    private static string WriteText(Func<StringWriter, bool> write)
    {
        using var writer = new StringWriter();
        write(writer);
        return writer.ToString();
    }

    /// <summary>
    /// A char pool over the shared one that fails the test once more than <c>budget</c> chars are out.
    /// </summary>
    private sealed class BudgetCharPool(long budget) : ArrayPool<char>
    {
        private long _outstanding;

        public int Rented { get; private set; }

        public int Returned { get; private set; }

        public override char[] Rent(int minimumLength)
        {
            char[] array = Shared.Rent(minimumLength);
            _outstanding += array.Length;
            Rented++;
            Assert.True(_outstanding <= budget, "the walk wrote on past the length it could have refused");
            return array;
        }

        public override void Return(char[] array, bool clearArray = false)
        {
            _outstanding -= array.Length;
            Returned++;
            Shared.Return(array, clearArray);
        }
    }

    /// <summary>
    /// A <see cref="StringWriter"/> that keeps the length of the longest span of chars written at once.
    /// </summary>
    private sealed class LongestWriteWriter : StringWriter
    {
        public int LongestWrite { get; private set; }

        public override void Write(ReadOnlySpan<char> buffer)
        {
            LongestWrite = Math.Max(LongestWrite, buffer.Length);
            base.Write(buffer);
        }

        public override void Write(char[] buffer, int index, int count)
        {
            LongestWrite = Math.Max(LongestWrite, count);
            base.Write(buffer, index, count);
        }

        public override void Write(string? value)
        {
            LongestWrite = Math.Max(LongestWrite, value?.Length ?? 0);
            base.Write(value);
        }
    }
}

/// <summary>Results at the JavaScript string limit itself, which need a gigabyte or two.</summary>
[Collection(MemoryHeavyDefinition.Name)]
public class StringLimitHeavyTests
{
    // [s, …, s, t] with one 1M-char string s (ending in a line break to escape, so that it is copied in slices rather
    // than kept whole), and t as long as makes the text exactly the limit: a JS string of the longest length there is;
    // one char more is a RangeError, noticed in t's copy, before the output outgrows the limit.
    [Fact]
    public void AResultOfExactlyTheLimitIsAStringAndOneCharMoreIsARangeError()
    {
        var pool = new CountingCharPool();
        using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { CharPool = pool });
        engine.Execute($$"""
            var m = 1 << 20, limit = {{JsonConstants.MaxJsStringLength}};
            var k = Math.floor((limit - 4) / (m + 4));
            var s = 'x'.repeat(m - 1) + '\n';
            function text(extra) { var a = new Array(k).fill(s); a.push('y'.repeat(limit - 4 - k * (m + 4) + extra)); return a; }
            """);

        Assert.Equal(JsonConstants.MaxJsStringLength.ToString(System.Globalization.CultureInfo.InvariantCulture), Js.Run(engine, "String(JSON.stringify(text(0)).length)"));
        Assert.Equal("RangeError: Invalid string length", Js.Run(engine, "JSON.stringify(text(1))"));
        Assert.Equal(pool.Rented, pool.Returned);
        Assert.InRange(pool.MaxOutstandingChars, JsonConstants.MaxJsStringLength - 1_000_000, (long)(JsonConstants.MaxJsStringLength * 1.01));
    }

    // A string past the longest a Utf8JsonWriter takes in one call (166,666,666 chars), as a property's value and as an
    // element, with chars of two and three bytes at its ends (not a pair, which the writer's encoder always escapes):
    // into the writer in segments, the same text as the other UTF-8 sinks write.
    [Fact]
    public void AStringLongerThanTheWriterTakesInOneCallGoesInWhole()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("var s = 'é' + 'a'.repeat(170000000) + '€'; ({s: s, t: [s]})");
        var written = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(written, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            Assert.True(serializer.Serialize(value, writer));
        }

        var expected = new ArrayBufferWriter<byte>();
        Assert.True(serializer.Serialize(value, expected));
        Assert.Equal((2 * (2 + 170_000_000 + 3 + 2)) + 13, expected.WrittenCount);
        Assert.True(expected.WrittenSpan.SequenceEqual(written.WrittenSpan));
    }

    // A string with an unpaired surrogate, written raw with JSON.stringify's escape: past a sixth of the longest raw
    // value the writer takes (715,827,882 chars), escaped a slice at a time into a buffer of its exact length.
    [Fact]
    public void ALongStringWithAnUnpairedSurrogateGoesInWithItsEscape()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue value = engine.Evaluate("['\\n' + 'a'.repeat(360000000) + '\\ud800']");
        var written = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(written))
        {
            Assert.True(serializer.Serialize(value, writer));
        }

        ReadOnlySpan<byte> text = written.WrittenSpan;
        Assert.Equal(2 + 2 + 2 + 360_000_000 + 6, text.Length);
        Assert.True(text.StartsWith("[\"\\naaa"u8));
        Assert.True(text.EndsWith("aaa\\ud800\"]"u8));
        Assert.Equal(360_000_000, text.Count((byte)'a'));
    }

    // A property list's name of hundreds of millions of chars, whose escaper's worst-case buffer (six chars a char)
    // would pass the longest array: quoted a slice at a time, to JSON.stringify's text.
    [Fact]
    public void APropertyListNameOfHundredsOfMillionsOfCharsIsQuoted()
    {
        using Engine engine = Js.Ours();
        engine.Execute("var k = 'a'.repeat(360000000) + '\\n';");
        Assert.Equal("{}", Js.Run(engine, "JSON.stringify({x: 1}, [k])"));
        const string Script = """
            var s = JSON.stringify({[k]: 1}, [k]);
            s.length + '|' + (s === '{"' + k.slice(0, -1) + '\\n":1}')
            """;
        Assert.Equal("360000008|true", Js.Run(engine, Script));
    }

    // JSON.stringify(new Array(120000000)) would be 600,000,001 chars: past the JS limit, though its shortest text
    // (240,000,001) is not, so the walk runs until the output passes the limit, and stops there.
    [Fact]
    public void AnArrayWhoseTextOutgrowsTheLimitStopsAtTheLimit()
    {
        var pool = new CountingCharPool();
        using Engine engine = Js.Ours(serializerOptions: new JsonSerializerOptions { CharPool = pool });

        Assert.Equal("RangeError: Invalid string length", Js.Run(engine, "JSON.stringify(new Array(120000000))"));
        Assert.Equal(pool.Rented, pool.Returned);
        Assert.InRange(pool.MaxOutstandingChars, JsonConstants.MaxJsStringLength - 1_000_000, (long)(JsonConstants.MaxJsStringLength * 1.01));
    }
}
