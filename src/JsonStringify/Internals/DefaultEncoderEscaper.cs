using System.Buffers;
using System.Diagnostics;
using System.Text.Json;

namespace JsonStringify.Internals;

/// <summary>
/// Escapes text as a <see cref="Utf8JsonWriter"/> whose encoder is the default one (<see langword="null"/> or
/// <c>JavaScriptEncoder.Default</c>) escapes strings and property names, so that text made here can go into such a
/// writer raw and read the same as the writer's own. Printable ASCII is written as it is, except what the encoder
/// keeps out of HTML and JavaScript (" &amp; ' + &lt; &gt; \ `); every other char is \uXXXX in upper-case hex, but for
/// the short escapes \b \t \n \f \r and \\; an unpaired surrogate becomes U+FFFD (\uFFFD), as the writer replaces it.
/// The output is ASCII.
/// </summary>
/// <remarks>
/// The escape of each ASCII char is asked of the writer itself at first use, and a few chars beyond ASCII are checked
/// against it; if any answer is not what this class writes, <see cref="IsAvailable"/> is false and the writer is
/// given its tokens one by one instead (see <see cref="EncodedTextOutput"/>).
/// </remarks>
internal static class DefaultEncoderEscaper
{
    // The ASCII chars the writer writes as they are.
    private static readonly SearchValues<char> s_plain;

    // The writer's escape of each ASCII char; null for a plain one.
    private static readonly string?[] s_asciiEscapes = new string?[128];

    /// <summary>Whether the writer escapes as this class does (see the remarks).</summary>
    public static bool IsAvailable { get; }

    static DefaultEncoderEscaper()
    {
        var plain = new List<char>();
        for (char c = '\0'; c < 128; c++)
        {
            string written = WriteWithWriter(c.ToString(), propertyName: false);
            if (written == c.ToString())
            {
                plain.Add(c);
            }
            else
            {
                s_asciiEscapes[c] = written;
            }
        }

        s_plain = SearchValues.Create(plain.ToArray());
        IsAvailable = plain.Count > 0 && SelfTest();
    }

    /// <summary>Whether <paramref name="text"/> has a char the writer escapes.</summary>
    public static bool NeedsEscaping(ReadOnlySpan<char> text) => text.ContainsAnyExcept(s_plain);

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, into <paramref name="destination"/>,
    /// which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char of the value. A high surrogate
    /// at the very end is escaped as unpaired, so callers cut long strings between the two halves of a pair.
    /// </summary>
    /// <returns>The number of chars written.</returns>
    public static int Escape(ReadOnlySpan<char> value, Span<char> destination)
    {
        if ((long)destination.Length < (long)value.Length * JsonConstants.MaxEscapedCharLength)
        {
            throw new ArgumentException("The destination is too short.", nameof(destination));
        }

        int written = 0;
        int i = 0;
        while (true)
        {
            // A run of plain chars, found and copied in bulk.
            int run = value[i..].IndexOfAnyExcept(s_plain);
            if (run < 0)
            {
                value[i..].CopyTo(destination[written..]);
                return written + value.Length - i;
            }

            value.Slice(i, run).CopyTo(destination[written..]);
            written += run;
            i += run;

            // Then every char that needs escaping, up to the next plain one (runs of text beyond ASCII are common).
            do
            {
                char c = value[i];
                if (c < 128)
                {
                    string escape = s_asciiEscapes[c]!;
                    escape.CopyTo(destination[written..]);
                    written += escape.Length;
                    i++;
                }
                else if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
                {
                    written += WriteHexEscape(c, destination[written..]);
                    written += WriteHexEscape(value[i + 1], destination[written..]);
                    i += 2;
                }
                else
                {
                    written += WriteHexEscape(char.IsSurrogate(c) ? '\uFFFD' : c, destination[written..]);
                    i++;
                }
            }
            while (i < value.Length && !s_plain.Contains(value[i]));

            if (i == value.Length)
            {
                return written;
            }
        }
    }

    // \uXXXX, upper-case hex, as the writer writes it.
    private static int WriteHexEscape(char c, Span<char> destination)
    {
        const string Hex = "0123456789ABCDEF";
        destination[5] = Hex[c & 0xF];
        destination[4] = Hex[(c >> 4) & 0xF];
        destination[3] = Hex[(c >> 8) & 0xF];
        destination[2] = Hex[c >> 12];
        destination[1] = 'u';
        destination[0] = '\\';
        return JsonConstants.MaxEscapedCharLength;
    }

    // Chars beyond ASCII (Latin-1, a line separator, a byte order mark, the last BMP char, a pair, an unpaired
    // surrogate in a value and in a name), each escaped here and by the writer.
    private static bool SelfTest()
    {
        string[] samples = ["é\u00A0", "\u2028Ж€", "\uFEFF\uFFFF", "a😀b", "x\uD800y\uDC00", "<'+&>\"\\`\u007F"];
        Span<char> escaped = stackalloc char[64];
        foreach (string sample in samples)
        {
            string ours = escaped[..Escape(sample, escaped)].ToString();
            if (ours != WriteWithWriter(sample, propertyName: false) || ours != WriteWithWriter(sample, propertyName: true))
            {
                return false;
            }
        }

        return true;
    }

    // What a compact writer with the default encoder writes for text as a string value or as a property name, quotes
    // (and the name's colon) taken off.
    private static string WriteWithWriter(string text, bool propertyName)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true }))
        {
            if (propertyName)
            {
                writer.WritePropertyName(text);
            }
            else
            {
                writer.WriteStringValue(text);
            }
        }

        string written = System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
        Debug.Assert(written.Length >= 2 && written[0] == '"', "a quoted string");
        int end = written.LastIndexOf('"');
        return written[1..end];
    }
}
