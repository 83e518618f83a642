using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Json;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// Writes the walk's tokens into a caller's <see cref="Utf8JsonWriter"/>, which owns the layout (its Indented,
/// IndentCharacter, IndentSize and NewLine), the separators, and the escaping of strings and names (its Encoder).
/// Numbers are written with JavaScript's digits. A string with an unpaired surrogate, which the writer would replace
/// with U+FFFD, is written as JSON.stringify writes it (\udXXX), raw; a property name cannot be written raw, so there
/// the writer's replacement stands. <see cref="Length"/> counts the bytes written in this call.
/// </summary>
internal readonly struct Utf8JsonWriterOutput : IJsonOutput<Utf8JsonWriterOutput>
{
    private readonly State _state;

    private Utf8JsonWriterOutput(State state) => _state = state;

    public int Depth => _state.Depth;

    public long Length
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _state.Writer!.BytesCommitted + _state.Writer.BytesPending - _state.StartLength;
    }

    public bool IsOverLimit => Length > _state.MaxLength;

    private Utf8JsonWriter Writer
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => _state.Writer!;
    }

    public static Utf8JsonWriterOutput Create() => new(new State());

    /// <summary>How deep the walk may nest in <paramref name="writer"/>: no deeper than the writer allows from where it
    /// is, so that too deep a value is the RangeError of the other overloads, never the writer's own exception.</summary>
    public static int MaxDepthIn(Utf8JsonWriter writer, int maxDepth) =>
        Math.Min(maxDepth, Math.Max(0, writer.Options.MaxDepth - writer.CurrentDepth));

    public void Start(object? destination, string gap, long maxLength)
    {
        Debug.Assert(destination is Utf8JsonWriter, "the destination is the caller's writer");
        if (gap.Length != 0)
        {
            Throw.SpaceWithUtf8JsonWriter();
        }

        var writer = Unsafe.As<Utf8JsonWriter>(destination)!;
        _state.Writer = writer;
        _state.StartLength = writer.BytesCommitted + writer.BytesPending;
        _state.MaxLength = maxLength;
        _state.Depth = 0;
    }

    // The writer is the caller's: it is not flushed here, as Utf8JsonWriter's own serializer methods leave it.
    public void Complete() => Debug.Assert(_state.Depth == 0, "every container was closed");

    public void Reset() => _state.Writer = null;

    public void WriteNull() => Writer.WriteNullValue();

    public void WriteBoolean(bool value) => Writer.WriteBooleanValue(value);

    public void WriteNumber(double value)
    {
        if (!double.IsFinite(value))
        {
            Writer.WriteNullValue();
            return;
        }

        JsNumberConverter.WriteNumber(Writer, value);
    }

    public void WriteString(string value)
    {
        if (value.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd) && HasUnpairedSurrogate(value))
        {
            WriteEscapedString(Writer, value);
            return;
        }

        Writer.WriteStringValue(value);
    }

    // Raw JSON (JSON.rawJSON's text, checked when it was made; a host serializer's, checked unless the writer skips
    // validation) goes in as it is, as the text outputs copy it.
    public void WriteRaw(string text) => Writer.WriteRawValue(text, skipInputValidation: Writer.Options.SkipValidation);

    public void StartObject()
    {
        Writer.WriteStartObject();
        _state.Depth++;
    }

    public void WritePropertyName(string name, bool first) => Writer.WritePropertyName(name);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, JsValue key, bool first) => Writer.WritePropertyName(key.ToString());

    public void EndObject(bool empty)
    {
        Writer.WriteEndObject();
        _state.Depth--;
    }

    public void StartArray()
    {
        Writer.WriteStartArray();
        _state.Depth++;
    }

    // The writer puts in the commas and the indentation itself.
    public void WriteSeparator(bool first)
    {
    }

    public void EndArray(bool empty)
    {
        Writer.WriteEndArray();
        _state.Depth--;
    }

    public void WriteEmptyArray()
    {
        Writer.WriteStartArray();
        Writer.WriteEndArray();
    }

    private const char HighSurrogateStart = '\uD800';
    private const char LowSurrogateEnd = '\uDFFF';

    private static bool HasUnpairedSurrogate(string value)
    {
        for (int i = 0; i < value.Length; i++)
        {
            char c = value[i];
            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(c))
            {
                return true;
            }
        }

        return false;
    }

    // QuoteJSONString's text, with its \udXXX escapes, written raw: it is valid JSON text, and no input validation is
    // needed for what the escaper made.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void WriteEscapedString(Utf8JsonWriter writer, string value)
    {
        char[] buffer = ArrayPool<char>.Shared.Rent((value.Length * JsonConstants.MaxEscapedCharLength) + 2);
        try
        {
            buffer[0] = '"';
            int length = 1 + StringEscaper.Escape(value, buffer.AsSpan(1));
            buffer[length++] = '"';
            writer.WriteRawValue(buffer.AsSpan(0, length), skipInputValidation: true);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(buffer);
        }
    }

    /// <summary>The caller's writer during a call, and where it stood when the call started.</summary>
    private sealed class State
    {
        public Utf8JsonWriter? Writer;
        public long StartLength;
        public long MaxLength;
        public int Depth;
    }
}
