using Jint;
using Jint.Native;

namespace JsonStringify.Tests;

/// <summary>The benchmark corpus in testdata/, read from the test output folder.</summary>
internal static class Corpus
{
    public static string Read(string file) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", file));

    public static JsValue Parse(Engine engine, string file) =>
        engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(Read(file))]);
}
