using System.Text.Json;
using Jint;
using JsonStringify;
using JsonSerializer = System.Text.Json.JsonSerializer;
using JsonSerializerOptions = System.Text.Json.JsonSerializerOptions;
using JsSerializer = JsonStringify.JsonSerializer;
using JsSerializerOptions = JsonStringify.JsonSerializerOptions;

// Outside the JsonStringify namespace, as a user's code is: inside it, JsonSerializer would name ours before any alias.
namespace ReadMeSamples;

/// <summary>
/// The README's aliases for a file that uses System.Text.Json beside JsonStringify (its first lines).
/// </summary>
public class Aliases
{
    private static readonly JsonSerializerOptions s_compact = new() { WriteIndented = false };

    [Fact]
    public void NameBothSerializersWithoutAmbiguity()
    {
        using Engine engine = new Engine().UseJsonStringify(new JsSerializerOptions { MaxDepth = 100 });
        string? fromEngine = new JsSerializer(engine).SerializeToString(engine.Evaluate("({ a: [1, 'x'] })"));
        string fromDotNet = JsonSerializer.Serialize(new { a = new object[] { 1, "x" } }, s_compact);
        Assert.Equal(fromDotNet, fromEngine);
        Assert.Equal(JsonValueKind.Object, JsonDocument.Parse(fromEngine!).RootElement.ValueKind);
    }
}
