using System.Text.Unicode;
using BenchmarkDotNet.Attributes;
using Jint;
using JsonStringify.Internals;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The UTF-8 sinks' transcoder alone: <c>Utf8Transcoder.FromUtf16</c> against the runtime's <c>Utf8.FromUtf16</c>
/// (the baseline), over our compact JSON of a document in pieces of 4,096 chars, the writer's buffer. The first piece
/// is of another length in every call, so that the pieces fall on the text differently each time, as the writer's
/// buffers do from one document to the next: over the same pieces call after call, the processor's branch predictor
/// learns the whole sequence of the blocks' kinds, and a transcoder whose time goes mostly to its branches on text that
/// mixes them looks much faster than it is inside a serializer's call.
/// </summary>
[Config(typeof(BenchmarkConfig))]
public class TranscodingBenchmarks
{
    private const int Piece = 4096;
    private readonly byte[] _destination = new byte[Piece * 3];
    private string _text = "";
    private uint _calls;

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
        int length = FirstPieceLength();
        for (int start = 0; start < _text.Length; length = Piece)
        {
            ReadOnlySpan<char> piece = _text.AsSpan(start, Math.Min(length, _text.Length - start));
            Utf8.FromUtf16(piece, _destination, out int read, out int written, replaceInvalidSequences: true, isFinalBlock: false);
            start += read;
            total += written;
        }

        return total;
    }

    [Benchmark]
    public int Ours()
    {
        int total = 0;
        int length = FirstPieceLength();
        for (int start = 0; start < _text.Length; length = Piece)
        {
            ReadOnlySpan<char> piece = _text.AsSpan(start, Math.Min(length, _text.Length - start));
            Utf8Transcoder.FromUtf16(piece, _destination, out int read, out int written);
            start += read;
            total += written;
        }

        return total;
    }

    // From 2 to 4,096 chars, a step of 997 (prime to 4,095) from one call to the next. A piece of two chars or more
    // always moves on: where a surrogate pair is cut at its end, the high surrogate is left for the next piece.
    private int FirstPieceLength() => 2 + (int)(++_calls * 997 % (Piece - 1));
}
