using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// The JSON text output: every call goes straight to the walker's <see cref="JsonWriter"/>, which hands its char buffer
/// to an <see cref="OutputSink"/> (a string, UTF-8, a stream, a text writer).
/// </summary>
internal readonly struct TextOutput : IJsonOutput<TextOutput>
{
    private readonly JsonWriter _writer;

    private TextOutput(JsonWriter writer) => _writer = writer;

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

    public static TextOutput Create() => new(new JsonWriter());

    public void Start(object? destination, string gap, long maxLength)
    {
        Debug.Assert(destination is OutputSink, "text goes to a sink");
        _writer.Start(Unsafe.As<OutputSink>(destination)!, gap, maxLength);
    }

    public void Complete() => _writer.Complete();

    public void Reset() => _writer.Reset();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNull() => _writer.WriteNull();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteBoolean(bool value) => _writer.WriteBoolean(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNumber(double value) => _writer.WriteNumber(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteString(string value) => _writer.WriteString(value);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteRaw(string text) => _writer.WriteRaw(text);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void StartObject() => _writer.StartObject();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WritePropertyName(string name, bool first) => _writer.WritePropertyName(name, first);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, JsValue key, bool first) =>
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
