using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// QuoteJSONString of ASCII text straight into UTF-8 (<see cref="StringEscaper.EscapeAscii"/>, the path of a long
/// string's ASCII into a UTF-8 sink), with the few chars among it that are not ASCII encoded in place, against escaping
/// into chars (<see cref="StringEscaper.Escape"/>) and encoding those: the same bytes and the same count of chars. It
/// leaves a surrogate, and a char that is not ASCII with more such chars among the 16 from it on, to the caller, which
/// the helper then writes the other way, as the writer does.
/// </summary>
public class AsciiEscaperTests
{
    // Chars that are not ASCII, of two and three bytes (a curly quote, a dash, an ellipsis, the ends of each width),
    // and chars to escape.
    private static readonly char[] s_others =
        ['\u00E9', '\u07FF', '\u0800', '\u2019', '\u201C', '\u2014', '\u2026', '\uFFFF'];

    private static readonly char[] s_escaped = ['\n', '"', '\\', '\u0001', '\u001F'];

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void MatchesEscapingThenEncoding(int seed)
    {
        // ASCII words with chars that are not ASCII among them, one in 40 to one in 3, and escapes; lengths around
        // every block boundary, and past two runs of four blocks (128 chars), which the escaper takes together.
        var random = new Random(seed);
        foreach (int oneIn in new[] { 40, 12, 3 })
        {
            for (int length = 0; length <= 300; length++)
            {
                char[] text = new char[length];
                for (int k = 0; k < length; k++)
                {
                    int roll = random.Next(oneIn);
                    text[k] = roll == 0 ? s_others[random.Next(s_others.Length)]
                        : roll == 1 && random.Next(4) == 0 ? s_escaped[random.Next(s_escaped.Length)]
                        : (char)('a' + random.Next(26));
                }

                AssertSame(text);
            }
        }
    }

    [Fact]
    public void WritesAFewOthersInABlockAndLeavesMore()
    {
        // Up to MaxOthersPerBlock chars that are not ASCII within 16 are written in place; with one more among the 16
        // from the first on, the pass stops before the first. The first at every place of a block, the others at random
        // places after it among the 16, each of two or three bytes; the block first in a short text, after the runs of
        // four blocks (which go block by block), and at places of a run with more than a run after it (which go run by
        // run).
        char[] others = ['\u2019', '\u2014', '\u00E9', '\u201C', '\u2026', '\u0434'];
        var random = new Random(41);
        foreach ((int before, int after) in new[] { (0, 24), (0, 140), (16, 140), (40, 140), (63, 140), (100, 24) })
        {
            for (int first = before; first < before + 16; first++)
            {
                for (int round = 0; round < 40; round++)
                {
                    int[] places =
                        [.. Enumerable.Range(first + 1, 15).OrderBy(_ => random.Next()).Take(StringEscaper.MaxOthersPerBlock)];
                    char[] text = [.. Enumerable.Repeat('x', before + 16 + after)];
                    text[first] = others[random.Next(others.Length)];
                    foreach (int place in places[..(StringEscaper.MaxOthersPerBlock - 1)])
                    {
                        text[place] = others[random.Next(others.Length)];
                    }

                    AssertSame(text);
                    Assert.Equal(text.Length, Consumed(text));

                    char[] dense = [.. text];
                    dense[places[^1]] = others[random.Next(others.Length)];
                    AssertSame(dense);
                    Assert.Equal(first, Consumed(dense));
                }
            }
        }
    }

    [Fact]
    public void SuitsTheTextItWritesFrom()
    {
        // SuitsEscapeAscii, the writer's choice of this pass, says yes exactly where the 16 chars from the start (or all,
        // if fewer) have at most MaxOthersPerBlock that are not ASCII and the first is not a surrogate; and then the pass
        // writes at least the first char. Every count of such chars from none to six, first or not, each kind, in texts
        // of 1 to 40 chars.
        char[] others = ['\u00E9', '\u2019', '\uD83D', '\uDE00', '\uFFFF'];
        var random = new Random(7);
        Assert.False(StringEscaper.SuitsEscapeAscii([]));
        for (int length = 1; length <= 40; length++)
        {
            for (int count = 0; count <= 6; count++)
            {
                for (int round = 0; round < 20; round++)
                {
                    char[] text = [.. Enumerable.Range(0, length).Select(k => (char)('a' + (k % 26)))];
                    foreach (int place in Enumerable.Range(0, Math.Min(length, 16)).OrderBy(_ => random.Next()).Take(count))
                    {
                        text[place] = others[random.Next(others.Length)];
                    }

                    int notAscii = text.Take(16).Count(c => c >= 0x80);
                    bool suits = notAscii <= StringEscaper.MaxOthersPerBlock && !char.IsSurrogate(text[0]);
                    Assert.Equal(suits, StringEscaper.SuitsEscapeAscii(text));
                    if (suits)
                    {
                        Assert.True(Consumed(text) > 0, $"the pass writes from {new string(text)}");
                    }
                }
            }
        }
    }

    // A pair, and each half alone (by index: a theory's strings with a surrogate alone do not reach the test intact).
    private static readonly string[] s_surrogates = ["\uD83D\uDE00", "\uD83D", "\uDE00"];

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public void LeavesSurrogates(int which)
    {
        // At every place of the first blocks (20 chars after them), of the last chars, fewer than a block (5), and of
        // the first runs of four blocks (140 chars after them).
        foreach (int after in new[] { 20, 5, 140 })
        {
            for (int at = 0; at < (after == 140 ? 140 : 40); at++)
            {
                string text = new string('x', at) + s_surrogates[which] + new string('y', after);
                AssertSame(text);
                Assert.Equal(at, Consumed(text));
            }
        }
    }

    private static int Consumed(ReadOnlySpan<char> text)
    {
        byte[] destination = new byte[text.Length * JsonConstants.MaxEscapedCharLength];
        StringEscaper.EscapeAscii(text, destination, out int consumed, out _);
        return consumed;
    }

    // Escapes text as the writer does, call after call on the rest, writing a char it leaves through the chars; asserts
    // the bytes and the chars counted against escaping into chars and encoding those.
    private static void AssertSame(ReadOnlySpan<char> text)
    {
        byte[] expected = EscapedUtf8.Of(text, out int escapedLength);

        var actual = new List<byte>();
        long chars = 0;
        int at = 0;
        while (at < text.Length)
        {
            ReadOnlySpan<char> rest = text[at..];
            byte[] destination = new byte[rest.Length * JsonConstants.MaxEscapedCharLength];
            int written = StringEscaper.EscapeAscii(rest, destination, out int consumed, out int outputChars);
            actual.AddRange(destination.AsSpan(0, written).ToArray());
            chars += outputChars;
            at += consumed;
            if (at < text.Length)
            {
                // A char it leaves: a surrogate (with its other half), or one that is not ASCII among many.
                Assert.True(text[at] >= '\u0080', $"the pass stops at a char that is not ASCII, at {at}");
                int take = char.IsHighSurrogate(text[at]) && at + 1 < text.Length ? 2 : 1;
                actual.AddRange(EscapedUtf8.Of(text.Slice(at, take), out int oneLength));
                chars += oneLength;
                at += take;
            }
        }

        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString([.. actual]));
        Assert.Equal(escapedLength, chars);
    }
}
