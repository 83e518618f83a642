namespace JsonStringify.Internals;

/// <summary>
/// Surrogates that are not half of a pair, in text bound for System.Text.Json, which encodes everything as UTF-8: a
/// string value of ours escapes them as QuoteJSONString does, but raw JSON text (JSON.rawJSON's, a host serializer's)
/// may carry one as it is, which UTF-8 cannot hold.
/// </summary>
internal static class UnpairedSurrogates
{
    private const char HighSurrogateStart = '\uD800';
    private const char LowSurrogateEnd = '\uDFFF';

    /// <summary>Whether <paramref name="text"/> has a surrogate that is not half of a pair.</summary>
    public static bool AreIn(string text) =>
        text.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd) && IndexOfFirst(text) >= 0;

    /// <summary>Whether <paramref name="text"/> has a surrogate, paired or not.</summary>
    public static bool MayBeIn(string text) => text.AsSpan().ContainsAnyInRange(HighSurrogateStart, LowSurrogateEnd);

    /// <summary>
    /// <paramref name="text"/> with each surrogate that is not half of a pair replaced by U+FFFD, as the UTF-8 sinks
    /// and System.Text.Json's writer write one; the same string when it has none.
    /// </summary>
    public static string Replaced(string text)
    {
        int first = MayBeIn(text) ? IndexOfFirst(text) : -1;
        if (first < 0)
        {
            return text;
        }

        return string.Create(text.Length, (text, first), static (chars, state) =>
        {
            state.text.AsSpan().CopyTo(chars);
            for (int i = state.first; i < chars.Length; i++)
            {
                if (char.IsHighSurrogate(chars[i]) && i + 1 < chars.Length && char.IsLowSurrogate(chars[i + 1]))
                {
                    i++;
                }
                else if (char.IsSurrogate(chars[i]))
                {
                    chars[i] = '\uFFFD';
                }
            }
        });
    }

    // The index of the first surrogate in text that is not half of a pair, or -1.
    private static int IndexOfFirst(string text)
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
