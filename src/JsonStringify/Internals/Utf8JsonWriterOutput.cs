using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Encodings.Web;
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
        if (writer.Options.Encoder != _state.Encoder)
        {
            _state.Names.Clear();
            _state.Encoder = writer.Options.Encoder;
        }

        _state.Writer = writer;
        _state.StartLength = writer.BytesCommitted + writer.BytesPending;
        _state.MaxLength = maxLength;
        _state.Depth = 0;
    }

    // The writer is the caller's: it is not flushed here, as Utf8JsonWriter's own serializer methods leave it.
    public void Complete() => Debug.Assert(_state.Depth == 0, "every container was closed");

    public void Reset()
    {
        _state.Writer = null;
        _state.HasName = false;
    }

    public void WriteNull()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteNull(name);
            return;
        }

        Writer.WriteNullValue();
    }

    public void WriteBoolean(bool value)
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteBoolean(name, value);
            return;
        }

        Writer.WriteBooleanValue(value);
    }

    public void WriteNumber(double value)
    {
        if (!double.IsFinite(value))
        {
            WriteNull();
            return;
        }

        if (JsNumberConverter.IsExactInteger(value) && TakeName(out JsonEncodedText name))
        {
            Writer.WriteNumber(name, (long)value);
            return;
        }

        WritePendingName();
        JsNumberConverter.WriteNumber(Writer, value);
    }

    public void WriteString(string value)
    {
        if (value.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd) && HasUnpairedSurrogate(value))
        {
            WritePendingName();
            WriteEscapedString(Writer, value);
            return;
        }

        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteString(name, value);
            return;
        }

        Writer.WriteStringValue(value);
    }

    // Raw JSON (JSON.rawJSON's text, checked when it was made; a host serializer's, checked unless the writer skips
    // validation) goes in as it is, as the text outputs copy it.
    public void WriteRaw(string text)
    {
        WritePendingName();
        Writer.WriteRawValue(text, skipInputValidation: Writer.Options.SkipValidation);
    }

    public void StartObject()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteStartObject(name);
        }
        else
        {
            Writer.WriteStartObject();
        }

        _state.Depth++;
    }

    public void WritePropertyName(string name, bool first)
    {
        Debug.Assert(!_state.HasName, "a name is followed by its value");
        Writer.WritePropertyName(name);
    }

    // A name cached per hidden class or property list is encoded once for the writer's encoder, and kept until its
    // value comes, so that the two go in with one call (WriteString(name, value), ...).
    public void WriteQuotedPropertyName(string quotedWithColon, JsValue key, bool first)
    {
        Debug.Assert(!_state.HasName, "a name is followed by its value");
        if (!_state.Names.TryGetValue(quotedWithColon, out JsonEncodedText encoded))
        {
            string name = key.ToString();
            if (name.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd))
            {
                Writer.WritePropertyName(name);
                return;
            }

            encoded = EncodeName(quotedWithColon, name);
        }

        _state.Name = encoded;
        _state.HasName = true;
    }

    public void EndObject(bool empty)
    {
        Writer.WriteEndObject();
        _state.Depth--;
    }

    public void StartArray()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteStartArray(name);
        }
        else
        {
            Writer.WriteStartArray();
        }

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
        StartArray();
        EndArray(empty: true);
    }

    // The name waiting for its value, taken.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TakeName(out JsonEncodedText name)
    {
        name = _state.Name;
        if (!_state.HasName)
        {
            return false;
        }

        _state.HasName = false;
        return true;
    }

    private void WritePendingName()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WritePropertyName(name);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private JsonEncodedText EncodeName(string quotedWithColon, string name)
    {
        if (_state.Names.Count == MaxCachedNames)
        {
            _state.Names.Clear();
        }

        var encoded = JsonEncodedText.Encode(name, _state.Encoder);
        _state.Names.Add(quotedWithColon, encoded);
        return encoded;
    }

    // The most encoded property names kept; past it the cache starts again.
    private const int MaxCachedNames = 4096;

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

    /// <summary>The caller's writer during a call, and where it stood when the call started; the name waiting for its
    /// value; the encoded names (keyed by the quoted name's reference: each is one string of a hidden class or property
    /// list), kept from call to call while the writers' encoder is the same.</summary>
    private sealed class State
    {
        public readonly Dictionary<string, JsonEncodedText> Names = new(ReferenceEqualityComparer.Instance);
        public JavaScriptEncoder? Encoder;
        public JsonEncodedText Name;
        public bool HasName;
        public Utf8JsonWriter? Writer;
        public long StartLength;
        public long MaxLength;
        public int Depth;
    }

}
