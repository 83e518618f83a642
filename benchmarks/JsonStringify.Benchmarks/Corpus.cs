using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>The checked-in documents of testdata/, parsed once with Jint's JSON.parse.</summary>
public static class Corpus
{
    public static IEnumerable<string> Files => ["canada.json", "citm_catalog.json", "twitter.json"];

    public static string Read(string file) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", file));

    public static JsValue Parse(Engine engine, string file) =>
        engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(Read(file))]);
}
