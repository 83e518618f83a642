using System.Buffers;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Jint;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// Compares this library's output with V8's, as recorded in testdata/v8-golden.json by tests/v8/record-golden.mjs
/// (Node 26, V8 14.6): scripts run in a fresh engine, shortest number texts, and digests of the corpus documents.
/// </summary>
public class V8GoldenTests
{
    private const int ReportedMismatches = 10;

    private static readonly Lazy<GoldenData> s_golden = new(() => GoldenData.Load(GoldenData.FilePath));

    /// <summary>The recorded cases, numbers and digests, for other test classes.</summary>
    internal static GoldenData Data => s_golden.Value;

    /// <summary>
    /// The settings golden scripts run with. V8's limit on nesting is its stack (2,711 levels with a replacer in V8
    /// 14.6), and the deepest golden script nests 3,000 levels, so 10,000 runs every case as V8 does, while a toJSON
    /// that nests forever ("unbounded toJSON recursion") stops after 10,000 calls instead of the default 2,000,000.
    /// SafetyTests and ApiTests cover the default depth.
    /// The streaming sinks get the string path's length limit too, so that an array whose length alone is past it is a
    /// RangeError on every sink, as on the string path.
    /// </summary>
    internal static JsonSerializerOptions SerializerOptions { get; } = new() { MaxDepth = 10_000, MaxLength = JsonConstants.MaxStringLength };

    public static TheoryData<string> CaseNames
    {
        get
        {
            var names = new TheoryData<string>();
            foreach (string name in s_golden.Value.CaseNames)
            {
                names.Add(name);
            }

            return names;
        }
    }

    public static TheoryData<string> CorpusFiles
    {
        get
        {
            var files = new TheoryData<string>();
            foreach (GoldenCorpus corpus in s_golden.Value.Corpus)
            {
                files.Add(corpus.File);
            }

            return files;
        }
    }

    [Fact]
    public void GoldenFileIsComplete()
    {
        GoldenData golden = s_golden.Value;
        Assert.StartsWith("26.", golden.NodeVersion, StringComparison.Ordinal);
        Assert.StartsWith("14.6.", golden.V8Version, StringComparison.Ordinal);
        Assert.True(golden.Cases.Count >= GoldenData.MinimumCases, $"only {golden.Cases.Count} cases");
        Assert.True(golden.Numbers.Count >= GoldenData.MinimumNumbers, $"only {golden.Numbers.Count} numbers");
        Assert.Equal(GoldenData.TestdataDocuments(), golden.Corpus.Select(corpus => corpus.File).Order(StringComparer.Ordinal));
    }

    [Theory]
    [MemberData(nameof(CaseNames))]
    public void CaseMatchesV8(string name)
    {
        GoldenCase golden = s_golden.Value.CasesByName[name];
        (bool matches, string ours) = GoldenScript.Run(
            Js.Ours(serializerOptions: SerializerOptions), golden.Script, golden.Result, golden.Throws);
        Assert.True(matches, $"V8 {GoldenScript.ShowV8(golden.Result, golden.Throws)}, ours {ours}");
    }

    [Fact]
    public void NumbersMatchV8()
    {
        IReadOnlyList<GoldenNumber> numbers = s_golden.Value.Numbers;
        var serializer = new JsonSerializer(new Engine());
        Span<char> buffer = stackalloc char[JsonConstants.NumberBufferLength];
        var report = new StringBuilder();
        int mismatches = 0;
        foreach (GoldenNumber number in numbers)
        {
            double value = BitConverter.Int64BitsToDouble(
                long.Parse(number.Bits, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
            Assert.True(double.IsFinite(value), $"the golden file has a non-finite number {number.Bits}");

            string formatted = new(buffer[..NumberFormatter.Format(value, buffer)]);
            string? serialized = serializer.SerializeToString(JsNumber.Create(value));
            if (formatted == number.Text && serialized == number.Text)
            {
                continue;
            }

            if (++mismatches <= ReportedMismatches)
            {
                report.Append(CultureInfo.InvariantCulture,
                    $"\n  bits {number.Bits} ({value:G17}): V8 \"{number.Text}\", NumberFormatter \"{formatted}\", JsonSerializer \"{serialized}\"");
            }
        }

        Assert.True(mismatches == 0, $"{mismatches} of {numbers.Count} numbers differ from V8; the first ones:{report}");
    }

    [Theory]
    [MemberData(nameof(CorpusFiles))]
    public void CorpusMatchesV8(string file)
    {
        GoldenCorpus golden = s_golden.Value.Corpus.Single(corpus => corpus.File == file);
        var engine = new Engine();
        string text = File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", file));
        JsValue document = engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(text)]);
        var serializer = new JsonSerializer(engine);

        foreach ((GoldenDigest expected, JsValue space, string form) in (ReadOnlySpan<(GoldenDigest, JsValue, string)>)
            [(golden.Compact, JsValue.Undefined, "compact"), (golden.Indented, JsNumber.Create(2), "space 2")])
        {
            AssertDigest(expected, serializer.SerializeToString(document, JsValue.Null, space), form);

            // The digest is of the text's UTF-8, so the UTF-8 outputs' bytes must hash to it as they are.
            var bufferWriter = new ArrayBufferWriter<byte>();
            Assert.True(serializer.Serialize(document, JsValue.Null, space, bufferWriter));
            AssertUtf8Digest(expected, bufferWriter.WrittenSpan, form + ", UTF-8 into a buffer writer");

            using var stream = new MemoryStream();
            Assert.True(serializer.Serialize(document, JsValue.Null, space, stream));
            AssertUtf8Digest(expected, stream.ToArray(), form + ", UTF-8 into a stream");
        }
    }

    private static void AssertDigest(GoldenDigest expected, string? json, string form)
    {
        Assert.NotNull(json);
        Assert.True(expected.Length == json.Length, $"{form}: V8 wrote {expected.Length} chars, we wrote {json.Length}");
        AssertUtf8Digest(expected, Encoding.UTF8.GetBytes(json), form);
    }

    private static void AssertUtf8Digest(GoldenDigest expected, ReadOnlySpan<byte> utf8, string form)
    {
        string sha256 = Convert.ToHexStringLower(SHA256.HashData(utf8));
        Assert.True(expected.Sha256 == sha256, $"{form}: V8's SHA-256 is {expected.Sha256}, ours is {sha256} ({utf8.Length} bytes)");
    }
}
