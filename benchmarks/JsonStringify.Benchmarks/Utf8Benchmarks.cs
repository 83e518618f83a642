using System.Buffers;
using System.Text;
using BenchmarkDotNet.Attributes;
using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// UTF-8 output of each document, compact and with space = 2: Jint 4.18.0's IBufferWriter overload (the baseline)
/// against ours to an IBufferWriter, a Stream and a TextWriter, and against our string encoded with Encoding.UTF8. The
/// destination is reused across calls, so what is allocated is the serializer's own.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class Utf8Benchmarks : IProducesOutput, IDisposable
{
    private readonly ArrayBufferWriter<byte> _writer = new(1 << 24);
    private Engine _engine = null!;
    private JsValue _document = null!;
    private Jint.Native.Json.JsonSerializer _builtin = null!;
    private JsonSerializer _ours = null!;
    private StreamWriter _text = null!;
    private JsValue _gap = JsValue.Undefined;

    [ParamsSource(nameof(Files))]
    public string File { get; set; } = "";

    [Params(0, 2)]
    public int Space { get; set; }

    public static IEnumerable<string> Files => Corpus.All;

    [GlobalSetup]
    public void Setup()
    {
        _engine = new Engine();
        _document = Corpus.ParseFile(_engine, File);
        _builtin = new Jint.Native.Json.JsonSerializer(_engine);
        _ours = new JsonSerializer(_engine);
        _text = new StreamWriter(System.IO.Stream.Null, new UTF8Encoding(false), 1 << 16);
        _gap = Space == 0 ? JsValue.Undefined : JsNumber.Create(Space);
    }

    [Benchmark(Baseline = true, Description = "Jint 4.18.0 IBufferWriter")]
    public int Builtin()
    {
        _writer.ResetWrittenCount();
        _builtin.Serialize(_document, JsValue.Undefined, _gap, _writer);
        return _writer.WrittenCount;
    }

    [Benchmark(Description = "IBufferWriter")]
    public int BufferWriter()
    {
        _writer.ResetWrittenCount();
        _ours.Serialize(_document, JsValue.Undefined, _gap, _writer);
        return _writer.WrittenCount;
    }

    [Benchmark(Description = "Stream")]
    public bool Stream() => _ours.Serialize(_document, JsValue.Undefined, _gap, System.IO.Stream.Null);

    [Benchmark(Description = "TextWriter")]
    public bool TextWriter() => _ours.Serialize(_document, JsValue.Undefined, _gap, _text);

    [Benchmark(Description = "string + Encoding.UTF8")]
    public int StringThenUtf8()
    {
        _writer.ResetWrittenCount();
        return Encoding.UTF8.GetBytes(_ours.SerializeToString(_document, space: _gap)!, _writer) > 0 ? _writer.WrittenCount : 0;
    }

    public long OutputBytes()
    {
        BufferWriter();
        return _writer.WrittenCount;
    }

    public void Dispose()
    {
        _engine?.Dispose();
        _text?.Dispose();
        GC.SuppressFinalize(this);
    }
}
