using System.Globalization;
using System.Text;
using BenchmarkDotNet.Attributes;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The direct C# call on each document, the classic ones and the wider corpus, compact and with space = 2.
/// </summary>
public class CorpusBenchmarks : SerializerBenchmark
{
    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    [Params(0, 2)]
    public int Space { get; set; }

    public static IEnumerable<string> Files => Corpus.All;

    protected override void Prepare()
    {
        Value = Corpus.ParseFile(Engine, File);
        Gap = Space == 0 ? JsValue.Undefined : JsNumber.Create(Space);
    }
}

/// <summary>
/// A replacer on each corpus document: the identity function, or a property list of every key it has.
/// </summary>
public class ReplacerBenchmarks : SerializerBenchmark
{
    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    [Params("function", "list")]
    public string Kind { get; set; } = "";

    public static IEnumerable<string> Files => Corpus.Files;

    protected override void Prepare()
    {
        Value = Corpus.ParseFile(Engine, File);
        Engine.SetValue("doc", Value);
        Replacer = Kind == "function"
            ? Engine.Evaluate("(function (k, v) { return v; })")
            : Engine.Evaluate("""
                (function () {
                  var keys = new Set();
                  (function visit(v) {
                    if (v && typeof v === 'object') {
                      if (!Array.isArray(v)) { for (var k of Object.keys(v)) keys.add(k); }
                      for (var k of Object.keys(v)) visit(v[k]);
                    }
                  })(doc);
                  return Array.from(keys);
                })()
                """);
    }
}

/// <summary>
/// Documents built in script, as scripts build most of what they stringify: the parsed document ("parsed", for
/// comparison) rebuilt by testdata/rebuild.js by assignment to new object literals ("assigned"), the same with one key
/// added and deleted on each object ("deleted"), by Object.assign({}, ...) ("Object.assign"), and as instances of one
/// class per key set ("class"). Every build serializes to the same text as the parsed document. "parsed late" is the
/// document parsed by an engine that has already parsed one of many key sets (the npm lockfile): there, Jint 4.18.0's
/// JSON.parse makes property tables instead of hidden classes (all 876 objects of the job list), as for objects built
/// by assignment, so a long-lived engine serializes tables (see docs/benchmarks.md).
/// </summary>
public class BuiltBenchmarks : SerializerBenchmark
{
    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    [ParamsSource(nameof(Builds))]
    public string Build { get; set; } = "";

    public static IEnumerable<string> Files => ["citm_catalog.json", "twitter.json", "corpus/joblist.json", "corpus/events.json"];

    public static IEnumerable<string> Builds => ["parsed", "parsed late", "assigned", "deleted", "Object.assign", "class"];

    protected override void Prepare()
    {
        if (Build == "parsed late")
        {
            _ = Corpus.ParseFile(Engine, "corpus/lockfile.json");
        }

        Value = Corpus.ParseFile(Engine, File);
        if (Build is not "parsed" and not "parsed late")
        {
            Value = Corpus.Rebuild(Engine, Value, Build);
        }
    }
}

/// <summary>
/// Row tables as data tools pass them around, generated with a fixed seed: 20,000 rows × 20 columns and 1,000 rows ×
/// 1,000 columns of mixed strings, integers, doubles and booleans.
/// </summary>
public class TableBenchmarks : SerializerBenchmark
{
    [Params("20000x20", "1000x1000")]
    public string Shape { get; set; } = "";

    protected override void Prepare()
    {
        string[] size = Shape.Split('x');
        Value = Corpus.Parse(Engine, Generate(int.Parse(size[0], CultureInfo.InvariantCulture), int.Parse(size[1], CultureInfo.InvariantCulture), seed: 2463534242));
    }

    // The same generator as benchmarks/v8-bench.mjs, so that V8 is measured on the same text: xorshift32 from the
    // seed, and only values whose text is the same in .NET and JavaScript (doubles are thousandths).
    internal static string Generate(int rows, int columns, uint seed)
    {
        uint state = seed;
        uint Next()
        {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            return state;
        }

        var json = new StringBuilder("[");
        for (int r = 0; r < rows; r++)
        {
            json.Append(r == 0 ? "{" : ",{");
            for (int c = 0; c < columns; c++)
            {
                json.Append(c == 0 ? "\"" : ",\"").Append("column").Append(c).Append("\":");
                uint x = Next();
                switch (c % 4)
                {
                    case 0:
                        json.Append("\"value ").Append(x % 100000).Append('"');
                        break;
                    case 1:
                        json.Append((long)(x % 200000) - 100000);
                        break;
                    case 2:
                        json.Append((x % 1000000 / 1000.0).ToString("R", CultureInfo.InvariantCulture));
                        break;
                    default:
                        json.Append((x & 1) == 0 ? "true" : "false");
                        break;
                }
            }

            json.Append('}');
        }

        return json.Append(']').ToString();
    }
}

/// <summary>
/// The 20,000 × 20 table of <see cref="TableBenchmarks"/> as UTF-8 into a reused buffer, against Jint's own UTF-8
/// overload. The string row makes a new 15 MB string per call, and on this machine that row's mean is mostly the page
/// faults of writing it (docs/benchmarks.md); this row has none, so it shows the serializing alone.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class TableUtf8Benchmarks : IProducesOutput, IDisposable
{
    private readonly System.Buffers.ArrayBufferWriter<byte> _writer = new(1 << 24);
    private Engine _engine = null!;
    private JsValue _table = null!;
    private Jint.Native.Json.JsonSerializer _builtin = null!;
    private JsonSerializer _ours = null!;

    [GlobalSetup]
    public void Setup()
    {
        _engine = new Engine();
        _table = Corpus.Parse(_engine, TableBenchmarks.Generate(20000, 20, seed: 2463534242));
        _builtin = new Jint.Native.Json.JsonSerializer(_engine);
        _ours = new JsonSerializer(_engine);
    }

    [Benchmark(Baseline = true, Description = "Jint 4.18.0 IBufferWriter")]
    public int Builtin()
    {
        _writer.ResetWrittenCount();
        _builtin.Serialize(_table, JsValue.Undefined, JsValue.Undefined, _writer);
        return _writer.WrittenCount;
    }

    [Benchmark(Description = "IBufferWriter")]
    public int BufferWriter()
    {
        _writer.ResetWrittenCount();
        _ours.Serialize(_table, JsValue.Undefined, JsValue.Undefined, _writer);
        return _writer.WrittenCount;
    }

    public long OutputBytes()
    {
        BufferWriter();
        return _writer.WrittenCount;
    }

    public void Dispose()
    {
        _engine?.Dispose();
        GC.SuppressFinalize(this);
    }
}

/// <summary>
/// Small documents at high frequency, where the fixed cost of a call dominates: a ~1 KB event-like object (about 20
/// properties, a few nested) and a 10-element array of small objects.
/// </summary>
public class SmallDocumentBenchmarks : SerializerBenchmark
{
    [Params("event", "array10")]
    public string Document { get; set; } = "";

    /// <summary>
    /// The script that builds a small document: an event envelope of about 1 KB, or ten small records.
    /// </summary>
    public static string Script(string document) => document == "event"
        ? """
            ({
              id: 'evt_01HZX3K8Q4M9V2', type: 'order.updated', version: 3, source: 'checkout-service',
              occurredAt: '2026-11-22T10:15:30.123Z', tenant: 'acme-corp', correlationId: '5f1c2d9e-8b7a-4c3d-9e1f-2a3b4c5d6e7f',
              actor: { id: 48213, name: 'Jane Doe', email: 'jane.doe@example.com', roles: ['admin', 'buyer'] },
              order: {
                id: 'ord_778899', status: 'paid', currency: 'EUR', total: 1249.95, discount: 50.5, items: 3,
                shipping: { method: 'express', cost: 12.9, address: { city: 'Lyon', zip: '69002', country: 'FR' } }
              },
              flags: { priority: true, gift: false, fraudChecked: true },
              tags: ['vip', 'q4', 'promo-2026'], retries: 0, ttl: 3600, score: 0.87345,
              note: 'Customer asked for "fragile" handling\nLeave at door.', checksum: 'sha256:9f86d081884c7d659a2feaa0c55ad015'
            })
            """
        : "Array.from({length: 10}, (_, i) => ({ id: i, name: 'item ' + i, price: i * 1.25, inStock: i % 2 === 0 }))";

    protected override void Prepare() => Value = Engine.Evaluate(Script(Document));
}

/// <summary>In-script JSON.stringify(doc): an engine with ours installed against an engine with the built-in.</summary>
[Config(typeof(BenchmarkConfig))]
public class ScriptBenchmarks : IProducesOutput, IDisposable
{
    private Engine _builtin = null!;
    private Engine _ours = null!;
    private Prepared<Acornima.Ast.Script> _script;

    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    public static IEnumerable<string> Files => Corpus.Files;

    [GlobalSetup]
    public void Setup()
    {
        _builtin = new Engine();
        _ours = new Engine().UseJsonStringify();
        string json = Corpus.Read(File);
        _builtin.SetValue("doc", Corpus.Parse(_builtin, json));
        _ours.SetValue("doc", Corpus.Parse(_ours, json));
        _script = Engine.PrepareScript("JSON.stringify(doc)");
    }

    [Benchmark(Baseline = true, Description = "Jint 4.18.0")]
    public JsValue Builtin() => _builtin.Evaluate(_script);

    [Benchmark(Description = "JsonStringify")]
    public JsValue Ours() => _ours.Evaluate(_script);

    public long OutputBytes() => Encoding.UTF8.GetByteCount(Ours().ToString());

    public void Dispose()
    {
        _builtin?.Dispose();
        _ours?.Dispose();
        GC.SuppressFinalize(this);
    }
}
