using System.Buffers;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>
/// The JSON text output as chars: every call goes straight to its <see cref="JsonWriter"/>, which hands its char buffer
/// to the call's <see cref="TextSink"/> (a string result's chunks, or a text writer). The output owns one sink of each
/// kind it can write to, reused from call to call; the entry chooses the destination of a call with one of the
/// <c>WriteTo</c> methods before the walk starts.
/// </summary>
internal readonly struct TextOutput : IJsonOutput<TextOutput>
{
    private readonly JsonWriter _writer;
    private readonly StringSink _string;
    private readonly TextWriterSink _textWriter;

    private TextOutput(JsonWriter writer)
    {
        _writer = writer;
        _string = new StringSink();
        _textWriter = new TextWriterSink();
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

    // Text has no other plain form of a name than its quoted one.
    public static bool NeedsPlainNames => false;

    public static TextOutput Create() => new(new JsonWriter());

    /// <summary>The text goes into a string built from chunks of <paramref name="pool"/>: the sink's result once the
    /// walk succeeded.</summary>
    public StringSink WriteToString(ArrayPool<char> pool)
    {
        _writer.SetSink(_string.Start(pool));
        return _string;
    }

    /// <summary>The text goes as chars into <paramref name="writer"/>.</summary>
    public void WriteTo(TextWriter writer) => _writer.SetSink(_textWriter.Start(writer));

    public int LimitDepth(int maxDepth) => maxDepth;

    public void Start(string gap, long maxLength) => _writer.Start(gap, maxLength);

    public void Complete() => _writer.Complete();

    // The writer first: the buffer it writes in may be a chunk its sink handed it, which only the sink's release gives
    // back.
    public void Reset()
    {
        TextSink? sink = _writer.Sink;
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
