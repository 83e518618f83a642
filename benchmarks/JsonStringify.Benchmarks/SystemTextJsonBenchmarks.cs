using System.Buffers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using BenchmarkDotNet.Attributes;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The System.Text.Json bridge on every corpus document and the small ones. The baseline is what hosts do today:
/// <c>JsonNode.Parse(SerializeToString(v))</c> and a walk that touches every node (JsonNode.Parse is lazy, so the walk
/// is what a caller who reads the tree pays); beside it, the same after Jint's own serializer, ToJsonNode (and the same
/// walk), ToJsonElement, and Serialize into a reused Utf8JsonWriter against our IBufferWriter overload.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class SystemTextJsonBenchmarks : IProducesOutput, IDisposable
{
    private const string SmallPrefix = "small: ";

    // Deeper than any corpus document nests; JsonNode.Parse's default is 64.
    private static readonly JsonDocumentOptions s_parseOptions = new() { MaxDepth = 256 };

    private readonly ArrayBufferWriter<byte> _buffer = new(1 << 24);
    private Engine _engine = null!;
    private JsValue _value = null!;
    private Jint.Native.Json.JsonSerializer _builtin = null!;
    private JsonSerializer _ours = null!;
    private Utf8JsonWriter _writer = null!;

    [ParamsSource(nameof(Documents))]
    public string Document { get; set; } = "";

    /// <summary>Every corpus document, then the small documents of <see cref="SmallDocumentBenchmarks"/>.</summary>
    public static IEnumerable<string> Documents => Corpus.All.Concat([SmallPrefix + "event", SmallPrefix + "array10"]);

    /// <summary>The name of a document in the paired table: its corpus name, or "small: event".</summary>
    public static string Name(string document) => document.StartsWith(SmallPrefix, StringComparison.Ordinal) ? document : Corpus.Name(document);

    [GlobalSetup]
    public void Setup()
    {
        _engine = new Engine();
        _value = Document.StartsWith(SmallPrefix, StringComparison.Ordinal)
            ? _engine.Evaluate(SmallDocumentBenchmarks.Script(Document[SmallPrefix.Length..]))
            : Corpus.ParseFile(_engine, Document);
        _builtin = new Jint.Native.Json.JsonSerializer(_engine);
        _ours = new JsonSerializer(_engine);
        _writer = new Utf8JsonWriter(_buffer);
    }

    [Benchmark(Baseline = true, Description = "JsonNode.Parse(ours) + walk")]
    public int ParseOursAndWalk() => Walk(JsonNode.Parse(_ours.SerializeToString(_value)!, documentOptions: s_parseOptions));

    [Benchmark(Description = "JsonNode.Parse(Jint 4.18.0) + walk")]
    public int ParseJintAndWalk() =>
        Walk(JsonNode.Parse(_builtin.Serialize(_value, JsValue.Undefined, JsValue.Undefined).ToString(), documentOptions: s_parseOptions));

    [Benchmark(Description = "ToJsonNode + walk")]
    public int ToJsonNode() => Walk(_ours.ToJsonNode(_value));

    [Benchmark(Description = "ToJsonElement")]
    public JsonValueKind ToJsonElement() => _ours.ToJsonElement(_value)!.Value.ValueKind;

    [Benchmark(Description = "Utf8JsonWriter")]
    public long Utf8JsonWriter()
    {
        _buffer.ResetWrittenCount();
        _writer.Reset(_buffer);
        _ours.Serialize(_value, _writer);
        _writer.Flush();
        return _buffer.WrittenCount;
    }

    [Benchmark(Description = "IBufferWriter")]
    public int BufferWriter()
    {
        _buffer.ResetWrittenCount();
        _ours.Serialize(_value, JsValue.Undefined, JsValue.Undefined, _buffer);
        return _buffer.WrittenCount;
    }

    public long OutputBytes() => Encoding.UTF8.GetByteCount(_ours.SerializeToString(_value)!);

    public void Dispose()
    {
        _writer?.Dispose();
        _engine?.Dispose();
        GC.SuppressFinalize(this);
    }

    // Touches every node: containers are enumerated (which makes a parsed tree build its children), leaves counted.
    private static int Walk(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject o:
                int inObject = 1;
                foreach (KeyValuePair<string, JsonNode?> property in o)
                {
                    inObject += Walk(property.Value);
                }

                return inObject;
            case JsonArray a:
                int inArray = 1;
                foreach (JsonNode? element in a)
                {
                    inArray += Walk(element);
                }

                return inArray;
            default:
                return 1;
        }
    }
}
