namespace JsonStringify.Internals;

/// <summary>
/// Strings and property names escaped as a <see cref="System.Text.Json.Utf8JsonWriter"/> with the default encoder
/// escapes them (<see cref="DefaultEncoderEscaper"/>), for text that goes into such a writer raw
/// (<see cref="EncodedTextOutput"/>). Everything else is written as for JSON.stringify.
/// </summary>
internal sealed partial class JsonWriter
{
    public void WriteEncodedString(string value)
    {
        if (value.Length <= MaxInlineString)
        {
            Span<char> destination = Reserve((value.Length * JsonConstants.MaxEscapedCharLength) + 2);
            destination[0] = '"';
            int written = DefaultEncoderEscaper.Escape(value, destination[1..]);
            destination[written + 1] = '"';
            _pos += written + 2;
            return;
        }

        // A long string goes through in slices of the buffer, stopping early once past the limit, as WriteLongString.
        WriteChar('"');
        ReadOnlySpan<char> rest = value;
        while (!rest.IsEmpty && !IsOverLimit)
        {
            int take = SliceLength(rest, MaxInlineString);
            Span<char> destination = Reserve(take * JsonConstants.MaxEscapedCharLength);
            _pos += DefaultEncoderEscaper.Escape(rest[..take], destination);
            rest = rest[take..];
        }

        WriteChar('"');
    }

    /// <summary>Like <see cref="WritePropertyName"/>, the name escaped as by <see cref="WriteEncodedString"/>.</summary>
    public void WriteEncodedPropertyName(string name, bool first)
    {
        WriteSeparator(first);
        WriteEncodedString(name);
        WriteChar(':');
        if (_gap.Length != 0)
        {
            WriteChar(' ');
        }
    }
}
