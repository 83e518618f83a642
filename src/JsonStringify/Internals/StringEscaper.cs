using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;

namespace JsonStringify.Internals;

/// <summary>ECMA-262 QuoteJSONString: scan for what needs escaping, copy clean runs in bulk, escape the rest.</summary>
internal static class StringEscaper
{
    // Exactly what JSON.stringify escapes: '"', '\', controls below U+0020, and (when unpaired) surrogates.
    private static readonly SearchValues<char> s_special = SearchValues.Create(BuildSpecialChars());

    /// <summary>Appends <paramref name="value"/> as a quoted JSON string.</summary>
    public static void AppendQuoted(StringBuilder sb, ReadOnlySpan<char> value)
    {
        sb.Append('"');
        AppendEscaped(sb, value);
        sb.Append('"');
    }

    /// <summary>Appends the escaped contents of <paramref name="value"/>, without the quotes.</summary>
    public static void AppendEscaped(StringBuilder sb, ReadOnlySpan<char> value)
    {
        int i = value.IndexOfAny(s_special);
        if (i < 0)
        {
            sb.Append(value);
        }
        else
        {
            AppendEscapedFrom(sb, value, i);
        }
    }

    /// <summary>The longest text <see cref="AppendQuoted"/> can write for a string of <paramref name="length"/> chars.</summary>
    public static long MaxQuotedLength(int length) => (long)length * JsonConstants.MaxEscapedCharLength + 2;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void AppendEscapedFrom(StringBuilder sb, ReadOnlySpan<char> value, int i)
    {
        while (true)
        {
            sb.Append(value[..i]);
            char c = value[i];
            int consumed = 1;
            switch (c)
            {
                case '"':
                    sb.Append("\\\"");
                    break;
                case '\\':
                    sb.Append("\\\\");
                    break;
                case '\b':
                    sb.Append("\\b");
                    break;
                case '\f':
                    sb.Append("\\f");
                    break;
                case '\n':
                    sb.Append("\\n");
                    break;
                case '\r':
                    sb.Append("\\r");
                    break;
                case '\t':
                    sb.Append("\\t");
                    break;
                default:
                    if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
                    {
                        sb.Append(value.Slice(i, 2));
                        consumed = 2;
                    }
                    else
                    {
                        AppendUnicodeEscape(sb, c);
                    }

                    break;
            }

            value = value[(i + consumed)..];
            i = value.IndexOfAny(s_special);
            if (i < 0)
            {
                sb.Append(value);
                return;
            }
        }
    }

    private static void AppendUnicodeEscape(StringBuilder sb, char c)
    {
        Span<char> escape = ['\\', 'u', '0', '0', '0', '0'];
        ((int)c).TryFormat(escape[2..], out _, "x4", null);
        sb.Append(escape);
    }

    private static string BuildSpecialChars()
    {
        var chars = new StringBuilder();
        for (char c = '\0'; c < ' '; c++)
        {
            chars.Append(c);
        }

        chars.Append('"').Append('\\');
        for (int c = 0xD800; c <= 0xDFFF; c++)
        {
            chars.Append((char)c);
        }

        return chars.ToString();
    }
}
