using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// QuoteJSONString straight into UTF-8 (<see cref="StringEscaper.EscapeUtf8"/>, the path of long strings that are not
/// ASCII into a UTF-8 sink) against escaping into chars (<see cref="StringEscaper.Escape"/>) and encoding those: the
/// same bytes and the same count of chars, for texts of every mix of char widths and escapes (short forms, \u00XX,
/// surrogates without their other half) at every length around a block, called again and again on the rest as the
/// writer does, into room that is ample or as tight as the escaper takes. The stores stay within the room given. Run
/// where the escaper can: the processor has AVX-512 VBMI2 (blocks of 32) or AVX2 (blocks of 16; elsewhere the writer
/// goes through its chars, which the rest of the suite covers).
/// </summary>
public class Utf8EscaperTests
{
    // Chars of each kind the escaper treats apart: ASCII, the chars with a short escape, controls without one (one
    // between \n and \f, and one whose low bits are \n's, which a lookup by part of the char would take for it),
    // two-byte (Latin-1, Cyrillic, the last two-byte char), three-byte, and the halves of a pair.
    private static readonly char[] s_alphabet =
    [
        'a', ' ', '\u007F', '\n', '"', '\\', '\t', '\b', '\f', '\r', '\0', '\u0001', '\u000B', '\u001A', '\u001F',
        '\u00E9', '\u0416', '\u07FF', '\u0800', '\u3042', '\uFFFF', '\uD83D', '\uDE00',
    ];

    // How many of the alphabet's first chars are below U+0800.
    private const int BelowU0800 = 18;

    // Past the room given to the escaper: more than any of its stores reaches (64 bytes).
    private const int GuardLength = 128;

    public static TheoryData<int, int> SeedsAndWidths
    {
        get
        {
            var data = new TheoryData<int, int>();
            foreach (int seed in Enumerable.Range(0, 12))
            {
                data.Add(seed, s_alphabet.Length);
                data.Add(seed, BelowU0800);
            }

            return data;
        }
    }

    [WideBlocksTheory]
    [MemberData(nameof(SeedsAndWidths))]
    public void MatchesEscapingThenEncoding(int seed, int widths)
    {
        // Texts of up to four blocks and a few chars: mostly Cyrillic with chars of the alphabet among them (one in
        // eight, or one in two) and pairs, so that escapes and surrogates fall at every lane of a block.
        var random = new Random(seed);
        for (int length = 0; length <= 140; length++)
        {
            foreach (int oneIn in new[] { 2, 8 })
            {
                char[] text = new char[length];
                for (int k = 0; k < length; k++)
                {
                    text[k] = random.Next(oneIn) == 0 ? s_alphabet[random.Next(widths)] : (char)('\u0430' + random.Next(32));
                    if (k + 1 < length && widths > BelowU0800 && random.Next(4 * oneIn) == 0)
                    {
                        // A well-formed pair.
                        text[k] = '\uD83D';
                        text[++k] = '\uDE00';
                    }
                }

                foreach (int room in new[] { (length * 6) + StringEscaper.MinUtf8Room, StringEscaper.MinUtf8Room, StringEscaper.MinUtf8Room + 7 })
                {
                    AssertSame(text, room);
                }
            }
        }
    }

    [WideBlocksTheory]
    [InlineData('\n')]
    [InlineData('"')]
    [InlineData('\\')]
    [InlineData('\t')]
    [InlineData('\u0001')]
    [InlineData('\u001A')]
    [InlineData('\0')]
    [InlineData('\uD83D')]
    [InlineData('\uDE00')]
    public void AnEscapeAtEveryLaneOfABlock(char escaped)
    {
        // Among Cyrillic, among ASCII and among three-byte chars, one char to escape at each of the first blocks'
        // lanes, and two in a row.
        foreach (char other in new[] { '\u0416', 'x', '\u3042' })
        {
            for (int at = 0; at < 70; at++)
            {
                char[] text = [.. Enumerable.Repeat(other, 80)];
                text[at] = escaped;
                AssertSame(text, (text.Length * 6) + StringEscaper.MinUtf8Room);
                text[at + 1] = escaped;
                AssertSame(text, (text.Length * 6) + StringEscaper.MinUtf8Room);
            }
        }
    }

    [WideBlocksTheory]
    [InlineData("\uD83D\uDE00")]
    [InlineData("\uD83C\uDFF3\uFE0F\u200D\uD83C\uDF08")]
    public void APairAtEveryLaneOfABlock(string pair)
    {
        // Among Cyrillic, ASCII and three-byte chars, an emoji at each of the first blocks' lanes, the block's end
        // between its halves among them; after no escape, or after one that moves the blocks on by a char.
        foreach (char other in new[] { '\u0416', 'x', '\u3042' })
        {
            foreach (string before in new[] { string.Empty, "\n", "\u0001" })
            {
                for (int at = 0; at < 70; at++)
                {
                    string text = before + new string(other, at) + pair + new string(other, 40);
                    AssertSame(text, (text.Length * 6) + StringEscaper.MinUtf8Room);
                    AssertSame(text, StringEscaper.MinUtf8Room);
                }
            }
        }
    }

    [WideBlocksTheory]
    [InlineData('\u2014')]
    [InlineData('\u2026')]
    [InlineData('\u2019')]
    [InlineData('\u0800')]
    [InlineData('\uFFFF')]
    public void OneOrTwoCharsFromU0800AtEveryLaneOfABlock(char wide)
    {
        // Among Cyrillic and among ASCII, one char from U+0800 on at each lane of the first blocks, then a second one
        // after it at every third distance; values that end at each of those, so that the last block is part of one;
        // after no escape, or after one that moves the blocks on by a char. AssertSame also checks that none of it is
        // left to the chars.
        foreach (char other in new[] { '\u0416', 'x' })
        {
            foreach (string before in new[] { string.Empty, "\n" })
            {
                for (int at = 0; at < 40; at++)
                {
                    for (int second = at + 1; second < 40; second += 3)
                    {
                        char[] text = [.. before, .. Enumerable.Repeat(other, 41)];
                        text[before.Length + at] = wide;
                        AssertSame(text.AsSpan(0, before.Length + second), (text.Length * 6) + StringEscaper.MinUtf8Room);
                        text[before.Length + second] = wide;
                        AssertSame(text, (text.Length * 6) + StringEscaper.MinUtf8Room);
                        AssertSame(text, StringEscaper.MinUtf8Room);
                    }
                }
            }
        }
    }

    [WideBlocksTheory]
    [InlineData("\u3042")]
    [InlineData("\u2014")]
    [InlineData("\uD83D\uDE00")]
    public void LeavesTextDenseWithCharsFromU0800ToTheChars(string wide)
    {
        // Blocks of 16 write a char from U+0800 on by itself, so a block with more than two of them (CJK, runs of
        // emoji; a pair counts two) is left to the chars and the transcoder: nothing written. One such char among 14
        // others is written, as is everything in blocks of 32.
        string dense = "\u0436" + string.Concat(Enumerable.Repeat(wide, 20));
        string sparse = string.Concat(Enumerable.Repeat(new string('\u0436', 14) + wide, 10));
        byte[] destination = new byte[(dense.Length + sparse.Length) * 6 + StringEscaper.MinUtf8Room];
        StringEscaper.EscapeUtf8(dense, destination, out int denseConsumed, out _);
        StringEscaper.EscapeUtf8(sparse, destination, out int sparseConsumed, out _);
        Assert.Equal(Utf8Transcoder.HasWideBlocks ? dense.Length : 0, denseConsumed);
        Assert.Equal(sparse.Length, sparseConsumed);
    }

    [WideBlocksTheory]
    [MemberData(nameof(SeedsAndWidths))]
    public void MatchesEscapingThenEncodingOnLongTexts(int seed, int widths)
    {
        // ASCII runs of up to 600 chars, long enough for the escaper to stop and hand them to the ASCII path, with
        // escapes in some; between runs of the alphabet's chars; into ample room and into room that runs out often.
        var random = new Random(seed);
        for (int texts = 0; texts < 10; texts++)
        {
            var text = new List<char>();
            while (text.Count < 3_000)
            {
                int ascii = random.Next(600);
                bool escapes = random.Next(2) == 0;
                for (int k = 0; k < ascii; k++)
                {
                    text.Add(escapes && random.Next(50) == 0 ? '\n' : (char)('a' + random.Next(26)));
                }

                int other = random.Next(1, 40);
                for (int k = 0; k < other; k++)
                {
                    text.Add(s_alphabet[random.Next(widths)]);
                }
            }

            AssertSame([.. text], (text.Count * 6) + StringEscaper.MinUtf8Room);
            AssertSame([.. text], StringEscaper.MinUtf8Room + random.Next(200));
        }
    }

    [WideBlocksTheory]
    [InlineData(1)]
    [InlineData(2)]
    public void ReadsNothingPastTheValue(int seed)
    {
        // Values of every length around a block's, each the start of a longer array whose next chars would change the
        // bytes if they were read: a high surrogate that ends a value is unpaired there, though a low one follows in
        // the array.
        var random = new Random(seed);
        for (int length = 1; length <= 100; length++)
        {
            char[] array = new char[length + 40];
            for (int k = 0; k < array.Length; k++)
            {
                array[k] = s_alphabet[random.Next(s_alphabet.Length)];
            }

            array[length - 1] = '\uD83D';
            array[length] = '\uDE00';
            AssertSame(array.AsSpan(0, length), (length * 6) + StringEscaper.MinUtf8Room);
        }
    }

    // Escapes text as the writer does, call after call on the rest, each into room bytes of a fresh span with a guard
    // after it; asserts the bytes, the chars counted and the guard against escaping into chars and encoding those.
    private static void AssertSame(ReadOnlySpan<char> text, int room)
    {
        byte[] expected = EscapedUtf8.Of(text, out int escapedLength);

        var actual = new List<byte>();
        long chars = 0;
        int at = 0;
        byte[] destination = new byte[room + GuardLength];
        while (at < text.Length)
        {
            Array.Fill(destination, (byte)0xEE);
            ReadOnlySpan<char> rest = text[at..];
            int written = StringEscaper.EscapeUtf8(rest, destination.AsSpan(0, room), out int consumed, out int outputChars);
            if (consumed == 0)
            {
                // Text the escaper leaves to the chars (blocks of 16 only): its next block has more than two chars from
                // U+0800 on. The writer then escapes a slice into chars, which the sink encodes.
                Assert.False(Utf8Transcoder.HasWideBlocks, $"the 512-bit escaper moves on at {at} of {text.Length}");
                ReadOnlySpan<char> block = rest[..Math.Min(rest.Length, Utf8Transcoder.SixteenChars)];
                Assert.True(block.ToArray().Count(c => c >= '\u0800') > 2, $"the escaper moves on at {at} of {text.Length}");
                int slice = Math.Min(rest.Length, 40);
                slice -= slice < rest.Length && char.IsHighSurrogate(rest[slice - 1]) ? 1 : 0;
                actual.AddRange(EscapedUtf8.Of(rest[..slice], out int sliceLength));
                chars += sliceLength;
                at += slice;
                continue;
            }

            Assert.InRange(written, consumed, room);
            Assert.False(
                consumed < rest.Length && char.IsHighSurrogate(rest[consumed - 1]) && char.IsLowSurrogate(rest[consumed]),
                "the escaper stops between the halves of a pair");
            Assert.All(destination[room..], b => Assert.Equal(0xEE, b));
            actual.AddRange(destination.AsSpan(0, written).ToArray());
            chars += outputChars;
            at += consumed;
        }

        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString([.. actual]));
        Assert.Equal(escapedLength, chars);
    }
}

/// <summary>A theory that runs only where <see cref="StringEscaper.EscapeUtf8"/> can: skipped elsewhere.</summary>
public sealed class WideBlocksTheoryAttribute : TheoryAttribute
{
    public WideBlocksTheoryAttribute()
    {
        if (!StringEscaper.CanEscapeUtf8)
        {
            Skip = "The processor lacks both AVX-512 VBMI2 and AVX2, one of which the UTF-8 escaper needs.";
        }
    }
}
