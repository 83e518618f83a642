using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>The direct C# call on each corpus file, compact and indented: Jint's built-in serializer against ours.</summary>
[MemoryDiagnoser]
[Config(typeof(Config))]
public class CorpusBenchmarks : IDisposable
{
    private Engine _engine = null!;
    private JsValue _document = null!;
    private JsValue _space = null!;
    private Jint.Native.Json.JsonSerializer _builtin = null!;
    private JsonSerializer _ours = null!;

    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    [Params(0, 2)]
    public int Space { get; set; }

    public static IEnumerable<string> Files => Corpus.Files;

    [GlobalSetup]
    public void Setup()
    {
        _engine = new Engine();
        _document = Corpus.Parse(_engine, File);
        _space = Space == 0 ? JsValue.Undefined : JsNumber.Create(Space);
        _builtin = new Jint.Native.Json.JsonSerializer(_engine);
        _ours = new JsonSerializer(_engine);
    }

    [Benchmark(Baseline = true, Description = "Jint 4.18.0")]
    public JsValue Builtin() => _builtin.Serialize(_document, JsValue.Undefined, _space);

    [Benchmark(Description = "JsonStringify")]
    public JsValue Ours() => _ours.Serialize(_document, JsValue.Undefined, _space);

    public void Dispose()
    {
        _engine?.Dispose();
        GC.SuppressFinalize(this);
    }

    private sealed class Config : ManualConfig
    {
        public Config()
        {
            AddColumn(new ThroughputColumn());
        }
    }
}
