using System.Buffers;
using System.Text.Unicode;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The UTF-8 sinks' transcoder against <see cref="Utf8.FromUtf16"/> with invalid sequences replaced and more data to
/// come: the same status, counts and bytes, for texts of every mix of char widths (ASCII, two-byte, three-byte,
/// surrogate pairs, unpaired surrogates) at every length around its blocks (32 chars with AVX-512 VBMI2, 8 with SSSE3
/// alone), into room that is ample, tight or too short, and for long texts whose ASCII runs hand the text back to the
/// runtime's narrowing. CI runs these on the processor's widest path and again with AVX-512 off; with no vector
/// instructions at all both sides are the runtime's transcoder.
/// </summary>
public class Utf8TranscoderTests
{
    // Chars of each width the transcoder treats apart: ASCII (NUL, the one char without a set bit, among them),
    // two-byte (Latin-1, Cyrillic, the last two-byte char), three-byte, the halves of a pair, and the edges between
    // them.
    private static readonly char[] s_alphabet =
    [
        'a', ' ', '"', '\0', '\u007F', '\u0080', '\u00E9', '\u0416', '\u07FF', '\u0800', '\u3042', '\uFFFF', '\uD83D', '\uDE00',
    ];

    // How many of the alphabet's first chars are below U+0800.
    private const int BelowU0800 = 9;

    public static TheoryData<int> Seeds => [.. Enumerable.Range(0, 16)];

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MatchesTheRuntimeTranscoder(int seed)
    {
        var random = new Random(seed);
        for (int length = 0; length <= 140; length++)
        {
            // One text of each mix: ASCII with some two-byte chars, mostly two-byte, and every width.
            foreach (int widths in new[] { 6, 8, s_alphabet.Length })
            {
                char[] text = new char[length];
                for (int k = 0; k < length; k++)
                {
                    int pick = random.Next(widths);
                    text[k] = widths == 6 && random.Next(4) != 0 ? (char)('a' + random.Next(26)) : s_alphabet[pick];
                }

                foreach (int room in new[] { length * 3, (length * 3) + 64, length, length / 2, 3, 0 })
                {
                    AssertSame(text, room);
                }
            }
        }
    }

    public static TheoryData<int, int> SeedsAndWidths
    {
        get
        {
            var data = new TheoryData<int, int>();
            foreach (int seed in Enumerable.Range(0, 16))
            {
                data.Add(seed, s_alphabet.Length);
                data.Add(seed, BelowU0800);
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(SeedsAndWidths))]
    public void MatchesTheRuntimeTranscoderOnWellFormedPairs(int seed, int widths)
    {
        // Surrogates only in pairs, so that whole blocks of them are encoded at once: pairs at every lane of a block,
        // across its two halves and across two blocks, among chars of every other width or among chars below U+0800
        // only (which a block holds in one vector); then the same text with one surrogate dropped or doubled, which
        // makes it unpaired.
        var random = new Random(seed);
        for (int length = 0; length <= 140; length++)
        {
            var text = new List<char>(length + 1);
            while (text.Count < length)
            {
                char c = s_alphabet[random.Next(widths)];
                if (char.IsSurrogate(c) || random.Next(3) == 0)
                {
                    text.Add((char)('\uD800' + random.Next(0x400)));
                    text.Add((char)('\uDC00' + random.Next(0x400)));
                }
                else
                {
                    text.Add(c);
                }
            }

            foreach (int room in new[] { text.Count * 3, (text.Count * 3) + 64, text.Count / 2 })
            {
                AssertSame([.. text], room);
            }

            if (text.Count > 0)
            {
                int at = random.Next(text.Count);
                List<char> broken = [.. text];
                if (random.Next(2) == 0)
                {
                    broken.RemoveAt(at);
                }
                else
                {
                    broken.Insert(at, text[at]);
                }

                AssertSame([.. broken], (broken.Count * 3) + 64);
            }
        }
    }

    [Theory]
    [InlineData("\uD800\uDC00")] // U+10000, the first code point of four bytes
    [InlineData("\uD83D\uDE00")] // U+1F600, an emoji
    [InlineData("\uD840\uDC00")] // U+20000, plane 2
    [InlineData("\uDBFF\uDFFF")] // U+10FFFF, the last code point
    public void APairAtEveryLaneOfABlockIsFourBytes(string pair)
    {
        // Among two-byte and three-byte chars, among ASCII and two-byte chars, and among two-byte chars only (blocks
        // of chars below U+0800 and pairs from the text's first char on, the pair at every lane of them).
        foreach ((char before, char after) in new[] { ('\u0416', '\u3042'), ('a', '\u0416'), ('\u0416', '\u0416') })
        {
            for (int lane = 0; lane < 70; lane++)
            {
                string text = new string(before, lane) + pair + new string(after, 70 - lane);
                AssertSame(text.ToCharArray(), text.Length * 3);
                byte[] destination = new byte[text.Length * 3];
                Utf8Transcoder.FromUtf16(text, destination, out _, out int written);
                Assert.Equal(text, System.Text.Encoding.UTF8.GetString(destination, 0, written));
            }
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MatchesTheRuntimeTranscoderOnLongTexts(int seed)
    {
        // ASCII runs of up to 600 chars, long enough for the block loops to hand the text back to the runtime's
        // narrowing, between runs of chars of every width; into ample room and into room that runs out partway.
        var random = new Random(seed);
        for (int texts = 0; texts < 20; texts++)
        {
            var text = new List<char>();
            while (text.Count < 3_000)
            {
                int ascii = random.Next(600);
                for (int k = 0; k < ascii; k++)
                {
                    text.Add((char)(' ' + random.Next(95)));
                }

                int other = random.Next(1, 40);
                for (int k = 0; k < other; k++)
                {
                    text.Add(s_alphabet[random.Next(s_alphabet.Length)]);
                }
            }

            AssertSame([.. text], (text.Count * 3) + 64);
            AssertSame([.. text], random.Next(text.Count * 2));
        }
    }

    [Theory]
    [InlineData("abcdefghijklmnopqrstuvwxyz012345")] // ASCII, a whole group at a time
    [InlineData("Россия")] // two-byte chars only
    [InlineData("Österreich, Česko; ")] // ASCII and two-byte chars in one group
    [InlineData("日本語のテキスト")] // three-byte chars
    [InlineData("\"jpn\":\"東京\",\"kor\":\"서울\",\"rus\":\"Москва\",")] // every width but pairs in one group
    [InlineData("Привет 😀 мир")] // a pair among two-byte chars and ASCII
    [InlineData("флаг 🏳\uFE0F\u200D🌈, ❤\uFE0F 👍🏽 ")] // emoji sequences: pairs among three-byte chars, pairs in a row
    public void MatchesTheRuntimeTranscoderInEveryRoom(string piece)
    {
        // Texts of up to four groups of 32 chars, into every room from none to more than they need: each group and
        // block is encoded whole only where its stores fit.
        for (int length = 1; length <= 130; length += 9)
        {
            char[] text = [.. string.Concat(Enumerable.Repeat(piece, (length / piece.Length) + 1)).AsSpan(0, length)];
            for (int room = 0; room <= (length * 3) + 8; room++)
            {
                AssertSame(text, room);
            }
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void ReadsNothingPastTheText(int seed)
    {
        // Texts of every length around a block's, each the start of a longer array whose next chars would change the
        // bytes if they were read: a low surrogate after a text that ends in a high one (which must wait for the next
        // text, not pair with it), and chars of every width otherwise.
        var random = new Random(seed);
        for (int length = 1; length <= 100; length++)
        {
            char[] array = new char[length + 40];
            for (int k = 0; k < array.Length; k++)
            {
                array[k] = s_alphabet[random.Next(s_alphabet.Length)];
            }

            if (random.Next(2) == 0)
            {
                array[length - 1] = '\uD83D';
                array[length] = '\uDE00';
            }

            AssertSame(array, length, (length * 3) + 64);
        }
    }

    [Fact]
    public void ATextOfTwoByteCharsIsTwoBytesEach()
    {
        string text = string.Concat(Enumerable.Repeat("Россия, Österreich; ", 20));
        byte[] destination = new byte[text.Length * 3];
        OperationStatus status = Utf8Transcoder.FromUtf16(text, destination, out int read, out int written);
        Assert.Equal(OperationStatus.Done, status);
        Assert.Equal(text.Length, read);
        Assert.Equal(text, System.Text.Encoding.UTF8.GetString(destination, 0, written));
    }

    // Past the room given to the transcoder: more than any of its stores reaches (64 bytes, with AVX-512).
    private const int GuardLength = 128;

    private const byte Guard = 0xA5;

    private static void AssertSame(char[] text, int room) => AssertSame(text, text.Length, room);

    // The first `length` chars of `array` against the runtime's transcoder.
    private static void AssertSame(char[] array, int length, int room)
    {
        ReadOnlySpan<char> text = array.AsSpan(0, length);
        byte[] expected = new byte[room];

        // The room, then guard bytes that no store may reach.
        byte[] actual = new byte[room + GuardLength];
        actual.AsSpan(room).Fill(Guard);
        OperationStatus expectedStatus = Utf8.FromUtf16(
            text, expected, out int expectedRead, out int expectedWritten, replaceInvalidSequences: true, isFinalBlock: false);
        OperationStatus actualStatus = Utf8Transcoder.FromUtf16(text, actual.AsSpan(0, room), out int actualRead, out int actualWritten);
        string what = $"{new string(text)} into {room} bytes";
        Assert.True(actual.AsSpan(room).IndexOfAnyExcept(Guard) < 0, $"a store past the room of {what}");
        Assert.True(expectedStatus == actualStatus, $"status of {what}: {actualStatus}, expected {expectedStatus}");
        Assert.True(expectedRead == actualRead, $"chars read of {what}: {actualRead}, expected {expectedRead}");
        Assert.True(expectedWritten == actualWritten, $"bytes written of {what}: {actualWritten}, expected {expectedWritten}");
        Assert.True(expected.AsSpan(0, expectedWritten).SequenceEqual(actual.AsSpan(0, actualWritten)), $"bytes of {what}");
    }
}
