using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>
/// Strings and property names escaped as a <see cref="System.Text.Json.Utf8JsonWriter"/> with the default encoder
/// escapes them (<see cref="DefaultEncoderEscaper"/>), for text that goes into such a writer raw
/// (<see cref="EncodedTextOutput"/>). Everything else is written as for JSON.stringify.
/// </summary>
internal sealed partial class JsonWriter
{
    /// <summary>
    /// A string value, escaped as the writer escapes it; one with an unpaired surrogate, which the writer would
    /// replace, escaped as JSON.stringify escapes it (as <see cref="Utf8JsonWriterOutput"/> writes it, raw).
    /// </summary>
    public void WriteEncodedString(string value)
    {
        // Most values are short and need no escaping: quoted here without the call to the escaper.
        if (IsShortEncoded(value))
        {
            Span<char> room = Reserve(DefaultEncoderEscaper.MaxShortLength + 2);
            room[0] = '"';
            if (DefaultEncoderEscaper.TryCopyShort(value, room[1..]))
            {
                room[value.Length + 1] = '"';
                _pos += value.Length + 2;
                return;
            }
        }

        if (!TryWriteEncoded(value, stopAtUnpairedSurrogate: true))
        {
            WriteString(value);
        }
    }

    /// <summary>Like <see cref="WritePropertyName"/>, the name escaped as the writer escapes it, an unpaired surrogate
    /// as U+FFFD.</summary>
    public void WriteEncodedPropertyName(string name, bool first)
    {
        // Compact output and a short name with nothing to escape, the common case for table objects: the comma, the
        // quoted name and the colon in one reservation, as WritePropertyName.
        if (!_indented && IsShortEncoded(name))
        {
            Span<char> room = Reserve(DefaultEncoderEscaper.MaxShortLength + 4);
            int at = first ? 0 : 1;
            room[0] = ',';
            room[at] = '"';
            if (DefaultEncoderEscaper.TryCopyShort(name, room[(at + 1)..]))
            {
                room[at + name.Length + 1] = '"';
                room[at + name.Length + 2] = ':';
                _pos += at + name.Length + 3;
                return;
            }
        }

        WriteSeparator(first);
        bool written = TryWriteEncoded(name, stopAtUnpairedSurrogate: false);
        Debug.Assert(written, "a name never stops: its unpaired surrogates are written as U+FFFD");
        WriteChar(':');
        if (_indented)
        {
            WriteChar(' ');
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShortEncoded(string value) =>
        (uint)(value.Length - DefaultEncoderEscaper.MinShortLength) <= DefaultEncoderEscaper.MaxShortLength - DefaultEncoderEscaper.MinShortLength;

    // A string quoted and escaped as the writer escapes it, through the buffer or, when long, straight into the sink;
    // false, with nothing written, when it stops at an unpaired surrogate.
    private bool TryWriteEncoded(string value, bool stopAtUnpairedSurrogate) =>
        value.Length <= MaxInlineString
            ? TryWriteShortEncoded(value, stopAtUnpairedSurrogate)
            : TryWriteLongEncoded(value, stopAtUnpairedSurrogate);

    // A string that fits the buffer, quoted; false, with nothing written, when it stops at an unpaired surrogate.
    private bool TryWriteShortEncoded(string value, bool stopAtUnpairedSurrogate)
    {
        Span<char> destination = Reserve((value.Length * JsonConstants.MaxEscapedCharLength) + 2);
        destination[0] = '"';
        int written = DefaultEncoderEscaper.Escape(value, destination[1..], stopAtUnpairedSurrogate);
        if (written < 0)
        {
            return false;
        }

        destination[written + 1] = '"';
        _pos += written + 2;
        return true;
    }

    // A long string straight into the UTF-8 sink, escaped to ASCII in slices as long as the sink's span holds, as
    // WriteAsciiSlices; it stops early once past the limit. False when it stops at an unpaired surrogate: what it
    // wrote is taken back (the sink's buffer is ours: see EncodedTextOutput).
    private bool TryWriteLongEncoded(string value, bool stopAtUnpairedSurrogate)
    {
        Debug.Assert(_sink is BufferWriterSink, "default-encoder text goes to a buffer of ours");
        Flush();
        BufferWriterSink sink = Unsafe.As<BufferWriterSink>(_sink)!;
        SinkMark start = sink.Mark();
        sink.GetAsciiSpan(1)[0] = (byte)'"';
        sink.AdvanceAscii(1);
        ReadOnlySpan<char> rest = value;
        while (!rest.IsEmpty && !IsOverLimit)
        {
            Span<byte> bytes = sink.GetAsciiSpan(MaxInlineString * JsonConstants.MaxEscapedCharLength);
            int take = SliceLength(rest, Math.Min(MaxAsciiSlice, bytes.Length / JsonConstants.MaxEscapedCharLength));
            int written = DefaultEncoderEscaper.EscapeToAscii(rest[..take], bytes, stopAtUnpairedSurrogate);
            if (written < 0)
            {
                sink.Rewind(start);
                return false;
            }

            sink.AdvanceAscii(written);
            rest = rest[take..];
        }

        WriteChar('"');
        return true;
    }

    /// <summary>The text of this call, when all of it is still in the buffer (none has gone to the sink).</summary>
    public bool TryGetWholeText(out ReadOnlySpan<char> text)
    {
        text = _buffer.AsSpan(0, _pos);
        return _sink!.Length == 0;
    }
}
