using System.Text.Unicode;
using BenchmarkDotNet.Attributes;
using Jint;
using JsonStringify.Internals;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The UTF-8 sinks' transcoder alone: <c>Utf8Transcoder.FromUtf16</c> against the runtime's <c>Utf8.FromUtf16</c>
/// (the baseline), over our compact JSON of a document in pieces of 4,096 chars, the writer's buffer.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class TranscodingBenchmarks
{
    private const int Piece = 4096;
    private readonly byte[] _destination = new byte[Piece * 3];
    private string _text = "";

    [Params("corpus/countries", "corpus/emoji-ru", "twitter")]
    public string Document { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        using var engine = new Engine();
        _text = new JsonSerializer(engine).SerializeToString(Corpus.ParseFile(engine, Corpus.Find(Document)))
            ?? throw new InvalidOperationException($"{Document} has no JSON form.");
    }

    [Benchmark(Baseline = true)]
    public int Runtime()
    {
        int total = 0;
        for (int start = 0; start < _text.Length; start += Piece)
        {
            ReadOnlySpan<char> piece = _text.AsSpan(start, Math.Min(Piece, _text.Length - start));
            Utf8.FromUtf16(piece, _destination, out _, out int written, replaceInvalidSequences: true, isFinalBlock: false);
            total += written;
        }

        return total;
    }

    [Benchmark]
    public int Ours()
    {
        int total = 0;
        for (int start = 0; start < _text.Length; start += Piece)
        {
            ReadOnlySpan<char> piece = _text.AsSpan(start, Math.Min(Piece, _text.Length - start));
            Utf8Transcoder.FromUtf16(piece, _destination, out _, out int written);
            total += written;
        }

        return total;
    }
}
