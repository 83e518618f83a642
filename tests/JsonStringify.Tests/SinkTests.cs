using System.Buffers;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>
/// Every sink gives the string path's text: the conformance rows, the V8 golden cases, seeded random values and the
/// corpus all go through the IBufferWriter, Stream, async Stream and TextWriter overloads, decoded as strict UTF-8.
/// </summary>
public class SinkTests
{
    public enum Sink
    {
        BufferWriter,
        Stream,
        StreamAsync,
        TextWriter,
    }

    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static TheoryData<string, string, Sink> ConformanceRows
    {
        get
        {
            var rows = new TheoryData<string, string, Sink>();
            foreach (var row in ConformanceTests.Cases)
            {
                foreach (Sink sink in Enum.GetValues<Sink>())
                {
                    rows.Add((string)row[0], (string)row[1], sink);
                }
            }

            return rows;
        }
    }

    public static TheoryData<string, Sink> GoldenRows => TheoryRows.EachWithEvery<Sink>(V8GoldenTests.Data.CaseNames);

    public static TheoryData<Sink> Sinks => new(Enum.GetValues<Sink>());

    [Theory]
    [MemberData(nameof(ConformanceRows))]
    public void ConformanceRowsMatchThroughEverySink(string script, string expected, Sink sink)
    {
        expected = ConformanceTests.ExpectedOnThisRelease(script, expected);
        string actual = Js.Run(EngineWith(sink), script);
        if (expected is "TypeError" or "RangeError")
        {
            Assert.StartsWith(expected + ":", actual, StringComparison.Ordinal);
        }
        else
        {
            Assert.Equal(expected, actual);
        }
    }

    // The reference is the string path's text as UTF-8 can carry it: an unpaired surrogate, which only a gap cut by
    // the 10-char limit or raw host text can put outside a JSON string, becomes U+FFFD.
    [Theory]
    [MemberData(nameof(GoldenRows))]
    public void GoldenCasesMatchThroughEverySink(string name, Sink sink)
    {
        GoldenCase golden = V8GoldenTests.Data.CasesByName[name];
        string expected = Js.Run(EngineWith(sink: null, V8GoldenTests.SerializerOptions), golden.Script);
        string actual = Js.Run(EngineWith(sink, V8GoldenTests.SerializerOptions), golden.Script);
        if (golden.Throws)
        {
            Assert.StartsWith(golden.Result + ":", actual, StringComparison.Ordinal);
        }
        else
        {
            Assert.Equal(expected, actual);
        }
    }

    [Theory]
    [MemberData(nameof(Sinks))]
    public void RandomValuesMatchTheStringPath(Sink sink)
    {
        using Engine strings = Js.Ours();
        using Engine sinks = EngineWith(sink);
        var generator = new ValueGenerator(seed: 7);
        for (int i = 0; i < 1000; i++)
        {
            string script = generator.NextScript();
            Assert.Equal(Js.Run(strings, script), Js.Run(sinks, script));
        }
    }

    // null, true, false, [] and {} are each one store of eight chars into the writer's 4,096-char buffer, which asks
    // for room for eight: a run of 300 of each after a string of 0 to 21 chars, so that each of them lands on every
    // place near the buffer's end (the five with their commas take 22 chars), compact and with space 2, through every
    // sink.
    [Theory]
    [MemberData(nameof(Sinks))]
    public void TokensAreWrittenAtEveryOffsetNearTheEndOfTheWritersBuffer(Sink sink)
    {
        using Engine engine = EngineWith(sink);
        for (int shift = 0; shift < 22; shift++)
        {
            string[] items = ['"' + new string('x', shift) + '"', .. Enumerable.Repeat<string[]>(["null", "true", "false", "[]", "{}"], 300).SelectMany(t => t)];
            string script = $"var a = ['x'.repeat({shift})]; for (let i = 0; i < 300; i++) {{ a.push(null, true, false, [], {{}}); }}";
            Assert.Equal("[" + string.Join(',', items) + "]", Js.Run(engine, script + " JSON.stringify(a)"));
            Assert.Equal("[\n  " + string.Join(",\n  ", items) + "\n]", Js.Run(engine, script + " JSON.stringify(a, null, 2)"));
        }
    }

    // Into UTF-8, a long string (over 682 chars: the writer's slices) goes straight in as escaped ASCII, a few chars
    // that are not ASCII among it, up to a block of 16 with more of them than that, and from there through the UTF-8
    // escaper (or the chars and the transcoder) until that leaves text as sparse as that again. Around one and two
    // slices, with each kind of char that needs escaping or is not ASCII near the cuts, text before and after it in the
    // writer's buffer, strings that are mostly not ASCII, and prose around the density that changes the way.
    [Theory]
    [MemberData(nameof(Sinks))]
    public void LongStringsAreTheUtf8OfTheString(Sink sink)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        string[] specials = ["\"", "\\", "\n", "\u0001", "\u007f", "\u00e9", "\u0416", "\u20ac", "\ud83d\ude00", "\ud800", "\udfff"];
        foreach (int length in new[] { 681, 682, 683, 1363, 1364, 1365 })
        {
            string clean = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + (i % 26))));
            Check(clean);
            foreach (string special in specials)
            {
                foreach (int at in new[] { 0, 1, 15, 16, 17, 665, 666, 680, 681, 682, 683, 698, 1363, 1364, length - 1, length })
                {
                    if (at <= length)
                    {
                        Check(clean.Insert(at, special));
                    }
                }

                Check(string.Concat(Enumerable.Repeat(special + "abcdefghijklmnopqrst", 100)));
            }
        }

        // Straight into the sink, slices are as long as the sink's span allows, up to 16,384 chars: strings past that,
        // with a pair, a char that is not ASCII and an escape around the cut.
        string longer = string.Concat(Enumerable.Range(0, 40_000).Select(i => (char)('a' + (i % 26))));
        Check(longer);
        foreach (int at in new[] { 16_383, 16_384, 16_385, 32_767, 32_768 })
        {
            Check(longer.Insert(at, "\ud83d\ude00"));
            Check(longer.Insert(at, "\u00e9"));
            Check(longer.Insert(at, "\n"));
        }

        // A char that is not ASCII, then an escape or an unpaired surrogate after it: each kind of char that is not
        // ASCII first, each kind of escape right after it, a slice's length on or at the end, among ASCII letters and
        // among Cyrillic.
        string[] notAscii = ["\u00e9", "\u20ac", "\ud83d\ude00"];
        string[] escapes = ["\"", "\n", "\ud800", "\udfff"];
        foreach (string first in notAscii)
        {
            foreach (string escape in escapes)
            {
                foreach ((int at, int escapeAt) in new[] { (0, 1), (0, 700), (5, 1400), (681, 682), (700, 1499), (1000, 1001) })
                {
                    string text = new('a', 1500);
                    Check(text.Insert(escapeAt, escape).Insert(at, first));
                    Check(text.Insert(escapeAt, escape).Insert(at, first).Replace('a', '\u0416'));
                }
            }
        }

        // Long strings of chars that are not ASCII, with a pair, an escape or an unpaired surrogate around 16,384 chars
        // and twice that, and runs of such chars of several lengths between escapes.
        string cyrillic = new('\u0416', 40_000);
        Check(cyrillic);
        foreach (int at in new[] { 16_382, 16_383, 16_384, 32_766, 32_767 })
        {
            Check(cyrillic.Insert(at, "\ud83d\ude00"));
            Check(cyrillic.Insert(at, "\n"));
            Check(cyrillic.Insert(at, "\ud800"));
        }

        foreach (int run in new[] { 1, 62, 63, 64, 65, 200 })
        {
            Check(string.Concat(Enumerable.Repeat(new string('\u0416', run) + "\n", 4000 / run)));
        }

        // ASCII stretches of every length around the 32 chars of two blocks of 16 and the 64 after which the UTF-8
        // escaper stops for ASCII, between chars that are not ASCII (one, or a pair) and escapes.
        foreach (int stretch in new[] { 14, 15, 16, 17, 30, 31, 32, 33, 34, 62, 63, 64, 65, 66, 100 })
        {
            Check(string.Concat(Enumerable.Repeat("\u00e9" + new string('a', stretch), 3000 / stretch)));
            Check(string.Concat(Enumerable.Repeat("\ud83d\ude00" + new string('a', stretch - 1) + "\n", 3000 / stretch)));
        }

        // Prose: blocks of 16 with three to six chars that are not ASCII (the ASCII escaper takes up to four in a block
        // in place), each kind of them, spread out or together, first in the block or not, with an escape or not.
        foreach (int others in new[] { 3, 4, 5, 6 })
        {
            foreach (string other in new[] { "\u00e9", "\u2019", "\ud83d\ude00" })
            {
                foreach (bool together in new[] { false, true })
                {
                    var block = new StringBuilder();
                    for (int k = 0; k < 16; k++)
                    {
                        bool isOther = together ? k < others : k % (16 / others) == 0 && k / (16 / others) < others;
                        block.Append(isOther ? other : ((char)('a' + k)).ToString());
                    }

                    string prose = string.Concat(Enumerable.Repeat(block.ToString(), 100));
                    Check(prose);
                    Check("xy" + prose);
                    Check(prose.Insert(901, "\"").Insert(300, "\n").Insert(7, "\\"));
                }
            }
        }

        // Several escapes in one block, and a char that is not ASCII right after escapes in the same block.
        Check(string.Concat(Enumerable.Repeat("a\"b\\c\nd\u0001", 200)));
        Check(string.Concat(Enumerable.Repeat("\n\n\"x\u00e9\"\n", 200)));
        Check(string.Concat(Enumerable.Repeat("\n\n\"x\ud83d\ude00\"\n", 200)));
        Check(string.Concat(Enumerable.Repeat("\u041f\u0440\u0438\u0432\u0435\u0442, ", 400)));
        Check(string.Concat(Enumerable.Repeat("plain text, then a line\n", 200)) + "\u00e9" + new string('x', 2000));

        void Check(string text)
        {
            var value = new JsString(text);
            var holder = new JsObject(engine);
            holder.Set("before", new JsString("\u00e9t\u00e9 " + text[..Math.Min(10, text.Length)]));
            holder.Set("long", value);
            holder.Set("list", new JsArray(engine, [value, JsNumber.Create(1), value]));
            foreach (JsValue document in new JsValue[] { value, holder })
            {
                byte[] expected = Encoding.UTF8.GetBytes(serializer.SerializeToString(document)!);
                (bool written, byte[] actual) = Bytes(serializer, sink, document, JsValue.Undefined, JsValue.Undefined);
                Assert.True(written);
                Assert.True(expected.AsSpan().SequenceEqual(actual), $"a string of {text.Length} chars differs through {sink}");
            }
        }
    }

    // The UTF-8 writer's short strings and names: every length up to past two of its 32-char blocks (and past the
    // 128 chars narrowed inline), clean and with each kind of char that is not ASCII, each escape and each unpaired
    // surrogate at every place, in ASCII and in text that mixes every width (so that a block of 16 or 32 has chars of
    // one, two and three bytes and pairs, the halves of a block of 16 its own mixes, and a pair falls across every
    // place a block is cut), as values and as names (quoted per hidden class, and plain), compact and indented with a
    // gap that is not ASCII.
    [Fact]
    public void ShortStringsAndNamesAreTheUtf8OfTheString()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        JsValue makeShaped = engine.Evaluate("(function (k, v) { const o = {}; o[k] = v; o.z = [v]; return JSON.parse(JSON.stringify(o)); })");
        string[] specials = ["\u00e9", "\u0416", "\u20ac", "\ud83d\ude00", "\"", "\\", "\n", "\u0001", "\ud800", "\udfff"];
        var texts = new List<string>();
        // Every width, a pair starting at each place in turn: its cycle of six chars and a pair is seven chars long.
        const string EveryWidth = "a\u00e9\u4e2d\ud83d\ude00b\u0416";
        foreach (int length in Enumerable.Range(0, 70).Concat([127, 128, 129, 130]))
        {
            string clean = string.Concat(Enumerable.Range(0, length).Select(i => (char)('a' + (i % 26))));
            string mixed = string.Concat(Enumerable.Repeat(EveryWidth, (length / EveryWidth.Length) + 1))[..length];
            texts.Add(new string('\u0416', length));
            texts.Add(new string('\u4e2d', length));
            foreach (string text in new[] { clean, mixed })
            {
                texts.Add(text);
                foreach (string special in specials)
                {
                    for (int at = 0; at <= length; at += length > 70 ? 9 : 1)
                    {
                        texts.Add(text.Insert(at, special));
                    }
                }
            }
        }

        foreach (string text in texts)
        {
            var value = new JsString(text);
            var plain = new JsObject(engine);
            plain.Set(text, value);
            plain.Set("next", JsNumber.Create(1));
            JsValue shaped = makeShaped.Call(JsValue.Undefined, [value, value]);
            foreach (JsValue document in new JsValue[] { value, new JsArray(engine, [value, value]), plain, shaped })
            {
                foreach (JsValue space in new JsValue[] { JsValue.Undefined, new JsString("\u00e9 ") })
                {
                    byte[] expected = s_strictUtf8.GetBytes(serializer.SerializeToString(document, null, space)!);
                    (bool written, byte[] actual) = Bytes(serializer, Sink.BufferWriter, document, JsValue.Undefined, space);
                    Assert.True(written);
                    Assert.True(expected.AsSpan().SequenceEqual(actual), $"'{text}' ({text.Length} chars) differs");
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Sinks))]
    public void CorpusBytesAreTheUtf8OfTheString(Sink sink)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        foreach (string file in new[] { "canada.json", "citm_catalog.json", "twitter.json" })
        {
            JsValue document = Corpus.Parse(engine, file);
            foreach (JsValue space in new JsValue[] { JsValue.Undefined, JsNumber.Create(2) })
            {
                byte[] expected = Encoding.UTF8.GetBytes(serializer.SerializeToString(document, null, space)!);
                (bool written, byte[] actual) = Bytes(serializer, sink, document, JsValue.Undefined, space);
                Assert.True(written);
                Assert.True(expected.AsSpan().SequenceEqual(actual), $"{file} differs through {sink}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(Sinks))]
    public void NothingIsWrittenWhenThereIsNoJsonForm(Sink sink)
    {
        using var engine = new Engine();
        (bool written, byte[] bytes) = Bytes(new JsonSerializer(engine), sink, engine.Evaluate("(function () {})"), JsValue.Undefined, JsValue.Undefined);
        Assert.False(written);
        Assert.Empty(bytes);
    }

    [Theory]
    [MemberData(nameof(Sinks))]
    public void AFailureMidwayReachesTheCallerAndLeavesAPrefix(Sink sink)
    {
        using var engine = new Engine();
        JsValue value = engine.Evaluate("var big = 'x'.repeat(100000); [big, big, {toJSON() { throw new TypeError('late'); }}]");
        var serializer = new JsonSerializer(engine);
        byte[]? partial = null;
        var e = Assert.Throws<JavaScriptException>(() => Bytes(serializer, sink, value, JsValue.Undefined, JsValue.Undefined, keepPartial: b => partial = b));
        Assert.Equal("TypeError: late", Js.ErrorText(e));
        Assert.NotNull(partial);
        Assert.True(partial.Length < 200_010);
        Assert.StartsWith("[\"xxxx", Encoding.UTF8.GetString(partial), StringComparison.Ordinal);
    }

    [Fact]
    public void LoneSurrogatesStayEscapedSoTheUtf8IsValid()
    {
        using var engine = new Engine();
        var writer = new ArrayBufferWriter<byte>();
        Assert.True(new JsonSerializer(engine).Serialize(engine.Evaluate("['\\ud800', '\\ud83d\\ude00', 'é']"), writer));
        Assert.Equal("[\"\\ud800\",\"\ud83d\ude00\",\"é\"]", s_strictUtf8.GetString(writer.WrittenSpan));
    }

    // Only raw text and a gap can put half a surrogate pair into the output (QuoteJSONString escapes every other one).
    // Through every UTF-8 overload it is U+FFFD, as Encoding.UTF8 encodes the string result; a pair is one code point,
    // also where two repetitions of a gap make it, and raw text longer than the writer's pieces of text is no different.
    // (Facts, not a theory: xunit does not carry lone surrogates through theory data intact.)
    [Fact]
    public void HalvesOfPairsInRawTextAndGapsAreUFFFDAsInTheUtf8OfTheString()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine);
        string[] raw =
        [
            "'\"x\\ud800\"'",
            "'\"\\udc00x\\ud83d\\ude00\\ud83d\"'",
            "'\"' + 'é'.repeat(5000) + '\\ud83d\\ude00' + 'a'.repeat(4090) + '\\ud83d\\ude00\\ud800' + '€'.repeat(3000) + '\\udfff\"'",
        ];
        string[] gaps = ["''", "'\\ud83d'", "'\\ude00a\\ud83d'", "'é\\ud83d\\ude00€'", "'\\udc00'"];
        foreach (string text in raw)
        {
            foreach (string gap in gaps)
            {
                JsValue value = engine.Evaluate($"[{{a: JSON.rawJSON({text}), b: [[1, JSON.rawJSON({text})]]}}, {gap}]");
                JsValue document = value.AsArray()[0];
                JsValue space = value.AsArray()[1];
                byte[] expected = Encoding.UTF8.GetBytes(serializer.SerializeToString(document, null, space)!);
                foreach (Sink sink in new[] { Sink.BufferWriter, Sink.Stream, Sink.StreamAsync })
                {
                    (bool written, byte[] actual) = Bytes(serializer, sink, document, JsValue.Undefined, space);
                    Assert.True(written);
                    Assert.True(expected.AsSpan().SequenceEqual(actual), $"{text} with the gap {gap} differs through {sink}");
                }
            }
        }

        byte[] paired = Bytes(serializer, Sink.BufferWriter, engine.Evaluate("[[1]]"), JsValue.Undefined, engine.Evaluate("'\\ude00\\ud83d'")).Bytes;
        Assert.Equal("[\n\ufffd\ufffd[\n\ufffd\ud83d\ude00\ufffd1\n\ufffd\ufffd]\n]", s_strictUtf8.GetString(paired));
    }

    // 2,000 rows that share one 100K-char string: 200 MB of UTF-8 that is never held. What the walk allocates on its
    // thread is counted (other threads, other tests, cannot move that figure): buffering the document would take at
    // least its 200 MB. Before the JIT tiers the walk up, its first-tier code drops about 14 KB per row here (29 MB in
    // all); once tiered it allocates nothing, so the bound holds either way, without waiting for the JIT.
    [Fact]
    public void StreamsA200MegabyteDocumentInBoundedMemory()
    {
        using var engine = new Engine();
        JsValue document = engine.Evaluate("""
            var s = 'x'.repeat(99990) + '\u00e9\n\ud83d\ude00';
            var rows = [];
            for (var i = 0; i < 2000; i++) { rows.push({ i: i, s: s }); }
            rows
            """);
        var serializer = new JsonSerializer(engine);
        var stream = new CountingStream();

        long allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        Assert.True(serializer.Serialize(document, stream));
        long allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;

        Assert.True(stream.Length > 200_000_000, $"only {stream.Length} bytes");
        Assert.True(allocated < stream.Length / 4, $"{allocated} bytes allocated for {stream.Length} bytes written");
    }

    // Cancelled while the stream writes, and by a toJSON while the walk runs: the exception carries the caller's token,
    // as .NET's own async methods report a cancellation asked for.
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AsyncStreamHonoursCancellation(bool fromToJson)
    {
        using var engine = new Engine();
        using var cancel = new CancellationTokenSource();
        engine.SetValue("cancel", new Action(cancel.Cancel));
        JsValue document = engine.Evaluate(fromToJson
            ? "var s = 'y'.repeat(100000); [{toJSON() { cancel(); return 1; }}].concat(Array.from({length: 500}, () => s))"
            : "var s = 'y'.repeat(100000); Array.from({length: 500}, () => s)");
        var stream = new CountingStream { OnWrite = total => { if (total > 1_000_000) { cancel.Cancel(); } } };
        OperationCanceledException e = await Assert.ThrowsAnyAsync<OperationCanceledException>(
            () => new JsonSerializer(engine).SerializeAsync(document, stream, cancel.Token));
        Assert.Equal(cancel.Token, e.CancellationToken);
        Assert.True(stream.Length < 50_000_000);
    }

    [Fact]
    public async Task AsyncStreamFailuresReachTheCaller()
    {
        using var engine = new Engine();
        JsValue document = engine.Evaluate("var s = 'z'.repeat(100000); Array.from({length: 100}, () => s)");
        var failure = new IOException("disk full");
        var stream = new CountingStream { OnWrite = total => { if (total > 500_000) { throw failure; } } };
        var thrown = await Assert.ThrowsAsync<IOException>(() => new JsonSerializer(engine).SerializeAsync(document, stream));
        Assert.Same(failure, thrown);
    }

    // An engine whose JSON.stringify writes through the sink and returns what the sink received, decoded; with no
    // sink, the string path's text as it would come back from UTF-8.
    // The streaming sinks get the string path's limit, the longest .NET string, which they do not have by default:
    // an array whose length alone is past it (a proxy claiming 2**32 + 1 elements) is then a RangeError on each.
    internal static Engine EngineWith(Sink? sink, JsonSerializerOptions? options = null) => Js.WithStringify(
        (serializer, value, replacer, space) =>
        {
            if (sink is null)
            {
                string? text = serializer.SerializeToString(value, replacer, space);
                return text is null ? JsValue.Undefined : new JsString(Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(text)));
            }

            (bool written, byte[] bytes) = Bytes(serializer, sink.Value, value, replacer, space);
            return written ? new JsString(s_strictUtf8.GetString(bytes)) : JsValue.Undefined;
        },
        options);

    private static (bool Written, byte[] Bytes) Bytes(
        JsonSerializer serializer, Sink sink, JsValue value, JsValue replacer, JsValue space, Action<byte[]>? keepPartial = null)
    {
        switch (sink)
        {
            case Sink.BufferWriter:
                var writer = new ArrayBufferWriter<byte>();
                try
                {
                    return (serializer.Serialize(value, replacer, space, writer), writer.WrittenSpan.ToArray());
                }
                finally
                {
                    keepPartial?.Invoke(writer.WrittenSpan.ToArray());
                }

            case Sink.Stream:
            case Sink.StreamAsync:
                using (var stream = new MemoryStream())
                {
                    try
                    {
                        bool written = sink == Sink.Stream
                            ? serializer.Serialize(value, replacer, space, stream)
                            : serializer.SerializeAsync(value, replacer, space, stream).GetAwaiter().GetResult();
                        return (written, stream.ToArray());
                    }
                    finally
                    {
                        keepPartial?.Invoke(stream.ToArray());
                    }
                }

            default:
                using (var text = new StringWriter())
                {
                    try
                    {
                        return (serializer.Serialize(value, replacer, space, text), Encoding.UTF8.GetBytes(text.ToString()));
                    }
                    finally
                    {
                        keepPartial?.Invoke(Encoding.UTF8.GetBytes(text.ToString()));
                    }
                }
        }
    }
}
