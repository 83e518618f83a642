using System.Buffers;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>ECMA-262 QuoteJSONString: scan for what needs escaping, copy clean runs in bulk, escape the rest.</summary>
internal static class StringEscaper
{
    // Exactly what JSON.stringify escapes: '"', '\', controls below U+0020 (this set, all ASCII, which keeps the
    // vectorised search on its fastest path), and unpaired surrogates (searched for as a range).
    private static readonly SearchValues<char> s_asciiSpecial = SearchValues.Create(BuildAsciiSpecialChars());

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, into <paramref name="destination"/>,
    /// which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char of the value. A high surrogate
    /// at the very end is escaped as unpaired, so callers cut long strings between the two halves of a pair.
    /// </summary>
    /// <returns>The number of chars written.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Escape(ReadOnlySpan<char> value, Span<char> destination)
    {
        int i = IndexOfSpecial(value);
        if (i < 0)
        {
            value.CopyTo(destination);
            return value.Length;
        }

        return EscapeFrom(value, destination, i);
    }

    /// <summary>The quoted JSON string for <paramref name="value"/>, followed by <paramref name="suffix"/>.</summary>
    public static string Quote(string value, string suffix)
    {
        var buffer = new char[(value.Length * JsonConstants.MaxEscapedCharLength) + 2 + suffix.Length];
        buffer[0] = '"';
        int w = 1 + Escape(value, buffer.AsSpan(1));
        buffer[w++] = '"';
        suffix.CopyTo(buffer.AsSpan(w));
        return new string(buffer, 0, w + suffix.Length);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int IndexOfSpecial(ReadOnlySpan<char> value)
    {
        int ascii = value.IndexOfAny(s_asciiSpecial);
        int surrogate = (ascii < 0 ? value : value[..ascii]).IndexOfAnyInRange('\uD800', '\uDFFF');
        return surrogate >= 0 ? surrogate : ascii;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int EscapeFrom(ReadOnlySpan<char> value, Span<char> destination, int i)
    {
        int w = 0;
        while (true)
        {
            value[..i].CopyTo(destination[w..]);
            w += i;
            char c = value[i];
            int consumed = 1;
            switch (c)
            {
                case '"':
                    w += WritePair(destination, w, '"');
                    break;
                case '\\':
                    w += WritePair(destination, w, '\\');
                    break;
                case '\b':
                    w += WritePair(destination, w, 'b');
                    break;
                case '\f':
                    w += WritePair(destination, w, 'f');
                    break;
                case '\n':
                    w += WritePair(destination, w, 'n');
                    break;
                case '\r':
                    w += WritePair(destination, w, 'r');
                    break;
                case '\t':
                    w += WritePair(destination, w, 't');
                    break;
                default:
                    if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
                    {
                        destination[w++] = c;
                        destination[w++] = value[i + 1];
                        consumed = 2;
                    }
                    else
                    {
                        w += WriteUnicodeEscape(destination, w, c);
                    }

                    break;
            }

            value = value[(i + consumed)..];
            i = IndexOfSpecial(value);
            if (i < 0)
            {
                value.CopyTo(destination[w..]);
                return w + value.Length;
            }
        }
    }

    private static int WritePair(Span<char> destination, int at, char escaped)
    {
        destination[at] = '\\';
        destination[at + 1] = escaped;
        return 2;
    }

    // \uXXXX with lowercase hex, as the spec's UnicodeEscape writes it.
    private static int WriteUnicodeEscape(Span<char> destination, int at, char c)
    {
        destination[at] = '\\';
        destination[at + 1] = 'u';
        ((int)c).TryFormat(destination.Slice(at + 2, 4), out _, "x4", null);
        return JsonConstants.MaxEscapedCharLength;
    }

    private static string BuildAsciiSpecialChars()
    {
        var chars = new char[' ' + 2];
        for (int c = 0; c < ' '; c++)
        {
            chars[c] = (char)c;
        }

        chars[' '] = '"';
        chars[' ' + 1] = '\\';
        return new string(chars);
    }
}
