using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>The checked-in documents of testdata/, and documents generated with a fixed seed.</summary>
public static class Corpus
{
    public static IEnumerable<string> Files => ["canada.json", "citm_catalog.json", "twitter.json"];

    public static string Read(string file) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", file));

    public static JsValue Parse(Engine engine, string json) =>
        engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(json)]);

    public static JsValue ParseFile(Engine engine, string file) => Parse(engine, Read(file));
}
