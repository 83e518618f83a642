namespace JsonStringify.Internals;

/// <summary>
/// Surrogates in text bound for System.Text.Json, which encodes everything as UTF-8: a string value of ours escapes
/// one that is not half of a pair as QuoteJSONString does, but raw JSON text (JSON.rawJSON's, a host serializer's) may
/// carry one as it is, which UTF-8 cannot hold.
/// </summary>
internal static class Surrogates
{
    private const char HighSurrogateStart = '\uD800';
    private const char LowSurrogateEnd = '\uDFFF';

    /// <summary>Whether <paramref name="text"/> has a surrogate, paired or not.</summary>
    public static bool HasAny(string text) => text.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd);

    /// <summary>Whether <paramref name="text"/> has a surrogate that is not half of a pair.</summary>
    public static bool HasUnpaired(string text) => HasAny(text) && IndexOfUnpaired(text) >= 0;

    /// <summary>
    /// <paramref name="text"/> with each surrogate that is not half of a pair replaced by U+FFFD, as the UTF-8 sinks
    /// and System.Text.Json's writer write one; the same string when it has none.
    /// </summary>
    public static string ReplaceUnpaired(string text)
    {
        int at = HasAny(text) ? IndexOfUnpaired(text) : -1;
        if (at < 0)
        {
            return text;
        }

        // A surrogate replaced is not half of a pair, so the search goes on from the char after it.
        char[] chars = text.ToCharArray();
        while (at >= 0)
        {
            chars[at] = '\uFFFD';
            int next = IndexOfUnpaired(chars.AsSpan(at + 1));
            at = next < 0 ? -1 : at + 1 + next;
        }

        return new string(chars);
    }

    // The index of the first surrogate in text that is not half of a pair, or -1.
    private static int IndexOfUnpaired(ReadOnlySpan<char> text)
    {
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(c))
            {
                return i;
            }
        }

        return -1;
    }
}
