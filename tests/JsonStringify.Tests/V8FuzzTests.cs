using System.Globalization;
using System.Text;
using Jint;

namespace JsonStringify.Tests;

/// <summary>
/// Replays the fuzz section of testdata/v8-golden.json: generated JSON.stringify(value, replacer, space) scripts,
/// recorded with V8 (Node 26) by tests/v8/record-golden.mjs, run through Jint with this library's JSON.stringify. With
/// JSONSTRINGIFY_V8_FUZZ set to the path of a longer run that script wrote (V8_FUZZ_OUT), that run's cases instead.
/// </summary>
public class V8FuzzTests
{
    private const int ReportedMismatches = 10;

    [Fact]
    public void FuzzScriptsMatchV8()
    {
        string? run = Environment.GetEnvironmentVariable("JSONSTRINGIFY_V8_FUZZ");
        bool golden = string.IsNullOrEmpty(run);
        IReadOnlyList<GoldenCase> cases = golden ? V8GoldenTests.Data.Fuzz : GoldenData.LoadFuzz(run!);
        int minimum = golden ? GoldenData.MinimumFuzzCases : 1;
        Assert.True(cases.Count >= minimum, $"only {cases.Count} fuzz cases, expected at least {minimum}");

        // The scripts change no globals or prototypes, so one engine serves them all.
        Engine engine = Js.Ours();
        var report = new StringBuilder();
        int mismatches = 0;
        for (int i = 0; i < cases.Count; i++)
        {
            GoldenCase fuzz = cases[i];
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
}
