using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace JsonStringify.Internals;

/// <summary>
/// Writes the walk's tokens into a caller's <see cref="Utf8JsonWriter"/>, which owns the layout (its Indented,
/// IndentCharacter, IndentSize and NewLine), the separators, and the escaping of strings and names (its Encoder).
/// Numbers are written with JavaScript's digits. A string with an unpaired surrogate, which the writer would replace
/// with U+FFFD, is written as JSON.stringify writes it (\udXXX), raw; a property name cannot be written raw, so there
/// the writer's replacement stands. <see cref="Length"/> counts the bytes written in this call.
/// <c>WriteRawValue</c> writes the comma but never the line break and indentation an indented writer puts before a
/// value, so with an indented writer what would go raw goes through the writer's own value methods where it can
/// (numbers, see <see cref="JsNumberConverter"/>; raw JSON through a <see cref="JsonElement"/>), and otherwise raw
/// with that layout written in front of it (see <see cref="LayoutLength"/>).
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

    // A name not yet encoded for the writer's encoder is encoded from its plain form.
    public static bool NeedsPlainNames => true;

    public static Utf8JsonWriterOutput Create() => new(new State());

    /// <summary>The tokens go into <paramref name="writer"/>, the caller's, from where it is.</summary>
    public void WriteTo(Utf8JsonWriter writer)
    {
        Debug.Assert(_state.Writer is null, "one writer per call");
        _state.Writer = writer;
    }

    // No deeper than the writer allows from where it is, so that too deep a value is the RangeError of the other
    // overloads, never the writer's own exception.
    public int LimitDepth(int maxDepth) => Math.Min(maxDepth, Math.Max(0, Writer.Options.MaxDepth - Writer.CurrentDepth));

    public void Start(string gap, long maxLength)
    {
        if (gap.Length != 0)
        {
            Throw.SpaceWithUtf8JsonWriter();
        }

        Utf8JsonWriter writer = Writer;
        if (writer.Options.Encoder != _state.Encoder)
        {
            _state.Names.Clear();
            _state.Encoder = writer.Options.Encoder;
        }

        _state.Indented = writer.Options.Indented;
        if (_state.Indented)
        {
            _state.SetIndentUnit(writer.Options);
        }

        _state.ArrayElement = false;
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
        _state.PlainName = null;
    }

    public void WriteLiteral(JsonLiteral literal)
    {
        if (literal == JsonLiteral.Null)
        {
            WriteNull();
        }
        else
        {
            WriteBoolean(literal == JsonLiteral.True);
        }
    }

    private void WriteNull()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteNull(name);
            return;
        }

        Writer.WriteNullValue();
    }

    private void WriteBoolean(bool value)
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WriteBoolean(name, value);
            return;
        }

        Writer.WriteBooleanValue(value);
    }

    public void WriteErraticNumber(double value) => WriteNumber(value);

    public void WriteNumber(double value)
    {
        if (!double.IsFinite(value))
        {
            WriteNull();
            return;
        }

        if (NumberFormatter.IsExactInteger(value) && TakeName(out JsonEncodedText name))
        {
            Writer.WriteNumber(name, (long)value);
            return;
        }

        WritePendingName();
        JsNumberConverter.WriteNumber(Writer, value, _state.Indented);
    }

    public void WriteString(string value)
    {
        if (Surrogates.HasUnpaired(value))
        {
            WritePendingName();
            WriteEscapedString(value);
            return;
        }

        if (value.Length > MaxStringTokenLength)
        {
            WritePendingName();
            WriteStringInSegments(value);
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
    // validation) goes in as it is, as the text outputs copy it, unless the writer lays it out (IsLaidOutByWriter). A
    // surrogate in it without its other half becomes U+FFFD, as the UTF-8 sinks write it: the writer cannot encode it.
    public void WriteRaw(string text)
    {
        WritePendingName();
        text = Surrogates.ReplaceUnpaired(text);
        JsonWriterOptions options = Writer.Options;
        if (IsLaidOutByWriter(text, options))
        {
            WriteParsed(Writer, text);
            return;
        }

        WriteRawValue(text, options.SkipValidation);
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

    // A name read with its object (a property table's, a host object's) waits for its value plain, to go in just before
    // it: encoding it for one call with the value would cost an allocation per property.
    public void WritePropertyName(string name, bool first)
    {
        Debug.Assert(!_state.HasName, "a name is followed by its value");
        _state.ArrayElement = false;
        _state.PlainName = name;
        _state.HasName = true;
    }

    // A name cached per hidden class or property list is encoded once for the writer's encoder, and kept until its
    // value comes, so that the two go in with one call (WriteString(name, value), ...).
    public void WriteQuotedPropertyName(string quotedWithColon, string? name, bool first)
    {
        Debug.Assert(!_state.HasName, "a name is followed by its value");
        Debug.Assert(name is not null, "this output needs plain names");
        _state.ArrayElement = false;
        if (!_state.Names.TryGetValue(quotedWithColon, out JsonEncodedText encoded))
        {
            if (Surrogates.HasAny(name))
            {
                // Plain: JsonEncodedText.Encode rejects an unpaired surrogate, which WritePropertyName replaces.
                _state.PlainName = name;
                _state.HasName = true;
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

    // The writer puts in the commas and the indentation itself; what follows is an element of one of our arrays.
    public void WriteSeparator(bool first) => _state.ArrayElement = true;

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

    public void WriteEmptyObject()
    {
        StartObject();
        EndObject(empty: true);
    }

    // The name waiting for its value, taken: true with an encoded name, which the caller writes with the value in one
    // call; a plain name is written here on its own (false), and the caller writes the value after it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TakeName(out JsonEncodedText name)
    {
        name = _state.Name;
        if (!_state.HasName)
        {
            return false;
        }

        _state.HasName = false;
        if (_state.PlainName is not null)
        {
            WritePlainName();
            return false;
        }

        return true;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WritePlainName()
    {
        Writer.WritePropertyName(_state.PlainName!);
        _state.PlainName = null;
    }

    private void WritePendingName()
    {
        if (TakeName(out JsonEncodedText name))
        {
            Writer.WritePropertyName(name);
        }
    }

    // The longest string the writer takes in one call (its largest token, a billion bytes, at three bytes a char).
    private const int MaxStringTokenLength = 166_666_666;

    // The chars a longer string goes in per call, in segments that the writer joins into one string token.
    private const int StringSegmentLength = 1 << 24;

    // A string longer than the writer takes in one call, in segments; none ends between the two halves of a pair.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteStringInSegments(string value)
    {
        ReadOnlySpan<char> rest = value;
        while (rest.Length > StringSegmentLength)
        {
            int take = StringEscaper.SliceLength(rest, StringSegmentLength);
            Writer.WriteStringValueSegment(rest[..take], isFinalSegment: false);
            rest = rest[take..];
        }

        Writer.WriteStringValueSegment(rest, isFinalSegment: true);
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

    /// <summary>
    /// Whether raw JSON going into a writer with these options is parsed and written by the writer itself, token by
    /// token (<see cref="WriteParsed"/>), rather than copied as it is (<see cref="WriteRawValue"/>). An indented writer
    /// lays out raw JSON so, as its own values (a host serializer's objects and arrays included), escaping its strings
    /// with its encoder; a number keeps its text. The same text and the same checks as WriteRawValue's (a JSON value,
    /// at most 64 levels deep, the same JsonException when it is not). Text the writer is told not to validate, and
    /// text with a surrogate or what may be a surrogate's escape (\uD...; the element could not write an unpaired one),
    /// are copied.
    /// </summary>
    private static bool IsLaidOutByWriter(string text, JsonWriterOptions options) =>
        options.Indented
        && !options.SkipValidation
        && !Surrogates.HasAny(text)
        && !text.Contains("\\ud", StringComparison.OrdinalIgnoreCase);

    // QuoteJSONString's text, with its \udXXX escapes, written raw: it is valid JSON text, and no input validation is
    // needed for what the escaper made.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteEscapedString(string value)
    {
        if (value.Length > MaxRawValueLength / JsonConstants.MaxEscapedCharLength)
        {
            WriteLongEscapedString(value);
            return;
        }

        char[] buffer = ArrayPool<char>.Shared.Rent(StringEscaper.RoomFor(value.Length) + 2);
        try
        {
            int length = 0;
            buffer[length++] = '"';
            length += StringEscaper.Escape(value, buffer.AsSpan(length));
            buffer[length++] = '"';
            WriteRawValue(buffer.AsSpan(0, length), skipValidation: true);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(buffer);
        }
    }

    // The longest raw value the writer takes, in chars (its largest token, at three bytes a char).
    private const int MaxRawValueLength = int.MaxValue / 3;

    // WriteEscapedString for a string whose escape could be longer than the writer takes raw: escaped a slice at a
    // time, once to count, and again into a buffer of that length. Longer than the writer takes is the writer's own
    // exception.
    private void WriteLongEscapedString(string value)
    {
        long length = 2 + StringEscaper.EscapeInSlices(value, []);
        if (length > MaxRawValueLength)
        {
            throw new ArgumentException($"The JSON value of length {length} is too large and not supported.", nameof(value));
        }

        char[] text = ArrayPool<char>.Shared.Rent((int)length);
        try
        {
            text[0] = '"';
            StringEscaper.EscapeInSlices(value, text.AsSpan(1, (int)length - 2));
            text[(int)length - 1] = '"';
            WriteRawValue(text.AsSpan(0, (int)length), skipValidation: true);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(text);
        }
    }

    /// <summary>
    /// JSON text parsed and written token by token by the writer (<see cref="JsonElement.WriteTo"/>), which lays it
    /// out as its own values wherever it stands: the way in for text that an indented writer must lay out.
    /// </summary>
    public static void WriteParsed(Utf8JsonWriter writer, string json)
    {
        using JsonDocument document = JsonDocument.Parse(json);
        document.RootElement.WriteTo(writer);
    }

    // The way raw text goes into the writer: as it is, after the layout an indented writer puts before a value here
    // (WriteRawValue writes the comma, but never that layout).
    private void WriteRawValue(ReadOnlySpan<char> text, bool skipValidation)
    {
        int layout = _state.Indented ? LayoutLength() : 0;
        if (layout == 0)
        {
            Writer.WriteRawValue(text, skipValidation);
            return;
        }

        WriteRawValueAfterLayout(text, layout, skipValidation);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteRawValueAfterLayout(ReadOnlySpan<char> text, int layout, bool skipValidation)
    {
        char[] buffer = ArrayPool<char>.Shared.Rent(layout + text.Length);
        try
        {
            Indentation.Write(buffer, Writer.Options.NewLine, _state.IndentUnit, Writer.CurrentDepth);
            text.CopyTo(buffer.AsSpan(layout));
            Writer.WriteRawValue(buffer.AsSpan(0, layout + text.Length), skipValidation);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// How many chars an indented writer puts before a value here, after the comma: its NewLine and CurrentDepth ×
    /// IndentSize of its IndentCharacter (<see cref="Indentation"/>) before an element of one of our arrays, and before
    /// a value at the writer's root when the writer already holds one (which only a writer that skips validation
    /// allows); none after a property name, or at the root of an empty writer. At the root of a call made where the
    /// writer is inside the caller's container, the writer does not tell whether a property name waits: the value is
    /// written as after one, with none (see docs/system-text-json.md).
    /// </summary>
    private int LayoutLength()
    {
        Debug.Assert(_state.Indented, "only an indented writer has a layout");
        int depth = Writer.CurrentDepth;
        if (!_state.ArrayElement && !(_state.Depth == 0 && depth == 0 && _state.StartLength > 0))
        {
            return 0;
        }

        Debug.Assert(_state.ArrayElement == (_state.Depth > 0), "only our own arrays have elements below the root");
        return Indentation.Length(Writer.Options.NewLine, _state.IndentUnit, depth);
    }

    /// <summary>The caller's writer during a call, and where it stood when the call started; the name waiting for its
    /// value, encoded or plain; the encoded names (keyed by the quoted name's reference: each is one string of a hidden
    /// class or property list), kept from call to call while the writers' encoder is the same.</summary>
    private sealed class State
    {
        public readonly Dictionary<string, JsonEncodedText> Names = new(ReferenceEqualityComparer.Instance);
        public JavaScriptEncoder? Encoder;
        public JsonEncodedText Name;

        // A name waits for its value (Name, or PlainName where that is set).
        public bool HasName;

        // The waiting name when it is not encoded: written with WritePropertyName(string) just before its value.
        public string? PlainName;

        // The writer's Options.Indented, read once per call (a writer's options never change).
        public bool Indented;

        // One level of an indented writer's indentation: IndentSize × IndentCharacter.
        public string IndentUnit = string.Empty;

        // The value about to be written is an element of one of our arrays (WriteSeparator came after the last name).
        public bool ArrayElement;

        public Utf8JsonWriter? Writer;
        public long StartLength;
        public long MaxLength;
        public int Depth;

        // Kept from call to call while the writers' indentation is the same.
        public void SetIndentUnit(JsonWriterOptions options)
        {
            if (IndentUnit.Length != options.IndentSize || (IndentUnit.Length != 0 && IndentUnit[0] != options.IndentCharacter))
            {
                IndentUnit = new string(options.IndentCharacter, options.IndentSize);
            }
        }
    }
}
