using Jint;
using Jint.Native;

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

    [Fact]
    public void RandomValuesMatchJint()
    {
        using Engine ours = Js.Ours();
        using Engine builtin = Js.Builtin();
        var generator = new ValueGenerator(seed: 20261122);
        int compared = 0;
        for (int i = 0; i < 3000; i++)
        {
            string script = generator.NextScript();
            string expected = Js.Run(builtin, script);
            string actual = Js.Run(ours, script);
            Assert.True(expected == actual, $"case {i}\nscript:   {script}\nJint:     {expected}\nours:     {actual}");
            compared++;
        }

        Assert.Equal(3000, compared);
    }
}
