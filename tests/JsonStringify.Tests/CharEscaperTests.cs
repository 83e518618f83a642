using System.Globalization;
using System.Text;
using Jint;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// QuoteJSONString into chars (<see cref="StringEscaper.Escape"/>), on text dense with escapes: with AVX-512 VBMI2 it
/// writes blocks of 32 chars whose escapes all have a short form at once, and hands the rest of the text to its blocks
/// of 16 at a control without a short form, at a surrogate without its other half, and where the room runs short.
/// Against the spec's algorithm written out char by char, and against Jint's serializer through the writer.
/// </summary>
public class CharEscaperTests
{
    // What the texts are made of: letters, the chars with a short escape, controls without one, chars that are not
    // ASCII (two and three UTF-8 bytes, which the chars path copies as they are), pairs, and halves of pairs alone.
    private static readonly string[] s_pieces =
    [
        "a", "b", "z", " ", "0", "\"", "\\", "\n", "\t", "\r", "\b", "\f", "/", "\u007f", "\u00e9", "\u4e2d", "\uffff",
        "\ud83d\ude00", "\u0001", "\u001f", "\0", "\ud800", "\udfff",
    ];

    public static TheoryData<int, int> SeedsAndMixes
    {
        get
        {
            // Mix 0: letters and short escapes only (the wide blocks' own text); 1: with chars that are not ASCII and
            // pairs; 2: everything, long escapes and lone halves too.
            var data = new TheoryData<int, int>();
            for (int seed = 1; seed <= 4; seed++)
            {
                for (int mix = 0; mix <= 2; mix++)
                {
                    data.Add(seed, mix);
                }
            }

            return data;
        }
    }

    [Theory]
    [MemberData(nameof(SeedsAndMixes))]
    public void MatchesTheSpecCharByChar(int seed, int mix)
    {
        var random = new Random(seed);
        for (int n = 0; n < 3_000; n++)
        {
            string text = Text(random, mix, random.Next(0, 200));

            // The room the writer gives (RoomFor), and the least room Escape takes, with which a short value's blocks
            // go the slower way.
            foreach (int room in new[] { StringEscaper.RoomFor(text.Length), text.Length * JsonConstants.MaxEscapedCharLength })
            {
                char[] destination = new char[room];
                int written = StringEscaper.Escape(text, destination);
                Assert.Equal(QuoteJsonString(text), new string(destination, 0, written));
            }
        }
    }

    [Theory]
    [MemberData(nameof(SeedsAndMixes))]
    public void MatchesJintAsValuesAndNames(int seed, int mix)
    {
        using var engine = new Engine();
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        var random = new Random(seed);
        var values = new JsValue[400];
        var names = new JsObject(engine);
        for (int n = 0; n < values.Length; n++)
        {
            string text = Text(random, mix, random.Next(0, 300));
            values[n] = new JsString(text);
            names.Set(new JsString(text + n.ToString(CultureInfo.InvariantCulture)), JsNumber.Create(n));
        }

        var document = new JsArray(engine, [new JsArray(engine, values), names]);
        foreach (JsValue gap in new[] { JsValue.Undefined, JsNumber.Create(2) })
        {
            Assert.Equal(builtin.Serialize(document, JsValue.Undefined, gap).ToString(), ours.SerializeToString(document, space: gap));
        }
    }

    // Every short escape at every lane of one and two wide blocks, one alone and several together, and a pair across
    // the blocks' end with escapes beside it.
    [Fact]
    public void ShortEscapesAtEveryLaneMatchTheSpec()
    {
        foreach (int length in new[] { 1, 15, 16, 17, 31, 32, 33, 63, 64, 65 })
        {
            string clean = StringVariants.Letters(length);
            for (int at = 0; at < length; at++)
            {
                foreach (char c in "\"\\\n\t\r\b\f")
                {
                    Check(clean.Remove(at, 1).Insert(at, c.ToString()));
                    Check(new string(c, at + 1) + clean[(at + 1)..]);
                }

                Check(clean.Remove(at, 1).Insert(at, "\ud83d\ude00\n"));
            }
        }

        static void Check(string text)
        {
            char[] destination = new char[StringEscaper.RoomFor(text.Length)];
            int written = StringEscaper.Escape(text, destination);
            Assert.Equal(QuoteJsonString(text), new string(destination, 0, written));
        }
    }

    private static string Text(Random random, int mix, int length)
    {
        // Mix 0 takes the first 12 pieces, 1 adds the other chars that are not escaped and the pair, 2 takes all.
        int pieces = mix switch { 0 => 12, 1 => 18, _ => s_pieces.Length };
        var text = new StringBuilder(length + 2);
        while (text.Length < length)
        {
            text.Append(random.Next(3) == 0 ? s_pieces[random.Next(pieces)] : s_pieces[random.Next(3)]);
        }

        return text.ToString();
    }

    // The spec's QuoteJSONString without the quotes, a code unit at a time.
    private static string QuoteJsonString(string value)
    {
        var quoted = new StringBuilder(value.Length);
        for (int i = 0; i < value.Length; i++)
        {
            char c = value[i];
            switch (c)
            {
                case '\b': quoted.Append("\\b"); break;
                case '\t': quoted.Append("\\t"); break;
                case '\n': quoted.Append("\\n"); break;
                case '\f': quoted.Append("\\f"); break;
                case '\r': quoted.Append("\\r"); break;
                case '"': quoted.Append("\\\""); break;
                case '\\': quoted.Append("\\\\"); break;
                default:
                    bool paired = char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]);
                    if (paired)
                    {
                        quoted.Append(c).Append(value[++i]);
                    }
                    else if (c < ' ' || char.IsSurrogate(c))
                    {
                        quoted.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                    }
                    else
                    {
                        quoted.Append(c);
                    }

                    break;
            }
        }

        return quoted.ToString();
    }
}
