using System.Buffers;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Text;
using Jint;
using Jint.Native;
using JsonStringify.Internals;
using JsonStringify.Tests;

namespace JsonStringify.NativeAot;

/// <summary>
/// The golden data through one value reader: the fast path (<see cref="JsonSerializerOptions.EnableFastPath"/>), or
/// Jint's public API. Each section is checked as V8GoldenTests and V8FuzzTests check it, the scripts by the same
/// <see cref="GoldenScript"/>; each document is written to a string, a buffer writer and a stream, compact and with
/// space 2.
/// </summary>
internal sealed class Replay
{
    private readonly GoldenData _golden;
    private readonly bool _fastPath;
    private readonly Tally _tally;
    private readonly string _reader;

    // The settings of the tests each section comes from: the recorded cases with V8GoldenTests' (the deepest script
    // nests 3,000 levels, V8's limit being its stack), the rest with the defaults.
    private readonly JsonSerializerOptions _caseOptions;
    private readonly JsonSerializerOptions _options;

    public Replay(GoldenData golden, bool fastPath, Tally tally)
    {
        _golden = golden;
        _fastPath = fastPath;
        _tally = tally;
        _reader = fastPath ? "fast path" : "public reader";
        _caseOptions = new JsonSerializerOptions { MaxDepth = 10_000, EnableFastPath = fastPath };
        _options = new JsonSerializerOptions { EnableFastPath = fastPath };
    }

    /// <summary>The golden file is Node 26's, has at least as many cases, fuzz cases and numbers as the tests ask,
    /// and a digest for every JSON document below testdata/ but itself.</summary>
    public void CheckGoldenFile()
    {
        List<string> documents = GoldenData.TestdataDocuments();
        bool complete = _golden.NodeVersion.StartsWith("26.", StringComparison.Ordinal)
            && _golden.V8Version.StartsWith("14.6.", StringComparison.Ordinal)
            && _golden.Cases.Count >= GoldenData.MinimumCases
            && _golden.Fuzz.Count >= GoldenData.MinimumFuzzCases
            && _golden.Numbers.Count >= GoldenData.MinimumNumbers
            && documents.SequenceEqual(_golden.Corpus.Select(c => c.File).Order(StringComparer.Ordinal));
        _tally.Check(
            $"{_reader}: the golden file is complete",
            complete,
            () => $"Node {_golden.NodeVersion}, V8 {_golden.V8Version}, {_golden.Cases.Count} cases, {_golden.Fuzz.Count} fuzz cases, "
                + $"{_golden.Numbers.Count} numbers, digests of {string.Join(", ", _golden.Corpus.Select(c => c.File))}");
    }

    /// <summary>
    /// What is off: on the fast path, what the Jint release is known to break (<see cref="JintReleases"/>) and, where
    /// no code is compiled at run time, the property table reader (a compiled delegate), nothing else; on the public
    /// reader nothing but the fast path itself, its host conventions read through Jint's internals as in the tests.
    /// </summary>
    public void CheckReader()
    {
        var serializer = new JsonSerializer(new Engine(), _options);
        string? reason = serializer.FastPathDisabledReason;
        // What the table reader's probe asks before it compiles the reader.
        bool compiles = RuntimeFeature.IsDynamicCodeCompiled;
        bool expected;
        if (_fastPath)
        {
            // One line per assumption that failed: its name, a colon and why.
            string[] lines = reason?.Split(Environment.NewLine) ?? [];
            var off = lines
                .Select(line => line[..Math.Max(0, line.IndexOf(':', StringComparison.Ordinal))])
                .Order(StringComparer.Ordinal);
            JintAssumption broken = JintReleases.Broken | (compiles ? JintAssumption.None : JintAssumption.PropertyTables);
            var known = Enum.GetValues<JintAssumption>()
                .Where(a => a is not JintAssumption.None and not JintAssumption.All && broken.HasFlag(a))
                .Select(a => a.ToString())
                .Order(StringComparer.Ordinal);
            expected = serializer.IsFastPathActive && off.SequenceEqual(known)
                && (compiles || lines.Any(line => line.StartsWith("PropertyTables: NotSupportedException", StringComparison.Ordinal)));
        }
        else
        {
            expected = !serializer.IsFastPathActive && reason?.Split(Environment.NewLine) is [{ } only]
                && only.StartsWith("JsonSerializerOptions.EnableFastPath is false", StringComparison.Ordinal);
        }

        _tally.Check(
            $"{_reader}: the parts off on Jint {JintReleases.Current}",
            expected,
            () => $"IsFastPathActive {serializer.IsFastPathActive}, FastPathDisabledReason: {reason}");
    }

    /// <summary>Each recorded script in an engine of its own.</summary>
    public void CheckCases()
    {
        foreach (GoldenCase golden in _golden.Cases)
        {
            var engine = new Engine(o => o.UseJsonStringify(_caseOptions));
            (bool matches, string ours) = GoldenScript.Run(engine, golden.Script, golden.Result, golden.Throws);
            _tally.Check($"{_reader}: {golden.Name}", matches, () => $"V8 {GoldenScript.ShowV8(golden.Result, golden.Throws)}, ours {ours}");
        }
    }

    /// <summary>The generated scripts, which change no globals or prototypes, in one engine.</summary>
    public void CheckFuzz()
    {
        var engine = new Engine(o => o.UseJsonStringify(_options));
        foreach (GoldenCase fuzz in _golden.Fuzz)
        {
            (bool matches, string ours) = GoldenScript.Run(engine, fuzz.Script, fuzz.Result, fuzz.Throws);
            _tally.Check($"{_reader}: {fuzz.Name}", matches, () => $"{fuzz.Script}\n  V8 {GoldenScript.ShowV8(fuzz.Result, fuzz.Throws)}, ours {ours}");
        }
    }

    /// <summary>
    /// Every recorded double, finite, formatted and serialized alone: one check, as in V8GoldenTests.
    /// </summary>
    public void CheckNumbers()
    {
        var serializer = new JsonSerializer(new Engine(), _options);
        Span<char> buffer = stackalloc char[JsonConstants.NumberBufferLength];
        var mismatches = new List<string>();
        foreach ((string bits, string text) in _golden.Numbers)
        {
            double value = BitConverter.Int64BitsToDouble(long.Parse(bits, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
            string formatted = double.IsFinite(value) ? new string(buffer[..NumberFormatter.Format(value, buffer)]) : "not finite";
            string? serialized = serializer.SerializeToString(JsNumber.Create(value));
            if (formatted != text || serialized != text)
            {
                mismatches.Add($"bits {bits}: V8 {text}, NumberFormatter {formatted}, JsonSerializer {serialized}");
            }
        }

        _tally.Check(
            $"{_reader}: {_golden.Numbers.Count} numbers",
            mismatches.Count == 0,
            () => $"{mismatches.Count} differ, the first: {string.Join("; ", mismatches.Take(5))}");
    }

    /// <summary>Each corpus document's digests, from every output.</summary>
    public void CheckCorpus()
    {
        foreach (GoldenCorpus golden in _golden.Corpus)
        {
            var engine = new Engine();
            string text = File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", golden.File));
            JsValue document = engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(text)]);
            var serializer = new JsonSerializer(engine, _options);
            var mismatches = new List<string>();
            foreach ((GoldenDigest expected, JsValue space, string form) in (ReadOnlySpan<(GoldenDigest, JsValue, string)>)
                [(golden.Compact, JsValue.Undefined, "compact"), (golden.Indented, JsNumber.Create(2), "space 2")])
            {
                string? json = serializer.SerializeToString(document, JsValue.Null, space);
                if (json is null || json.Length != expected.Length || Sha256(Encoding.UTF8.GetBytes(json)) != expected.Sha256)
                {
                    mismatches.Add(json is null || json.Length != expected.Length
                        ? $"{form}, string: {json?.Length ?? 0} chars against V8's {expected.Length}"
                        : $"{form}, string: another digest");
                }

                var bufferWriter = new ArrayBufferWriter<byte>();
                if (!serializer.Serialize(document, JsValue.Null, space, bufferWriter) || Sha256(bufferWriter.WrittenSpan) != expected.Sha256)
                {
                    mismatches.Add($"{form}, UTF-8 into a buffer writer: another digest");
                }

                using var stream = new MemoryStream();
                if (!serializer.Serialize(document, JsValue.Null, space, stream) || Sha256(stream.ToArray()) != expected.Sha256)
                {
                    mismatches.Add($"{form}, UTF-8 into a stream: another digest");
                }
            }

            _tally.Check($"{_reader}: {golden.File}", mismatches.Count == 0, () => string.Join("; ", mismatches));
        }
    }

    private static string Sha256(ReadOnlySpan<byte> utf8) => Convert.ToHexStringLower(SHA256.HashData(utf8));
}
