using System.Text.Json.Nodes;
using Jint;
using Jint.Native;
using JsonStringify;

using var engine = new Engine();
var serializer = new JsonSerializer(engine);   // one per engine; reusable, not thread-safe

// A C# object, passed in as a JS value: Jint wraps it, and its public properties become JSON properties.
JsValue order = JsValue.FromObject(engine, new { Id = 7, Items = new[] { "tea", "milk" }, Total = 4.5 });

// As a .NET string; null when the value has no JSON form (undefined, a function, a symbol).
string? json = serializer.SerializeToString(order);
Console.WriteLine(json);   // {"Id":7,"Items":["tea","milk"],"Total":4.5}

// As JSON.stringify for the scripts of this engine.
engine.UseJsonStringify();
engine.SetValue("order", order);
Console.WriteLine(engine.Evaluate("JSON.stringify({ order, at: new Date(0), tags: new Set(['x']) })"));
// {"order":{"Id":7,"Items":["tea","milk"],"Total":4.5},"at":"1970-01-01T00:00:00.000Z","tags":{}}

// As UTF-8 straight to a file, without a string in between.
await using (FileStream file = File.Create("order.json"))
{
    bool written = await serializer.SerializeAsync(order, file);   // true: written; false: no JSON form, nothing written
    Console.WriteLine(written);   // True
}

Console.WriteLine(File.ReadAllText("order.json"));   // {"Id":7,"Items":["tea","milk"],"Total":4.5}

// Into System.Text.Json, without text in between: nodes built directly, or one value inside a writer's document.
JsonNode? node = serializer.ToJsonNode(order);
Console.WriteLine(node?["Items"]?[1]);   // milk

using var buffer = new MemoryStream();
using (var writer = new System.Text.Json.Utf8JsonWriter(buffer))
{
    writer.WriteStartObject();
    writer.WritePropertyName("order");
    serializer.Serialize(order, writer);   // true, as for the other sinks; the writer's options set the layout
    writer.WriteEndObject();
}

Console.WriteLine(System.Text.Encoding.UTF8.GetString(buffer.ToArray()));   // {"order":{"Id":7,"Items":["tea","milk"],"Total":4.5}}
