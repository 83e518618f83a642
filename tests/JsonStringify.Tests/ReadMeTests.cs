using System.Buffers;
using System.Text;
using Jint;
using Jint.Native;

namespace JsonStringify.Tests;

/// <summary>The README's quick start, kept as code that runs, so the README cannot go stale.</summary>
public class ReadMeTests
{
    [Fact]
    public void QuickStartDirectCall()
    {
        // README: C# call
        using var engine = new Engine();
        JsValue order = engine.Evaluate("({ id: 7, items: ['tea', 'milk'], total: 4.5 })");

        var serializer = new JsonSerializer(engine);   // one per engine, reusable
        string? json = serializer.SerializeToString(order);
        string? pretty = serializer.SerializeToString(order, space: 2);
        JsValue asJs = serializer.Serialize(order);    // a JsString, or JsValue.Undefined

        Assert.Equal("{\"id\":7,\"items\":[\"tea\",\"milk\"],\"total\":4.5}", json);
        Assert.Equal("{\n  \"id\": 7,\n  \"items\": [\n    \"tea\",\n    \"milk\"\n  ],\n  \"total\": 4.5\n}", pretty);
        Assert.Equal(json, asJs.ToString());
    }

    [Fact]
    public async Task QuickStartStreaming()
    {
        using var engine = new Engine();
        JsValue order = engine.Evaluate("({ id: 7, items: ['tea', 'milk'], total: 4.5 })");
        var serializer = new JsonSerializer(engine);
        string path = Path.Combine(Path.GetTempPath(), $"order-{Guid.NewGuid():N}.json");
        try
        {
            // README: streaming
            await using (var file = File.Create(path))
            {
                bool written = await serializer.SerializeAsync(order, file);   // false: no JSON form, nothing written
                Assert.True(written);
            }

            var buffer = new ArrayBufferWriter<byte>();
            serializer.Serialize(order, JsValue.Undefined, 2, buffer);      // replacer and space work everywhere

            Assert.Equal(serializer.SerializeToString(order), File.ReadAllText(path));
            Assert.Equal(serializer.SerializeToString(order, space: 2), Encoding.UTF8.GetString(buffer.WrittenSpan));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void QuickStartScripts()
    {
        // README: in scripts
        using var engine = new Engine().UseJsonStringify();
        string json = engine.Evaluate("JSON.stringify({ when: new Date(0), tags: new Set() })").ToString();

        // README: or for every engine built from the same options
        var options = new Options().UseJsonStringify();
        using var other = new Engine(options);

        Assert.Equal("{\"when\":\"1970-01-01T00:00:00.000Z\",\"tags\":{}}", json);
        Assert.Equal("[1]", other.Evaluate("JSON.stringify([1])").ToString());
    }
}
