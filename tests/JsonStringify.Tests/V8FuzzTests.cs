using System.Globalization;
using System.Text;
using System.Text.Json;
using Jint;

namespace JsonStringify.Tests;

/// <summary>
/// Replays the fuzz section of testdata/v8-golden.json: generated JSON.stringify(value, replacer, space) scripts,
/// recorded with V8 (Node 26) by tests/v8/record-golden.mjs, run through Jint with this library's JSON.stringify. With
/// JSONSTRINGIFY_V8_FUZZ set to the path of a longer run that script wrote (V8_FUZZ_OUT), that run's cases instead.
/// </summary>
public class V8FuzzTests
{
    private const int MinimumCases = 2000;
    private const int ReportedMismatches = 10;

    [Fact]
    public void FuzzScriptsMatchV8()
    {
        string? run = Environment.GetEnvironmentVariable("JSONSTRINGIFY_V8_FUZZ");
        bool golden = string.IsNullOrEmpty(run);
        string path = golden ? Path.Combine(AppContext.BaseDirectory, "testdata", "v8-golden.json") : run!;
        List<FuzzCase> cases = LoadCases(path);
        int minimum = golden ? MinimumCases : 1;
        Assert.True(cases.Count >= minimum, $"only {cases.Count} fuzz cases, expected at least {minimum}");

        // The scripts change no globals or prototypes, so one engine serves them all.
        Engine engine = Js.Ours();
        var report = new StringBuilder();
        int mismatches = 0;
        for (int i = 0; i < cases.Count; i++)
        {
            FuzzCase fuzz = cases[i];
            (bool matches, string ours) = GoldenScript.Run(engine, fuzz.Script, fuzz.Result, fuzz.Throws);
            if (matches)
            {
                continue;
            }

            if (++mismatches <= ReportedMismatches)
            {
                string v8 = GoldenScript.ShowV8(fuzz.Result, fuzz.Throws);
                report.Append(CultureInfo.InvariantCulture,
                    $"\n  case {i}:\n    script: {fuzz.Script}\n    V8:     {v8}\n    ours:   {ours}");
            }
        }

        Assert.True(mismatches == 0, $"{mismatches} of {cases.Count} fuzz cases differ from V8; the first ones:{report}");
    }

    // Result is V8's string, null when V8's call returned undefined, or the error's name when Throws.
    private sealed record FuzzCase(string Script, string? Result, bool Throws);

    private static List<FuzzCase> LoadCases(string path)
    {
        byte[] bytes = File.ReadAllBytes(path);
        using JsonDocument document = JsonDocument.Parse(bytes);
        var cases = new List<FuzzCase>();
        foreach (JsonElement item in document.RootElement.GetProperty("fuzz").EnumerateArray())
        {
            string script = item.GetProperty("script").GetString()
                ?? throw new InvalidDataException($"a fuzz case's script is null in {path}");
            bool throws = item.TryGetProperty("throws", out JsonElement flag) && flag.GetBoolean();
            string? result = item.GetProperty("result").GetString();
            if (throws && result is null)
            {
                throw new InvalidDataException($"the fuzz case {script} throws but has no error name in {path}");
            }

            cases.Add(new FuzzCase(script, result, throws));
        }

        return cases;
    }
}
