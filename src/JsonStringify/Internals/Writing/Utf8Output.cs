using System.Buffers;
using System.Runtime.CompilerServices;
using System.Threading.Channels;

namespace JsonStringify.Internals;

/// <summary>
/// The JSON text output as UTF-8: every call goes straight to its <see cref="Utf8Writer"/>, which copies its byte
/// buffer into the call's <see cref="Utf8Sink"/>. The output owns one sink of each kind it can write to, reused from
/// call to call; the entry chooses the destination of a call with one of the <c>WriteTo</c> methods before the walk
/// starts. The bytes are the UTF-8 of what <see cref="TextOutput"/> writes as chars for the same walk.
/// </summary>
internal readonly struct Utf8Output : IJsonOutput<Utf8Output>
{
    private readonly Utf8Writer _writer;
    private readonly BufferWriterSink _bufferWriter;
    private readonly ChunkSink _chunks;

    private Utf8Output(Utf8Writer writer)
    {
        _writer = writer;
        _bufferWriter = new BufferWriterSink();
        _chunks = new ChunkSink();
    }

    public int Depth
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _writer.Depth;
    }

    public long Length
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _writer.Length;
    }

    public bool IsOverLimit
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _writer.IsOverLimit;
    }

    // The quoted name is the UTF-8 writer's form of a name too.
    public static bool NeedsPlainNames => false;

    public static Utf8Output Create() => new(new Utf8Writer());

    /// <summary>The bytes go into <paramref name="writer"/>.</summary>
    public void WriteTo(IBufferWriter<byte> writer) => _writer.SetSink(_bufferWriter.Start(writer));

    /// <summary>The bytes go into <paramref name="stream"/>, in chunks.</summary>
    public void WriteTo(Stream stream) => _writer.SetSink(_chunks.Start(stream));

    /// <summary>The bytes go in chunks into <paramref name="channel"/>, whose reader returns them to the pool.</summary>
    public void WriteTo(ChannelWriter<ReadOnlyMemory<byte>> channel, CancellationToken cancellationToken) =>
        _writer.SetSink(_chunks.Start(channel, cancellationToken));

    public int LimitDepth(int maxDepth) => maxDepth;

    public void Start(string gap, long maxLength) => _writer.Start(gap, maxLength);

    public void Complete() => _writer.Complete();

    public void Reset()
    {
        Utf8Sink? sink = _writer.Sink;
        _writer.Reset();
        sink?.Release();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteLiteral(JsonLiteral literal) => _writer.WriteLiteral(literal);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNumber(double value) => _writer.WriteNumber(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteErraticNumber(double value) => _writer.WriteErraticNumber(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteString(string value) => _writer.WriteString(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteRaw(string text) => _writer.WriteRaw(text);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void StartObject() => _writer.StartObject();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WritePropertyName(string name, bool first) => _writer.WritePropertyName(name, first);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, string? name, bool first) =>
        _writer.WriteQuotedPropertyName(quotedWithColon, first);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndObject(bool empty) => _writer.EndObject(empty);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void StartArray() => _writer.StartArray();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteSeparator(bool first) => _writer.WriteSeparator(first);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void EndArray(bool empty) => _writer.EndArray(empty);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteEmptyArray() => _writer.WriteEmptyArray();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteEmptyObject() => _writer.WriteEmptyObject();
}
