using System.Reflection;
using Jint;
using Jint.Native;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>Our output against Jint 4.18.0's built-in serializer, the old path, wherever it follows the spec.</summary>
public class DifferentialTests
{
    public static TheoryData<string, int> CorpusCases => new()
    {
        { "canada.json", 0 },
        { "canada.json", 2 },
        { "citm_catalog.json", 0 },
        { "citm_catalog.json", 2 },
        { "citm_catalog.json", 7 },
        { "twitter.json", 0 },
        { "twitter.json", 2 },
    };

    [Theory]
    [MemberData(nameof(CorpusCases))]
    public void CorpusMatchesJintExceptIntegersAbove2To53(string file, int space)
    {
        using var engine = new Engine();
        JsValue document = Corpus.Parse(engine, file);
        JsValue gap = space == 0 ? JsValue.Undefined : JsNumber.Create(space);

        string expected = new Jint.Native.Json.JsonSerializer(engine).Serialize(document, JsValue.Undefined, gap).ToString();
        string actual = new JsonSerializer(engine).SerializeToString(document, null, gap)!;

        int differing = JsonText.AssertEqualExceptLargeIntegers(expected, actual);

        // Only twitter.json has integers above 2^53 (its numeric ids); the other files must match exactly.
        Assert.Equal(file == "twitter.json", differing > 0);
    }

    // JSONSTRINGIFY_FUZZ_CASES sets a longer run, JSONSTRINGIFY_FUZZ_SEED another seed. Case i is generated from
    // seed + i alone, so a failure can be replayed, and shrunk by generating it again with smaller limits.
    [Fact]
    public void RandomValuesMatchJint()
    {
        int cases = EnvironmentNumber("JSONSTRINGIFY_FUZZ_CASES", 3000);
        int seed = EnvironmentNumber("JSONSTRINGIFY_FUZZ_SEED", 20261122);
        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        bool tinyNumbers = !JintBugs.TinySubnormalsWrittenAsZero;
        for (int i = 0; i < cases; i++)
        {
            string script = new ValueGenerator(seed + i, tinyNumbers: tinyNumbers).NextScript();
            if (!Agrees(script))
            {
                Assert.Fail($"seed {seed}, case {i} (generator seed {seed + i})\nscript:   {script}\nsmallest: {Smallest(seed + i)}\nJint:     {Js.Run(builtin, Smallest(seed + i))}\nours:     {Js.Run(ours, Smallest(seed + i))}");
            }
        }

        bool Agrees(string script)
        {
            try
            {
                return Js.Run(builtin, script) == Js.Run(ours, script);
            }
            catch (Exception e) when (e is not JavaScriptException)
            {
                return false;
            }
        }

        string Smallest(int caseSeed)
        {
            for (int depth = 0; depth <= 4; depth++)
            {
                for (int width = 1; width <= 6; width++)
                {
                    string candidate = new ValueGenerator(caseSeed, depth, width, tinyNumbers).NextScript();
                    if (!Agrees(candidate))
                    {
                        return candidate;
                    }
                }
            }

            return new ValueGenerator(caseSeed).NextScript();
        }
    }

    // A long string that needs no escaping goes to a string result whole: kept as the string itself, and copied once,
    // into the result. Such strings at the root, before, between and after other text, side by side and many times over
    // (past several chunks of the result), with a well-formed pair, beside long strings copied in slices (an escape, an
    // unpaired surrogate), as names of a property table and of a hidden class, indented, and from toJSON.
    [Fact]
    public void LongStringsWrittenWholeMatchJint()
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        engine.Execute("""
            var clean = 'abcdefghij'.repeat(100), longer = 'klmnopqrst'.repeat(5000);
            var escaped = clean + '\n' + clean, paired = clean + '\ud83d\ude00' + clean, lone = clean + '\ud800' + clean;
            var table = {}; table[clean] = 1; table.next = longer; table[longer] = clean;
            """);
        string[] scripts =
        [
            "clean", "longer", "[clean]", "[1, clean, 2]", "[clean, clean, longer, clean]",
            "[clean, escaped, clean, paired, longer, lone, escaped]", "({ a: clean, b: 'x', c: longer, d: [clean] })",
            "table", "[table, table]", "({ [longer]: 1, [clean]: longer })", "new Array(300).fill(clean)",
            "[{ toJSON() { return longer; } }, { toJSON() { return [clean, escaped]; } }]",
        ];
        foreach (string script in scripts)
        {
            JsValue value = engine.Evaluate("(" + script + ")");
            foreach (JsValue space in new JsValue[] { JsValue.Undefined, JsNumber.Create(2), new JsString("--") })
            {
                Assert.Equal(builtin.Serialize(value, JsValue.Undefined, space).ToString(), ours.SerializeToString(value, null, space));
            }
        }

        // A nested call (JSON.stringify from toJSON, in an engine that uses this library) writes into a sink of its
        // own.
        const string Nested = "var c = 'abcdefghij'.repeat(100); JSON.stringify([c, { toJSON() { return JSON.stringify([c, c + c]); } }, c])";
        using Engine reference = Js.Builtin();
        using Engine nested = Js.Ours();
        Assert.Equal(Js.Run(reference, Nested), Js.Run(nested, Nested));
    }

    // Whether a long string goes to a string result whole rests on StringEscaper.NeedsEscaping: it must be false
    // exactly where JSON.stringify writes the string as it is. Every length up to five blocks, with each kind of char
    // that needs escaping, pairs (also across a block's end, and two in a row), lone and reversed halves of a pair, at
    // every position.
    [Fact]
    public void NeedsEscapingIsFalseExactlyWhereJintWritesTheStringAsItIs()
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        string[] specials = ["\ud83d\ude00", "\ud83d\ude00\ud83d\ude00", "\ud800", "\udc00", "\udbff", "\udfff", "\udc00\ud800", "\"", "\\", "\u001f", "\u00e9", "\uffff"];
        int written = 0;
        foreach (string text in StringVariants.UpToBlocks(5, specials))
        {
            bool asItIs = builtin.Serialize(new JsString(text), JsValue.Undefined, JsValue.Undefined).ToString() == "\"" + text + "\"";
            if (asItIs == Internals.StringEscaper.NeedsEscaping(text))
            {
                Assert.Fail($"NeedsEscaping is {!asItIs} for the chars {string.Join(' ', text.Select(c => ((int)c).ToString("x4", System.Globalization.CultureInfo.InvariantCulture)))}");
            }

            written += asItIs ? 1 : 0;
        }

        // Both answers came up many times.
        Assert.InRange(written, 10_000, 40_000);
    }

    // Strings are checked and copied in blocks of 16 chars, with a last block that reaches back over chars already
    // copied (unless an escape lies among them), and those under 16 in two overlapping halves; the writer copies clean
    // values of up to 128 chars inline and calls the escaper for the others. Every length up to nine blocks, with each
    // kind of char that needs escaping (and a valid pair, which does not) at every position, and the same texts as
    // property names.
    [Fact]
    public void StringsOfEveryShortLengthMatchJint()
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        string[] specials = ["\"", "\\", "\n", "\u0001", "\u001f", "\u007f", "\ud800", "\udfff", "\ud83d\ude00", "\u00e9", " "];
        foreach (string text in StringVariants.UpToBlocks(9, specials))
        {
            Check(text);
        }

        // Long strings go to the writer in slices of 682 chars: lengths around one and two slices, with the specials
        // at every position near the cuts and near the blocks' ends.
        foreach (int length in new[] { 681, 682, 683, 697, 1363, 1364, 1365 })
        {
            string clean = StringVariants.Letters(length);
            Check(clean);
            foreach (string special in specials)
            {
                for (int at = 0; at <= length; at++)
                {
                    if (at < 40 || Math.Abs(at - 682) < 40 || Math.Abs(at - 1364) < 40 || length - at < 40)
                    {
                        Check(clean.Insert(at, special));
                    }
                }
            }
        }

        // Several escapes in one block, and escapes on both sides of a block's end.
        foreach (string text in new[] { new string('"', 40), "a\nb\nc\n" + new string('x', 30) + "\n\n", string.Concat(Enumerable.Repeat("abc\u0001\ud800\\", 12)) })
        {
            Check(text);
        }

        void Check(string text)
        {
            var value = new JsString(text);
            Assert.Equal(builtin.Serialize(value, JsValue.Undefined, JsValue.Undefined).ToString(), ours.SerializeToString(value));
            // A property table (no hidden class), whose names the writer quotes as it goes, as it does values.
            var holder = new JsObject(engine);
            holder.Set(value, JsNumber.Create(1));
            holder.Set("next", value);
            Assert.Equal(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(holder));
            Assert.Equal(builtin.Serialize(holder, JsValue.Undefined, JsValue.Undefined).ToString(), ours.SerializeToString(holder));
        }
    }

    // The writer quotes a string of one char itself unless the char is one JSON.stringify escapes (a control, '"',
    // '\\', or a surrogate, which alone is never half of a pair), and the empty string too: every UTF-16 code unit
    // alone, and the empty string, as array elements, as the values of parsed objects (in a hidden class) and of a
    // property table, and as the names of a property table, compact and indented, as a string and as UTF-8.
    [Fact]
    public void EveryCharAloneAndTheEmptyStringMatchJint()
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        var texts = new JsValue[char.MaxValue + 2];
        var parsedText = new System.Text.StringBuilder("[{\"v\":\"\"}");
        texts[0] = JsString.Empty;
        for (int c = 0; c <= char.MaxValue; c++)
        {
            texts[c + 1] = new JsString(((char)c).ToString());
            parsedText.Append(System.Globalization.CultureInfo.InvariantCulture, $",{{\"v\":\"\\u{c:x4}\"}}");
        }

        var elements = new JsArray(engine, texts);
        var table = new JsObject(engine);
        var names = new JsObject(engine);
        for (int i = 0; i < texts.Length; i++)
        {
            table.Set("k" + i.ToString(System.Globalization.CultureInfo.InvariantCulture), texts[i]);
            names.Set(texts[i], JsNumber.Create(i));
        }

        var parsed = (JsArray)new Jint.Native.Json.JsonParser(engine).Parse(parsedText.Append(']').ToString());
        Assert.Equal(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(table));
        Assert.Equal(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(names));
        Assert.Equal(ObjectRepresentation.HiddenClass, engine.Advanced.GetObjectRepresentation(parsed[1].AsObject()));
        foreach (JsValue value in new JsValue[] { elements, table, names, parsed })
        {
            foreach (JsValue gap in new JsValue[] { JsValue.Undefined, JsNumber.Create(2) })
            {
                string expected = builtin.Serialize(value, JsValue.Undefined, gap).ToString();
                Assert.Equal(expected, ours.SerializeToString(value, null, gap));
                var utf8 = new System.Buffers.ArrayBufferWriter<byte>();
                Assert.True(ours.Serialize(value, JsValue.Undefined, gap, utf8));
                Assert.Equal(System.Text.Encoding.UTF8.GetBytes(expected), utf8.WrittenSpan.ToArray());
            }
        }
    }

    // null, true and false are told apart without a branch, from the value's type and reference: every sequence of
    // three of them, as array elements, as the values of a hidden class, of a property table and of a parsed object,
    // beside strings and numbers, compact and indented; and long seeded runs of them.
    [Fact]
    public void LiteralsInEveryOrderMatchJint()
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        string[] literals = ["true", "false", "null"];
        var random = new Random(20261129);
        var scripts = new List<string>();
        foreach (string a in literals)
        {
            foreach (string b in literals)
            {
                foreach (string c in literals)
                {
                    scripts.Add($"[{a}, {b}, {c}]");
                    scripts.Add($"[1, {a}, 'x', {b}, {c}, 2.5]");
                    scripts.Add($"({{ a: {a}, b: {b}, c: {c} }})");
                    scripts.Add($"(() => {{ const o = {{}}; o['k' + 1] = {a}; o.b = {b}; return o; }})()");
                    scripts.Add($"(() => {{ const o = {{ b: 0 }}; delete o.b; o.b = {b}; o.c = {c}; return o; }})()");
                    scripts.Add($"JSON.parse('{{\"a\":{a},\"b\":[{b}],\"c\":{c}}}')");
                }
            }
        }

        for (int run = 0; run < 4; run++)
        {
            string[] values = Enumerable.Range(0, 3000).Select(_ => literals[random.Next(3)]).ToArray();
            scripts.Add("[" + string.Join(", ", values) + "]");
            IEnumerable<string> rows = values.Chunk(3).Select(v => $"{{ x: {v[0]}, y: {v[1]}, z: {v[2]} }}");
            scripts.Add("[" + string.Join(", ", rows) + "]");
        }

        Assert.Same(JsBoolean.True, engine.Evaluate("!0"));
        Assert.Same(JsBoolean.False, JsValue.FromObject(engine, false));
        foreach (string script in scripts)
        {
            JsValue value = engine.Evaluate(script);
            foreach (JsValue space in new JsValue[] { JsValue.Undefined, JsNumber.Create(2) })
            {
                string expected = builtin.Serialize(value, JsValue.Undefined, space).ToString();
                string? actual = ours.SerializeToString(value, null, space);
                Assert.True(expected == actual, $"script: {script}\nexpected: {expected}\nactual:   {actual}");
            }
        }
    }

    // The walker tells true from false by reference: Jint has no booleans but JsBoolean.True and JsBoolean.False, as
    // long as nothing outside the class can make one.
    [Fact]
    public void JintHasNoBooleansButTrueAndFalse()
    {
        ConstructorInfo[] constructors =
            typeof(JsBoolean).GetConstructors(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
        Assert.NotEmpty(constructors);
        Assert.All(constructors, constructor => Assert.True(constructor.IsPrivate, constructor.ToString()));
        Assert.True(JsBoolean.True.AsBoolean());
        Assert.False(JsBoolean.False.AsBoolean());
    }

    public static TheoryData<string> Gaps => new() { "1", "2", "4", "10", "'\\t'", "'ab'", "'0123456789'", "'0123456789abc'" };

    // Indented output writes a short line (the comma, the line break and the indentation) and the name after it in one
    // piece, and longer ones in several: names of every length from 0 to 40 chars, some around 64 and 128, and names to
    // escape, at every depth to 20, with each kind of gap, in objects with a hidden class (names quoted ahead) and in
    // property tables (names quoted as they are written), ending with every kind of value, empty containers among them.
    [Theory]
    [MemberData(nameof(Gaps))]
    public void IndentationMatchesJintAtEveryDepthAndNameLength(string gap)
    {
        using var engine = new Engine();
        engine.Execute("""
            const names = [];
            for (let n = 0; n <= 40; n++) names.push('k'.repeat(n));
            for (const n of [50, 63, 64, 65, 66, 127, 128, 129, 130]) names.push('k'.repeat(n));
            names.push('q"uote', 'line\nbreak', '\u00e9'.repeat(20), '\u2028', 'x'.repeat(15) + '\u0001');
            names.push('y'.repeat(100) + '\n');
            function leaf(i) {
                const o = {};
                for (const n of names) o[n] = [[], {}, i, 'v'.repeat(n.length), [i, {}], { a: i }][n.length % 6];
                return o;
            }
            function chain(depth, i) {
                let v = leaf(i);
                for (let d = 0; d < depth; d++) v = d % 3 === 2 ? [v, d, []] : { ['n'.repeat(d * 3)]: v, after: [d, {}] };
                return v;
            }
            const built = [];
            for (let d = 0; d <= 20; d++) built.push(chain(d, d));
            const parsed = JSON.parse(JSON.stringify(built));
            """);
        JsValue built = engine.Evaluate("built");
        JsValue parsed = engine.Evaluate("parsed");
        Assert.Equal(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(engine.Evaluate("built[0]").AsObject()));
        Assert.NotEqual(ObjectRepresentation.Dictionary, engine.Advanced.GetObjectRepresentation(engine.Evaluate("parsed[0]").AsObject()));
        JsValue space = engine.Evaluate(gap);

        foreach (JsValue document in new[] { built, parsed })
        {
            string expected = new Jint.Native.Json.JsonSerializer(engine).Serialize(document, JsValue.Undefined, space).ToString();
            Assert.True(expected.Count(c => c == '\n') > 1_000, "the output is indented");
            Assert.Equal(expected, new JsonSerializer(engine).SerializeToString(document, null, space));
        }
    }

    private static int EnvironmentNumber(string name, int fallback) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), System.Globalization.CultureInfo.InvariantCulture, out int value) ? value : fallback;
}
