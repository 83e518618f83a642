using System.Buffers;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime;
using JsonStringify.Internals;
using JsonStringify.Tests;

namespace JsonStringify.NativeAot;

/// <summary>
/// The golden data through one value reader: the fast path (<see cref="JsonSerializerOptions.EnableFastPath"/>), or
/// Jint's public API. Each script runs as V8GoldenTests and V8FuzzTests run it, and each document is written to a
/// string, a buffer writer and a stream, compact and with space 2.
/// </summary>
internal sealed class Replay
{
    // The deepest golden script nests 3,000 levels (V8's limit is its stack); V8GoldenTests runs them with this too.
    private const int MaxDepth = 10_000;

    private readonly Golden _golden;
    private readonly bool _fastPath;
    private readonly Tally _tally;
    private readonly JsonSerializerOptions _options;
    private readonly string _reader;

    public Replay(Golden golden, bool fastPath, Tally tally)
    {
        _golden = golden;
        _fastPath = fastPath;
        _tally = tally;
        _options = new JsonSerializerOptions { MaxDepth = MaxDepth, EnableFastPath = fastPath };
        _reader = fastPath ? "fast path" : "public reader";
    }

    /// <summary>
    /// What is off where no code is compiled at run time: on the fast path, the property table reader (a compiled
    /// delegate) and what the Jint release is known to break (<see cref="JintReleases"/>), nothing else; on the public
    /// reader nothing but the fast path itself, its host conventions read through Jint's internals as under the JIT.
    /// </summary>
    public void CheckReader()
    {
        var serializer = new JsonSerializer(new Engine(), _options);
        string[] lines = (serializer.FastPathDisabledReason ?? string.Empty).Split(Environment.NewLine);
        bool expected;
        if (_fastPath)
        {
            // One line per assumption that failed: its name, a colon and why.
            var off = lines.Select(line => line[..Math.Max(0, line.IndexOf(':', StringComparison.Ordinal))]).Order(StringComparer.Ordinal);
            var known = Enum.GetValues<JintAssumption>()
                .Where(a => a is not JintAssumption.None and not JintAssumption.All && (JintReleases.Broken | JintAssumption.PropertyTables).HasFlag(a))
                .Select(a => a.ToString())
                .Order(StringComparer.Ordinal);
            expected = serializer.IsFastPathActive && off.SequenceEqual(known)
                && lines.Any(line => line.StartsWith("PropertyTables: NotSupportedException", StringComparison.Ordinal));
        }
        else
        {
            expected = !serializer.IsFastPathActive && lines is [{ } only]
                && only.StartsWith("JsonSerializerOptions.EnableFastPath is false", StringComparison.Ordinal);
        }

        _tally.Check(
            $"{_reader}: the parts off on Jint {JintReleases.Current}",
            expected,
            () => $"IsFastPathActive {serializer.IsFastPathActive}, FastPathDisabledReason: {serializer.FastPathDisabledReason}");
    }

    /// <summary>Each recorded script in an engine of its own.</summary>
    public void CheckCases()
    {
        foreach (GoldenCase golden in _golden.Cases)
        {
            var engine = new Engine(o => o.UseJsonStringify(_options));
            (bool matches, string ours) = Run(engine, golden);
            _tally.Check($"{_reader}: {golden.Name}", matches, () => $"V8 {Show(golden)}, ours {ours}");
        }
    }

    /// <summary>The generated scripts, which change no globals or prototypes, in one engine.</summary>
    public void CheckFuzz()
    {
        var engine = new Engine(o => o.UseJsonStringify(_options));
        foreach (GoldenCase fuzz in _golden.Fuzz)
        {
            (bool matches, string ours) = Run(engine, fuzz);
            _tally.Check($"{_reader}: {fuzz.Name}", matches, () => $"{fuzz.Script}\n  V8 {Show(fuzz)}, ours {ours}");
        }
    }

    /// <summary>Every recorded double, written alone: one check, as in V8GoldenTests.</summary>
    public void CheckNumbers()
    {
        var serializer = new JsonSerializer(new Engine(), _options);
        var mismatches = new List<string>();
        foreach ((string bits, string text) in _golden.Numbers)
        {
            double value = BitConverter.Int64BitsToDouble(long.Parse(bits, NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture));
            string? ours = serializer.SerializeToString(JsNumber.Create(value));
            if (ours != text)
            {
                mismatches.Add($"bits {bits}: V8 {text}, ours {ours}");
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

    // Runs a script whose value is a string; whether it matches V8's outcome, and a description of ours.
    private static (bool Matches, string Ours) Run(Engine engine, GoldenCase golden)
    {
        JsValue result;
        try
        {
            result = engine.Evaluate(golden.Script);
        }
        catch (JavaScriptException e)
        {
            string name = e.Error is Jint.Native.Object.ObjectInstance error ? error.Get("name").ToString() : "Error";
            return (golden.Throws && name == golden.Result, $"throws {name}: {e.Message}");
        }
#pragma warning disable CA1031 // Any other exception is a mismatch to report, not a reason to stop.
        catch (Exception e)
#pragma warning restore CA1031
        {
            return (false, $"host exception {e.GetType().FullName}: {e.Message}");
        }

        if (result.IsUndefined())
        {
            return (!golden.Throws && golden.Result is null or "undefined", "undefined");
        }

        string text = result.ToString();
        return (!golden.Throws && result.IsString() && text == golden.Result, Escape(text));
    }

    private static string Show(GoldenCase golden) => golden.Throws ? "throws " + golden.Result : Escape(golden.Result);

    // A string in printable ASCII, controls and lone surrogates escaped, or "undefined".
    private static string Escape(string? text)
    {
        if (text is null)
        {
            return "undefined";
        }

        var builder = new StringBuilder(text.Length + 2).Append('"');
        foreach (char c in text)
        {
            _ = c is >= ' ' and <= '~' ? builder.Append(c) : builder.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}");
        }

        return builder.Append('"').ToString();
    }

    private static string Sha256(ReadOnlySpan<byte> utf8) => Convert.ToHexStringLower(SHA256.HashData(utf8));
}
