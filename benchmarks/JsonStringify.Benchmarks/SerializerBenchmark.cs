using System.Text;
using BenchmarkDotNet.Attributes;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// Shared set-up for the C#-call scenarios: one engine, Jint 4.18.0's built-in serializer (the baseline) and ours,
/// and the value, replacer and space of the scenario.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public abstract class SerializerBenchmark : IProducesOutput, IDisposable
{
    protected Engine Engine { get; private set; } = null!;

    protected JsValue Value { get; set; } = JsValue.Undefined;

    protected JsValue Replacer { get; set; } = JsValue.Undefined;

    protected JsValue Gap { get; set; } = JsValue.Undefined;

    private Jint.Native.Json.JsonSerializer _builtin = null!;
    private JsonSerializer _ours = null!;

    [GlobalSetup]
    public void Setup()
    {
        Engine = new Engine();
        _builtin = new Jint.Native.Json.JsonSerializer(Engine);
        _ours = new JsonSerializer(Engine);
        Prepare();
    }

    [Benchmark(Baseline = true, Description = "Jint 4.18.0")]
    public JsValue Builtin() => _builtin.Serialize(Value, Replacer, Gap);

    [Benchmark(Description = "JsonStringify")]
    public JsValue Ours() => _ours.Serialize(Value, Replacer, Gap);

    public long OutputBytes() => Encoding.UTF8.GetByteCount(Ours().ToString());

    public void Dispose()
    {
        Engine?.Dispose();
        GC.SuppressFinalize(this);
    }

    /// <summary>Builds the scenario's value, replacer and space in <see cref="Engine"/>.</summary>
    protected abstract void Prepare();
}
