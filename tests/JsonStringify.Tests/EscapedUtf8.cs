using System.Text;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>The escapers' oracle: text escaped into chars (<see cref="StringEscaper.Escape"/>), then encoded.</summary>
internal static class EscapedUtf8
{
    /// <summary>The UTF-8 of <paramref name="text"/> escaped, and how many chars the escaped text has.</summary>
    public static byte[] Of(ReadOnlySpan<char> text, out int chars)
    {
        char[] escaped = new char[text.Length * JsonConstants.MaxEscapedCharLength];
        chars = StringEscaper.Escape(text, escaped);
        return Encoding.UTF8.GetBytes(escaped, 0, chars);
    }
}
