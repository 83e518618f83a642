using System.Diagnostics;
using System.Globalization;
using System.Numerics;
using System.Runtime.Intrinsics;
using System.Text;
using JsonStringify.Internals;
using Xunit.Abstractions;

namespace JsonStringify.Tests;

/// <summary>
/// NumberFormatter against ECMA-262 Number::toString (radix 10). Hand-picked rows give V8's exact text; the seeded
/// run checks over a million doubles against an oracle that never asks the BCL for shortest digits: the text's
/// layout is rebuilt from its digits s (k of them) and exponent n, the text must parse back to the same bits, no
/// k-1 digit string may round-trip, and among k-digit strings the chosen one must be the closest that round-trips
/// (ties to even). The round-trip and closeness questions are answered with exact BigInteger arithmetic on the
/// double's binary value m × 2^e (and, for round-trips, also with double.Parse). A brute-force exact search for the
/// spec's text names the expected text in failure messages and is compared on every 16th value. Every formatter writes
/// chars and UTF-8 bytes, and each row checks both.
/// </summary>
public class NumberFormattingTests
{
    private const int MaxReportedFailures = 10;
    private const ulong Seed = 0x2545F4914F6CDD1D;
    private const ulong FractionMask = (1UL << 52) - 1;
    private const int MaxDigits = 17;
    private const int SignificandBits = 52;
    private const int MaxPow10 = 400;
    private const int BruteForceSampleStride = 16;

    // 10^0 .. 10^22 are exact doubles, so k / 10^j and k * 10^j are each correctly rounded once.
    private static readonly double[] s_exactPowersOfTen =
    [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];

    private static readonly BigInteger[] s_pow10 = BuildPowersOfTen();

    private readonly ITestOutputHelper _output;

    public NumberFormattingTests(ITestOutputHelper output) => _output = output;

    public static TheoryData<double, string> Rows => new()
    {
        { 0d, "0" },
        { -0d, "0" },
        { 1d, "1" },
        { -1d, "-1" },
        { 100d, "100" },
        { 0.5, "0.5" },
        { 0.1, "0.1" },
        { 4.35, "4.35" },
        { 1234.5678, "1234.5678" },
        { 0.000001234, "0.000001234" },
        { 1d / 3, "0.3333333333333333" },
        { 2d / 3, "0.6666666666666666" },
        { Math.PI, "3.141592653589793" },
        { 0.1 + 0.2, "0.30000000000000004" },
        { 123e-20, "1.23e-18" },
        { -1.5e300, "-1.5e+300" },
        { 1e15, "1000000000000000" },
        { 1e16, "10000000000000000" },
        { 1e17, "100000000000000000" },
        { 1e20, "100000000000000000000" },
        { 1e21, "1e+21" },
        { Math.BitDecrement(1e21), "999999999999999900000" },
        { Math.BitIncrement(1e21), "1.0000000000000001e+21" },
        { 1e23, "1e+23" },
        { 1e308, "1e+308" },
        { 1e-6, "0.000001" },
        { Math.BitDecrement(1e-6), "9.999999999999997e-7" },
        { Math.BitIncrement(1e-6), "0.0000010000000000000002" },
        { 1e-7, "1e-7" },
        { Math.BitDecrement(1e-7), "9.999999999999998e-8" },
        { 1.5e-7, "1.5e-7" },
        { 5e-7, "5e-7" },
        { 9.5e-5, "0.000095" },
        { -0.0000012, "-0.0000012" },
        { double.Epsilon, "5e-324" },
        { double.Epsilon * 3, "1.5e-323" },
        { double.MaxValue, "1.7976931348623157e+308" },
        { -double.MaxValue, "-1.7976931348623157e+308" },
        { 2.2250738585072014e-308, "2.2250738585072014e-308" },
        { Math.BitDecrement(2.2250738585072014e-308), "2.225073858507201e-308" },
        { Math.ScaleB(1, -20), "9.5367431640625e-7" },
        { Math.ScaleB(1, -30), "9.313225746154785e-10" },
        { Math.ScaleB(1, 55), "36028797018963970" },
        { Math.ScaleB(1, 63), "9223372036854776000" },
        { Math.ScaleB(1, 64), "18446744073709552000" },
        { Math.ScaleB(1, 70), "1.1805916207174113e+21" },
        { 9007199254740991d, "9007199254740991" },
        { 9007199254740993d, "9007199254740992" },
        { 9007199254740994d, "9007199254740994" },
        { 123456789012345680000d, "123456789012345680000" },
        { 1.2345678901234567e21, "1.2345678901234568e+21" },

        // Significands of six to seventeen digits, written as vectors where the processor has them: dd.ddd with the
        // point after the first, fifth, seventh, eighth and fourteenth to sixteenth digit, and 0.ddd (expected text
        // from V8).
        { 1234567890123456.8, "1234567890123456.8" },
        { -1234567890123456.8, "-1234567890123456.8" },
        { 4503599627370495.5, "4503599627370495.5" },
        { 123456789012345.67, "123456789012345.67" },
        { 12345678901234.566, "12345678901234.566" },
        { 1234567.0000000002, "1234567.0000000002" },
        { 12345678.901234567, "12345678.901234567" },
        { 99999999.12345679, "99999999.12345679" },
        { 12345.6789, "12345.6789" },
        { 99999.56789012345, "99999.56789012345" },
        { 1.2345678901234567, "1.2345678901234567" },
        { -9.876543210987654, "-9.876543210987654" },
        { 0.12345678901234568, "0.12345678901234568" },

        // Decimals of four to seven places, the seven-place check's (map and texture coordinates): up to fifteen
        // digits, below 10^-6 in e-notation, and one-place decimals whose thousandfold is not a whole double, where
        // that check finds six trailing zeros to drop; three whose ten-millionfold is not a whole double, which the
        // check takes all the same, with the doubles an ulp either side of two of them, which are no such decimal and
        // go to the shortest digits; the last seven-place decimal below 10^8, and one above, which has too many
        // digits for the check (expected text from V8).
        { 4.8907073, "4.8907073" },
        { -122.4194155, "-122.4194155" },
        { 45.7012391, "45.7012391" },
        { 0.8104211, "0.8104211" },
        { 4.8907075, "4.8907075" },
        { 45.7024255, "45.7024255" },
        { 4.8907074999999995, "4.8907074999999995" },
        { 4.890707500000001, "4.890707500000001" },
        { 45.70242549999999, "45.70242549999999" },
        { 45.702425500000004, "45.702425500000004" },
        { 99999999.9999999, "99999999.9999999" },
        { 123456789.1234567, "123456789.1234567" },
        { 0.810421, "0.810421" },
        { -0.0001234, "-0.0001234" },
        { 1.0000001, "1.0000001" },
        { 12345678.1234567, "12345678.1234567" },
        { 99999999.1234567, "99999999.1234567" },
        { 0.0000009, "9e-7" },
        { 64.9, "64.9" },
        { 516.7, "516.7" },
        { 8253.3, "8253.3" },
        { -131148.2, "-131148.2" },
        { 68343909.1, "68343909.1" },

        // The few-places layout around its edges: whole parts of one to twelve digits (five and more written as any
        // integer is), three places scaled to seven, and the first and last of the seven places (text from V8).
        { 12345.5, "12345.5" },
        { -123456789.125, "-123456789.125" },
        { 999999999999.999, "999999999999.999" },
        { 100000000000.5, "100000000000.5" },
        { 0.001, "0.001" },
        { -0.0000015, "-0.0000015" },
        { 10000.0000001, "10000.0000001" },
        { 9999.9999999, "9999.9999999" },
        { 0.1234567, "0.1234567" },
    };

    [Theory]
    [MemberData(nameof(Rows), DisableDiscoveryEnumeration = true)]
    public void FormatsLikeV8(double value, string expected)
    {
        Span<char> buffer = stackalloc char[JsonConstants.NumberBufferLength];
        int length = NumberFormatter.Format(value, buffer);
        Span<byte> bytes = stackalloc byte[JsonConstants.NumberBufferLength];
        int byteLength = NumberFormatter.Format(value, bytes);

        Assert.Equal(expected, buffer[..length].ToString());
        Assert.Equal(expected, Encoding.UTF8.GetString(bytes[..byteLength]));
        Assert.Equal(expected, ExpectedText(value));
    }

    // The writer writes whole numbers below SmallIntegerLimit itself, inline where values are written.
    [Fact]
    public void SmallIntegersMatchTheirPlainDigits()
    {
        Span<char> buffer = stackalloc char[NumberFormatter.SmallIntegerDigits];
        Span<byte> bytes = stackalloc byte[NumberFormatter.SmallIntegerDigits];
        for (uint value = 0; value < NumberFormatter.SmallIntegerLimit; value++)
        {
            string expected = value.ToString(CultureInfo.InvariantCulture);
            int length = NumberFormatter.FormatSmallInteger(value, buffer);
            Assert.Equal(expected, buffer[..length].ToString());
            length = NumberFormatter.FormatSmallInteger(value, bytes);
            Assert.Equal(expected, Encoding.UTF8.GetString(bytes[..length]));
        }
    }

    // The same through the writer: every small whole number, at the many offsets of the writer's buffer that 10,000
    // of them reach (the buffer is flushed among them), beside numbers just outside the small ones and numbers whose
    // conversion to 64 bits ends in the 32 bits of a small one (2^32 + 5, 3 × 2^32 + 9,999, -(2^32) + 5, 2^63, 2^64),
    // as a string and as UTF-8.
    [Fact]
    public void SmallIntegersAreWrittenAtEveryOffsetOfTheWritersBuffer()
    {
        string expected = "[0,-1,0.5,9.5,99.5,999.5,9999.5,10000,65536,4294967296,4294967301,12884911887,-4294967291,"
            + "9223372036854776000,18446744073709552000,1e+21,null,null,"
            + string.Join(',', Enumerable.Range(0, 10_001)) + "]";
        AssertWrittenAsStringAndUtf8(
            "const a = [-0, -1, 0.5, 9.5, 99.5, 999.5, 9999.5, 10000, 65536, 4294967296, 4294967301, 12884911887,"
            + " -4294967291, 2 ** 63, 2 ** 64, 1e21, NaN, -Infinity];"
            + " for (let i = 0; i <= 10000; i++) { a.push(i); } a",
            expected);
    }

    // The writer writes the other whole numbers below 2^32 out of line, but apart from the formatter's other numbers:
    // up to eight digits at once, by multiplying. Every number from 10^4 to 2 × 10^5, every power of ten and its
    // neighbours up to 2^32, and seeded numbers of every bit length, into a buffer of exactly the room it asks for.
    [Fact]
    public void WholeNumbersMatchTheirPlainDigits()
    {
        var values = new List<uint> { 0, 1, 9, uint.MaxValue - 1, uint.MaxValue };
        for (uint value = 10_000; value <= 200_000; value++)
        {
            values.Add(value);
        }

        for (ulong power = 10; power <= uint.MaxValue; power *= 10)
        {
            values.AddRange([(uint)power - 1, (uint)power, (uint)power + 1]);
        }

        var random = new Random(20261129);
        for (int i = 0; i < 200_000; i++)
        {
            values.Add((uint)random.NextInt64(1L << random.Next(1, 33)));
        }

        Span<char> buffer = stackalloc char[NumberFormatter.WholeNumberDigits];
        Span<byte> bytes = stackalloc byte[NumberFormatter.WholeNumberDigits];
        foreach (uint value in values)
        {
            string expected = value.ToString(CultureInfo.InvariantCulture);
            int length = NumberFormatter.FormatWholeNumber(value, buffer);
            Assert.Equal(expected, buffer[..length].ToString());
            length = NumberFormatter.FormatWholeNumber(value, bytes);
            Assert.Equal(expected, Encoding.UTF8.GetString(bytes[..length]));
        }
    }

    // The same through the writer, at the many offsets of its buffer that 10,000 of them reach (it is flushed among
    // them), of every length from five digits to ten, beside the numbers around them that take other paths (negative,
    // not whole, 2^32 and up), as a string and as UTF-8.
    [Fact]
    public void WholeNumbersAreWrittenAtEveryOffsetOfTheWritersBuffer()
    {
        IEnumerable<long> written =
            Enumerable.Range(0, 10_000).Select(i => 10_000 + (i * 429_496L) + ((i % 7) * (long)Math.Pow(10, i % 6)));
        string expected = "[9999,10000,-10000,10000.5,99999999,100000000,4294967295,4294967296,-4294967295,"
            + string.Join(',', written) + "]";
        AssertWrittenAsStringAndUtf8(
            "const a = [9999, 10000, -10000, 10000.5, 99999999, 100000000, 4294967295, 4294967296, -4294967295];"
            + " for (let i = 0; i < 10000; i++) { a.push(10000 + i * 429496 + (i % 7) * 10 ** (i % 6)); } a",
            expected);
    }

    // Negative whole numbers above -2^32 take the head of the writer's out-of-line number path: a sign, then the
    // magnitude by the small or the whole-number digits. Every one from -1 to -10,000 and 10,000 of five to ten
    // digits, at the many offsets of the writer's buffer they reach, beside the numbers around them that take other
    // paths (-0, not whole, -2^32 and beyond, -(2^32 + 5) among them, not finite), as a string and as UTF-8.
    [Fact]
    public void NegativeWholeNumbersAreWrittenAtEveryOffsetOfTheWritersBuffer()
    {
        IEnumerable<long> small = Enumerable.Range(1, 10_000).Select(i => -(long)i);
        IEnumerable<long> whole =
            Enumerable.Range(0, 10_000).Select(i => -(10_001 + (i * 429_496L) + ((i % 7) * (long)Math.Pow(10, i % 6))));
        string expected = "[0,-0.5,-9999.5,-4294967295,-4294967296,-4294967297,-4294967301,-9007199254740991,null,null,"
            + string.Join(',', small.Concat(whole)) + "]";
        AssertWrittenAsStringAndUtf8(
            "const a = [-0, -0.5, -9999.5, -4294967295, -4294967296, -4294967297, -4294967301, -9007199254740991,"
            + " -Infinity, NaN];"
            + " for (let i = 1; i <= 10000; i++) { a.push(-i); }"
            + " for (let i = 0; i < 10000; i++) { a.push(-(10001 + i * 429496 + (i % 7) * 10 ** (i % 6))); } a",
            expected);
    }

    // The writer's out-of-line number path writes where its buffer has room for 64 chars, after a flush where it has
    // less. Each kind of number that takes it (fractions of few places and of shortest digits, negative whole numbers
    // on either side of -2^32, whole numbers from 2^32 and from 2^53 on, e-notation, the values written as null), 300
    // times after a string of 0 to its text's length chars, so that it lands on every place near the end of the
    // buffer, as a string and as UTF-8.
    [Fact]
    public void OtherNumbersAreWrittenAtEveryOffsetNearTheEndOfTheWritersBuffer()
    {
        (string Script, string Text)[] numbers =
        [
            ("-1.5", "-1.5"), ("4.8907075", "4.8907075"), ("-65.61361699999998", "-65.61361699999998"),
            ("1 / 3", "0.3333333333333333"), ("-2 / 3", "-0.6666666666666666"), ("-12", "-12"), ("-123456", "-123456"),
            ("-4294967295", "-4294967295"), ("-4294967296", "-4294967296"), ("4294967296", "4294967296"),
            ("-(2 ** 53)", "-9007199254740992"), ("2 ** 60", "1152921504606847000"), ("1e21", "1e+21"),
            ("-1e-7", "-1e-7"), ("5e-324", "5e-324"), ("-1.7976931348623157e308", "-1.7976931348623157e+308"),
            ("NaN", "null"), ("-Infinity", "null"),
        ];
        var script = new StringBuilder("const runs = [];");
        var expected = new List<string>();
        foreach ((string number, string text) in numbers)
        {
            for (int shift = 0; shift <= text.Length; shift++)
            {
                script.Append(CultureInfo.InvariantCulture, $" runs.push(['x'.repeat({shift}), ...Array(300).fill({number})]);");
                expected.Add("[\"" + new string('x', shift) + "\"," + string.Join(',', Enumerable.Repeat(text, 300)) + "]");
            }
        }

        AssertWrittenAsStringAndUtf8(script + " runs", "[" + string.Join(',', expected) + "]");
    }

    // The writer writes the numbers of an array whose signs and lengths change at random without a branch on either:
    // every whole number from -200,000 to 200,000 but zero, every power of ten and its neighbours below 10^8, both
    // signs, and seeded numbers of every bit length, into a buffer of exactly the room it asks for.
    [Fact]
    public void SignedWholeNumbersMatchTheirPlainDigits()
    {
        var values = new List<long>();
        for (long value = 1; value <= 200_000; value++)
        {
            values.AddRange([value, -value]);
        }

        for (long power = 10; power < NumberFormatter.SignedWholeNumberLimit; power *= 10)
        {
            values.AddRange([power - 1, power, power + 1, 1 - power, -power, -power - 1]);
        }

        values.AddRange([NumberFormatter.SignedWholeNumberLimit - 1L, 1L - NumberFormatter.SignedWholeNumberLimit]);
        var random = new Random(20261130);
        for (int i = 0; i < 200_000; i++)
        {
            long value = 1 + random.NextInt64((1L << random.Next(1, 27)) - 1);
            values.Add(random.Next(2) == 0 ? value : -value);
        }

        Span<char> buffer = stackalloc char[NumberFormatter.SignedWholeNumberDigits];
        Span<byte> bytes = stackalloc byte[NumberFormatter.SignedWholeNumberDigits];
        foreach (long value in values)
        {
            string expected = value.ToString(CultureInfo.InvariantCulture);
            int length = NumberFormatter.FormatSignedWholeNumber(value, (uint)Math.Abs(value), buffer);
            Assert.Equal(expected, buffer[..length].ToString());
            length = NumberFormatter.FormatSignedWholeNumber(value, (uint)Math.Abs(value), bytes);
            Assert.Equal(expected, Encoding.UTF8.GetString(bytes[..length]));
        }
    }

    // What the walker takes for an array of erratic numbers, and what it does not: runs of neighbours at the start
    // and at each quarter, all whole numbers between -10^8 and 10^8, of whose pairs of neighbours a quarter differ in
    // sign and half in number of digits (half of those of the first run).
    [Fact]
    public void ErraticNumbersAreTheWholeNumbersWhoseSignAndLengthChangeInEveryRunSampled()
    {
        // -7, 7, -88,021, 88,021, -7, ...: the sign changes at every pair, the length at every other.
        double[] erratic = [.. Enumerable.Range(0, 400).Select(i => (i % 2 == 0 ? -1 : 1) * (i % 4 < 2 ? 7d : 88_021))];
        Assert.True(Walker<TextOutput>.IsErratic(Values(erratic)));

        // The sign changes at every other pair, the length at every pair: the least of each that counts is half that.
        Assert.True(Walker<TextOutput>.IsErratic(Values(Enumerable.Range(0, 400).Select(i => (i % 4 < 2 ? 1 : -1) * (i % 2 == 0 ? 5d : 50)))));

        // Only the sign changes, or only the length.
        Assert.False(Walker<TextOutput>.IsErratic(Values(Enumerable.Range(0, 400).Select(i => i % 2 == 0 ? 5d : -5d))));
        Assert.False(Walker<TextOutput>.IsErratic(Values(Enumerable.Range(0, 400).Select(i => i % 2 == 0 ? 5d : 5_000))));

        // A series' values: the sign and length of each number are those of the one before.
        Assert.False(Walker<TextOutput>.IsErratic(Values(Enumerable.Range(0, 400).Select(i => 100d + (i % 7)))));
        Assert.False(Walker<TextOutput>.IsErratic(Values(Enumerable.Range(0, 400).Select(i => -(double)i * 1_000))));

        // Erratic at the start only, as a gauge that starts near zero and drifts away.
        Assert.False(Walker<TextOutput>.IsErratic(Values(erratic.Take(20).Concat(Enumerable.Repeat(12d, 380)))));

        // Erratic but in the last run sampled.
        double[] calmAtTheEnd = [.. erratic];
        Array.Fill(calmAtTheEnd, 12d, 300, 100);
        Assert.False(Walker<TextOutput>.IsErratic(Values(calmAtTheEnd)));

        // A sampled element that is not a whole number between -10^8 and 10^8, or not a number.
        foreach (double other in new[] { 0.5, -7.25, 1e8, -1e8, 4294967296, double.NaN, double.PositiveInfinity })
        {
            double[] numbers = [.. erratic];
            numbers[301] = other;
            Assert.False(Walker<TextOutput>.IsErratic(Values(numbers)));
        }

        Jint.Native.JsValue?[] withString = Values(erratic);
        withString[101] = new Jint.Native.JsString("7");
        Assert.False(Walker<TextOutput>.IsErratic(withString));
        withString[101] = null;
        Assert.False(Walker<TextOutput>.IsErratic(withString));
    }

    // Long arrays of erratic numbers through the writer: whole numbers from -10^8 to 10^8 of seeded signs and lengths
    // at the many offsets of the writer's buffer they reach, with the numbers that take WriteNumber's paths among
    // them (zero, -0, not whole, 10^8 and beyond, not finite), and elements that end the run of numbers (a string,
    // null, an object, an array) after which the array goes on as any other; compact and indented, as a string and as
    // UTF-8, against the digits .NET writes (and, indented, against Jint's serializer).
    [Fact]
    public void ErraticNumbersAreWrittenAtEveryOffsetOfTheWritersBuffer()
    {
        var random = new Random(30112026);
        long[] seeded = [.. Enumerable.Range(0, 20_000).Select(_ =>
        {
            long magnitude = 1 + random.NextInt64((long)Math.Pow(10, random.Next(1, 9)) - 1);
            return random.Next(2) == 0 ? magnitude : -magnitude;
        })];
        const string Between = "0, -0, 0.5, -99.25, 99999999, -99999999, 100000000, -100000000, 4294967296, NaN, -Infinity";
        const string BetweenText = "0,0,0.5,-99.25,99999999,-99999999,100000000,-100000000,4294967296,null,null";
        string numbers = string.Join(',', seeded.Select(n => n.ToString(CultureInfo.InvariantCulture)));
        string script = $"const n = [{numbers}];"
            + $" const between = [{Between}];"
            + " const spliced = n.slice(0, 7000).concat(between, n.slice(7000));"
            + " [n, spliced, n.slice(0, 5000).concat(['x', null, 3, -4], n.slice(5000, 6000)),"
            + " n.slice(0, 5000).concat([{ a: -12 }, [7, -8]], n.slice(5000, 6000))]";
        string Numbers(int from, int count) => string.Join(',', seeded.Skip(from).Take(count));
        string expected = $"[[{numbers}],[{Numbers(0, 7_000)},{BetweenText},{Numbers(7_000, 13_000)}],"
            + $"[{Numbers(0, 5_000)},\"x\",null,3,-4,{Numbers(5_000, 1_000)}],"
            + $"[{Numbers(0, 5_000)},{{\"a\":-12}},[7,-8],{Numbers(5_000, 1_000)}]]";
        // The arrays are erratic: the quarters at which the walker samples them fall among the seeded numbers.
        Assert.True(Walker<TextOutput>.IsErratic(Values(seeded.Select(n => (double)n))));
        Assert.True(Walker<TextOutput>.IsErratic(Values(seeded.Take(6_004).Select(n => (double)n))));
        double[] between = [0, -0d, 0.5, -99.25, 99999999, -99999999, 1e8, -1e8, 4294967296, double.NaN, double.NegativeInfinity];
        Assert.True(Walker<TextOutput>.IsErratic(Values(seeded.Take(7_000).Select(n => (double)n).Concat(between).Concat(seeded.Skip(7_000).Select(n => (double)n)))));
        AssertWrittenAsStringAndUtf8(script, expected);

        using var engine = new Jint.Engine();
        Jint.Native.JsValue value = engine.Evaluate(script);
        Jint.Native.JsValue space = Jint.Native.JsNumber.Create(2);
        string indented = new Jint.Native.Json.JsonSerializer(engine).Serialize(value, Jint.Native.JsValue.Undefined, space).ToString();
        Assert.Equal(indented, new JsonSerializer(engine).SerializeToString(value, null, space));
    }

    private static Jint.Native.JsValue?[] Values(IEnumerable<double> numbers) =>
        [.. numbers.Select(n => (Jint.Native.JsValue?)Jint.Native.JsNumber.Create(n))];

    // The value the script makes, serialized as a string and as UTF-8, each against the expected text.
    private static void AssertWrittenAsStringAndUtf8(string script, string expected)
    {
        using var engine = new Jint.Engine();
        var serializer = new JsonSerializer(engine);
        Jint.Native.JsValue values = engine.Evaluate(script);
        Assert.Equal(expected, serializer.SerializeToString(values));
        var utf8 = new System.Buffers.ArrayBufferWriter<byte>();
        serializer.Serialize(values, Jint.Native.JsValue.Undefined, Jint.Native.JsValue.Undefined, utf8);
        Assert.Equal(expected, Encoding.UTF8.GetString(utf8.WrittenSpan));
    }

    // Integers take their own path (digit counting and pairs, 32- and 64-bit): every power of ten and its neighbours
    // up to 2^53, both signs, plus seeded integers of every length, against the BCL's integer text.
    [Fact]
    public void IntegersMatchTheirPlainDigits()
    {
        var values = new List<long>();
        for (long power = 1; power < 1L << 53; power *= 10)
        {
            values.AddRange([power - 1, power, power + 1]);
        }

        values.AddRange([uint.MaxValue - 1L, uint.MaxValue, uint.MaxValue + 1L, (1L << 53) - 1]);
        var random = new Random(20261123);
        for (int i = 0; i < 200_000; i++)
        {
            values.Add(random.NextInt64(1L << random.Next(1, 54)));
        }

        Span<char> buffer = stackalloc char[JsonConstants.NumberBufferLength];
        Span<byte> bytes = stackalloc byte[JsonConstants.NumberBufferLength];
        int checkedCount = 0;
        foreach (long value in values)
        {
            foreach (long signed in (long[])[value, -value])
            {
                string expected = signed.ToString(CultureInfo.InvariantCulture);
                int length = NumberFormatter.Format(signed, buffer);
                Assert.Equal(expected, buffer[..length].ToString());
                length = NumberFormatter.Format(signed, bytes);
                Assert.Equal(expected, Encoding.UTF8.GetString(bytes[..length]));
                checkedCount++;
            }
        }

        Assert.True(checkedCount > 400_000);
    }

    // NumberFormatter.EightDigitTenths takes the digit in lane j as floor(10 × frac(n / D)), D = 10^(8 - j), from
    // n × c / 2^s, rounded up, in 32 bits of fraction. Its constants (c, s and the rounding 2^s - 1) are the ones its
    // proof names, c below 2^32, and for every n below 10^8 the error e = n × (c / 2^(32 + s) - 1 / D) keeps
    // 2^32 × (1/D - e) above 1, in exact fractions (the largest e is at n = 10^8 - 1).
    [Fact]
    public void WideDigitConstantsKeepEveryDigitExact()
    {
        for (int lane = 0; lane < 8; lane++)
        {
            BigInteger divisor = BigInteger.Pow(10, 8 - lane);
            int shift = (int)divisor.GetBitLength() - 1;
            BigInteger scale = BigInteger.One << (32 + shift);
            BigInteger reciprocal = (scale + divisor - 1) / divisor;
            Assert.Equal((ulong)shift, NumberFormatter.EightDigitShifts.GetElement(lane));
            Assert.Equal((ulong)reciprocal, NumberFormatter.EightDigitReciprocals.GetElement(lane));
            Assert.Equal((1UL << shift) - 1, NumberFormatter.EightDigitRoundings.GetElement(lane));
            Assert.True(reciprocal < (BigInteger.One << 32), $"lane {lane}: c fits in 32 bits");

            // e = (10^8 - 1) × (c × D - 2^(32+s)) / (D × 2^(32+s)); 2^32 × (1/D - e) > 1 multiplied out by D × 2^(32+s).
            BigInteger excess = 99_999_999 * ((reciprocal * divisor) - scale);
            Assert.True((BigInteger.One << 32) * (scale - excess) > divisor * scale, $"lane {lane}: the error stays below a digit's step");
        }
    }

    // The digits EightDigitTenths makes, against the plain digits: every half of eight digits below 10^5 and from
    // 10^8 - 10^5, every half within 2 of d × 10^m (every carry into every lane), and a million seeded ones, each
    // beside a seeded other half, and the seventeenth digit of a value of seventeen.
    [WideDigitsFact]
    public void WideDigitsMatchThePlainDigits()
    {
        var halves = new List<ulong>();
        for (ulong n = 0; n < 100_000; n++)
        {
            halves.Add(n);
            halves.Add(99_999_999 - n);
        }

        for (ulong power = 1; power < 100_000_000; power *= 10)
        {
            for (ulong d = 1; d < 100 && d * power < 100_000_002; d++)
            {
                for (long delta = -2; delta <= 2; delta++)
                {
                    long n = (long)(d * power) + delta;
                    if (n is >= 0 and < 100_000_000)
                    {
                        halves.Add((ulong)n);
                    }
                }
            }
        }

        var random = new Random(20261207);
        for (int i = 0; i < 1_000_000; i++)
        {
            halves.Add((ulong)random.Next(100_000_000));
        }

        foreach (ulong half in halves)
        {
            ulong other = (ulong)random.Next(100_000_000);
            AssertSixteenDigits((half * 100_000_000) + other);
            AssertSixteenDigits((other * 100_000_000) + half);
        }

        Vector128<byte> digits = NumberFormatter.LeadingSixteenDigitBytes(12_345_678_901_234_567, 17, out char seventeenth);
        Assert.Equal("1234567890123456", DigitText(digits));
        Assert.Equal('7', seventeenth);

        static void AssertSixteenDigits(ulong value)
        {
            Vector128<byte> digits = NumberFormatter.LeadingSixteenDigitBytes(value, 16, out char seventeenth);
            string expected = value.ToString("D16", CultureInfo.InvariantCulture);
            if (DigitText(digits) != expected || seventeenth != '0')
            {
                Assert.Fail($"{expected}: {DigitText(digits)}, then '{seventeenth}'");
            }
        }

        static string DigitText(Vector128<byte> digits)
        {
            var text = new char[16];
            for (int i = 0; i < text.Length; i++)
            {
                text[i] = (char)('0' + digits.GetElement(i));
            }

            return new string(text);
        }
    }

    [Fact]
    public void SeededDoublesMatchTheSpecOracle()
    {
        // Timed for the log only: nothing is asserted of the time.
        var total = Stopwatch.StartNew();
        (double[] values, List<(string Name, int Count)> categories) = Generate();
        TimeSpan generated = total.Elapsed;

        var results = new List<Worker>();
        Parallel.For(
            0,
            values.Length,
            () => new Worker(),
            (i, _, worker) =>
            {
                worker.Check(i, values[i]);
                return worker;
            },
            worker =>
            {
                lock (results)
                {
                    results.Add(worker);
                }
            });

        long failures = results.Sum(w => w.FailureCount);
        long closerButNotRoundTripping = results.Sum(w => w.CloserNeighbourNotRoundTripping);
        long ties = results.Sum(w => w.TiesToEven);
        List<string> first = [.. results.SelectMany(w => w.Failures).OrderBy(f => f.Index).Take(MaxReportedFailures).Select(f => f.Message)];

        _output.WriteLine($"checked {values.Length:N0} doubles in {total.Elapsed.TotalSeconds:F2} s (generation {generated.TotalSeconds:F2} s)");
        foreach ((string name, int count) in categories)
        {
            _output.WriteLine($"  {count,9:N0}  {name}");
        }

        _output.WriteLine($"closer k-digit neighbour that does not round-trip: {closerButNotRoundTripping:N0}; ties broken to even: {ties:N0}");
        _output.WriteLine($"failures: {failures:N0}");

        if (failures > 0)
        {
            Assert.Fail($"{failures:N0} of {values.Length:N0} doubles failed; first {first.Count}:\n" + string.Join('\n', first));
        }
    }

    private static (double[] Values, List<(string Name, int Count)> Categories) Generate()
    {
        var rng = new SplitMix64(Seed);
        var values = new List<double>(1_200_000);
        var categories = new List<(string Name, int Count)>();

        void Category(string name, Action fill)
        {
            int before = values.Count;
            fill();
            categories.Add((name, values.Count - before));
        }

        void AddEitherSign(double value) => values.Add(rng.Coin() ? -value : value);

        Category("specials: ±0, ±MAX_VALUE, ±Epsilon, ±1, around 2^53, the layout thresholds", () =>
        {
            foreach (double v in new[]
            {
                0d, 1d, double.MaxValue, double.Epsilon, 9007199254740991d, 9007199254740992d, 9007199254740994d,
                1e21, 1e-6, 1e-7, 1e20, 1e22, 1e23, 2.2250738585072014e-308,
            })
            {
                values.Add(v);
                values.Add(-v);
            }
        });

        Category("random 64-bit patterns (NaN and ±Infinity skipped)", () =>
        {
            for (int i = 0; i < 400_000;)
            {
                double v = BitConverter.UInt64BitsToDouble(rng.Next());
                if (double.IsFinite(v))
                {
                    values.Add(v);
                    i++;
                }
            }
        });

        Category("random integers in [2^53, 2^70)", () =>
        {
            for (int i = 0; i < 150_000; i++)
            {
                ulong exponent = (ulong)rng.Range(53, 69) + 1023;
                AddEitherSign(BitConverter.UInt64BitsToDouble((exponent << 52) | (rng.Next() & FractionMask)));
            }
        });

        Category("every double within 5,000 ulps of 2^53", () => AddWalk(values, 9007199254740992d, 5_000, rng));

        Category("random integers below 2^53", () =>
        {
            for (int i = 0; i < 50_000; i++)
            {
                int bitLength = rng.Range(1, 53);
                AddEitherSign(Math.Max(1, rng.Next() >> (64 - bitLength)));
            }
        });

        Category("short decimals k / 10^j and k * 10^j (k up to 12 digits, j up to 22)", () =>
        {
            for (int i = 0; i < 150_000; i++)
            {
                double k = 1 + rng.Below((ulong)s_exactPowersOfTen[rng.Range(1, 12)] - 1);
                double scale = s_exactPowersOfTen[rng.Range(0, 22)];
                AddEitherSign(rng.Coin() ? k / scale : k * scale);
            }
        });

        Category("decimals of 1-7 places and 1-15 digits, and their neighbours (the few-places layout)", () =>
        {
            for (int i = 0; i < 100_000; i++)
            {
                int places = rng.Range(1, 7);
                double k = 1 + rng.Below((ulong)s_exactPowersOfTen[rng.Range(1, 15)] - 1);
                double v = k / s_exactPowersOfTen[places];
                AddEitherSign(rng.Below(4) == 0 ? (rng.Coin() ? Math.BitIncrement(v) : Math.BitDecrement(v)) : v);
            }
        });

        Category("decimals of 1-17 digits with exponents across the whole range", () =>
        {
            for (int i = 0; i < 100_000;)
            {
                int digits = rng.Range(1, MaxDigits);
                ulong k = 1 + rng.Below((ulong)s_exactPowersOfTen[digits] - 1);
                string text = string.Create(CultureInfo.InvariantCulture, $"{k}e{rng.Range(-345, 310)}");
                double v = double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
                if (v != 0 && double.IsFinite(v))
                {
                    AddEitherSign(v);
                    i++;
                }
            }
        });

        Category("decimals of 15-17 digits across the whole range, and the doubles either side", () =>
        {
            for (int i = 0; i < 50_000;)
            {
                ulong smallest = (ulong)s_exactPowersOfTen[rng.Range(14, MaxDigits - 1)];
                ulong k = smallest + rng.Below(9 * smallest);
                string text = string.Create(CultureInfo.InvariantCulture, $"{k}e{rng.Range(-340, 292)}");
                double v = double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
                if (v != 0 && double.IsFinite(v))
                {
                    AddEitherSign(Math.BitDecrement(v));
                    AddEitherSign(v);
                    AddEitherSign(Math.BitIncrement(v));
                    i++;
                }
            }
        });

        Category("exact ties one digit past the shortest: c = v × 10^-(d+1) ending in exactly .25 or .75", () =>
        {
            // v = m × 2^e with d = floor(log10(2^e)) and k = -(d+1) ≥ 0: c = m × 5^k / 2^s with s = -(e+k) fraction
            // bits. Its fraction is q/4 when m × 5^k ≡ q × 2^(s-2) (mod 2^s), i.e. m ≡ q × 2^(s-2) × 5^-k. The odd
            // residues modulo 2^s form a group of order 2^(s-1), so 5^-k is (5^k)^(2^(s-1) - 1).
            for (int e = -1; e >= -80; e--)
            {
                int k = -((int)Math.Floor(e * Math.Log10(2)) + 1);
                int s = -(e + k);
                if (k < 0 || s is < 2 or > SignificandBits)
                {
                    continue;
                }

                var modulus = BigInteger.One << s;
                BigInteger inverseOfFivePowK = BigInteger.ModPow(BigInteger.ModPow(5, k, modulus), (modulus >> 1) - 1, modulus);
                foreach (int quarters in new[] { 1, 3 })
                {
                    var residue = (ulong)(inverseOfFivePowK * quarters * (BigInteger.One << (s - 2)) % modulus);
                    for (int i = 0; i < 200; i++)
                    {
                        ulong m = (1UL << SignificandBits) + residue + (rng.Below(1UL << (SignificandBits - s)) << s);
                        values.Add(BitConverter.UInt64BitsToDouble(((ulong)(e + 1075) << SignificandBits) | (m & FractionMask)));
                    }
                }
            }
        });

        Category("every double within 20,000 ulps of 1e21, 1e-6 and 1e-7", () =>
        {
            AddWalk(values, 1e21, 20_000, rng);
            AddWalk(values, 1e-6, 20_000, rng);
            AddWalk(values, 1e-7, 20_000, rng);
        });

        Category("random doubles in [1e20, 1e22] and [1e-8, 1e-5]", () =>
        {
            for (int i = 0; i < 25_000; i++)
            {
                AddEitherSign(Between(1e20, 1e22, rng));
                AddEitherSign(Between(1e-8, 1e-5, rng));
            }
        });

        Category("±2^p for p in [-1074, 1023] and their neighbours", () =>
        {
            for (int p = -1074; p <= 1023; p++)
            {
                double power = Math.ScaleB(1, p);
                foreach (double v in new[] { power, Math.BitDecrement(power), Math.BitIncrement(power) })
                {
                    values.Add(v);
                    values.Add(-v);
                }
            }
        });

        Category("subnormals: the first and last 2,000 and 60,000 random ones", () =>
        {
            for (ulong bits = 1; bits <= 2_000; bits++)
            {
                AddEitherSign(BitConverter.UInt64BitsToDouble(bits));
                AddEitherSign(BitConverter.UInt64BitsToDouble((1UL << 52) - bits));
            }

            for (int i = 0; i < 60_000; i++)
            {
                AddEitherSign(BitConverter.UInt64BitsToDouble(1 + rng.Below(FractionMask)));
            }
        });

        return ([.. values], categories);
    }

    private static void AddWalk(List<double> values, double centre, int ulps, SplitMix64 rng)
    {
        ulong bits = BitConverter.DoubleToUInt64Bits(centre);
        for (int i = -ulps; i <= ulps; i++)
        {
            double v = BitConverter.UInt64BitsToDouble((ulong)((long)bits + i));
            values.Add(rng.Coin() ? -v : v);
        }
    }

    // Positive doubles order like their bit patterns, so a uniform pattern between two bounds is a double between them.
    private static double Between(double low, double high, SplitMix64 rng)
    {
        ulong lowBits = BitConverter.DoubleToUInt64Bits(low);
        ulong highBits = BitConverter.DoubleToUInt64Bits(high);
        return BitConverter.UInt64BitsToDouble(lowBits + rng.Below(highBits - lowBits + 1));
    }

    private static BigInteger[] BuildPowersOfTen()
    {
        var powers = new BigInteger[MaxPow10 + 1];
        powers[0] = BigInteger.One;
        for (int i = 1; i < powers.Length; i++)
        {
            powers[i] = powers[i - 1] * 10;
        }

        return powers;
    }

    /// <summary>
    /// The spec's layout of sign, digits s (k of them) and exponent n, written independently of the library.
    /// </summary>
    private static string SpecLayout(bool negative, long s, int k, int n)
    {
        string digits = s.ToString(CultureInfo.InvariantCulture);
        var text = new StringBuilder(32);
        if (negative)
        {
            text.Append('-');
        }

        if (k <= n && n <= 21)
        {
            text.Append(digits).Append('0', n - k);
        }
        else if (0 < n && n <= 21)
        {
            text.Append(digits, 0, n).Append('.').Append(digits, n, k - n);
        }
        else if (-6 < n && n <= 0)
        {
            text.Append("0.").Append('0', -n).Append(digits);
        }
        else
        {
            int e = n - 1;
            text.Append(digits[0]);
            if (k > 1)
            {
                text.Append('.').Append(digits, 1, k - 1);
            }

            text.Append('e').Append(e < 0 ? '-' : '+').Append(Math.Abs(e).ToString(CultureInfo.InvariantCulture));
        }

        return text.ToString();
    }

    /// <summary>
    /// Reads [-]digits[.digits][e(+|-)digits] into the sign, the significant digits s (no leading or trailing
    /// zeros, k of them) and n with |value| = s × 10^(n-k). Anything else, or more than 17 digits, is rejected.
    /// </summary>
    private static bool TryReadText(ReadOnlySpan<char> text, out bool negative, out long s, out int k, out int n)
    {
        s = 0;
        k = 0;
        n = 0;
        int pos = 0;
        negative = text.Length > 0 && text[0] == '-';
        if (negative)
        {
            pos++;
        }

        Span<char> digits = stackalloc char[JsonConstants.NumberBufferLength];
        int count = 0;
        int pointAt = -1;
        for (; pos < text.Length && count < digits.Length; pos++)
        {
            char c = text[pos];
            if (char.IsAsciiDigit(c))
            {
                digits[count++] = c;
            }
            else if (c == '.' && pointAt < 0 && count > 0)
            {
                pointAt = count;
            }
            else
            {
                break;
            }
        }

        if (count == 0 || pointAt == count)
        {
            return false;
        }

        if (pointAt < 0)
        {
            pointAt = count;
        }

        int exponent = 0;
        if (pos < text.Length)
        {
            ReadOnlySpan<char> rest = text[pos..];
            if (rest.Length < 3 || rest.Length > 6 || rest[0] != 'e' || (rest[1] != '+' && rest[1] != '-'))
            {
                return false;
            }

            foreach (char c in rest[2..])
            {
                if (!char.IsAsciiDigit(c))
                {
                    return false;
                }

                exponent = (exponent * 10) + (c - '0');
            }

            if (rest[1] == '-')
            {
                exponent = -exponent;
            }
        }

        int first = 0;
        while (first < count && digits[first] == '0')
        {
            first++;
        }

        int last = count - 1;
        while (last >= first && digits[last] == '0')
        {
            last--;
        }

        k = last - first + 1;
        if (k < 1 || k > MaxDigits)
        {
            return false;
        }

        foreach (char c in digits[first..(last + 1)])
        {
            s = (s * 10) + (c - '0');
        }

        n = pointAt - first + exponent;
        return true;
    }

    /// <summary>
    /// The spec's text by brute force: for k = 1, 2, ... the two k-digit decimals around |x|, nearer (then even)
    /// first, until one rounds back to x. Slow, so only used to say what was expected when a check fails.
    /// </summary>
    private static string ExpectedText(double value)
    {
        if (value == 0)
        {
            return "0";
        }

        double magnitude = Math.Abs(value);

        // d = floor(log10 |x|), settled exactly: floor(|x| / 10^d) is a single non-zero digit.
        int d = (int)Math.Floor(Math.Log10(magnitude));
        BigInteger lead = new ExactDouble(magnitude, d).Quotient;
        while (lead < 1 || lead > 9)
        {
            d += lead < 1 ? -1 : 1;
            lead = new ExactDouble(magnitude, d).Quotient;
        }

        for (int k = 1; k <= MaxDigits; k++)
        {
            int q = d - k + 1;
            var exact = new ExactDouble(magnitude, q);
            long below = (long)exact.Quotient;
            long above = below + 1;
            int compare = BigInteger.Abs(exact.Difference(below)).CompareTo(BigInteger.Abs(exact.Difference(above)));
            bool belowFirst = compare < 0 || (compare == 0 && below % 2 == 0);
            foreach (long c in belowFirst ? new[] { below, above } : new[] { above, below })
            {
                if (!exact.RoundTrips(c))
                {
                    continue;
                }

                long s = c;
                while (s % 10 == 0)
                {
                    s /= 10;
                    q++;
                }

                int digits = s.ToString(CultureInfo.InvariantCulture).Length;
                return SpecLayout(value < 0, s, digits, q + digits);
            }
        }

        return "(no decimal of at most 17 digits round-trips)";
    }

    /// <summary>A 64-bit SplitMix generator: fixed output for a fixed seed on every runtime.</summary>
    private sealed class SplitMix64(ulong seed)
    {
        private ulong _state = seed;

        public ulong Next()
        {
            ulong z = _state += 0x9E3779B97F4A7C15;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            return z ^ (z >> 31);
        }

        public ulong Below(ulong bound) => Next() % bound;

        public int Range(int low, int highInclusive) => low + (int)Below((ulong)(highInclusive - low + 1));

        public bool Coin() => (Next() & 1) != 0;
    }

    /// <summary>
    /// |x| = m × 2^e held exactly, together with its rounding interval, against decimals c × 10^b for one fixed b.
    /// Both sides are scaled to integers: binary quantities by 2^max(e,0) × 10^max(-b,0), decimals by
    /// 10^max(b,0) × 2^max(-e,0).
    /// </summary>
    private readonly struct ExactDouble
    {
        // The value, and the distances to the interval's ends, in the common integer scale.
        private readonly BigInteger _value;
        private readonly BigInteger _up;
        private readonly BigInteger _down;
        private readonly BigInteger _decimalScale;

        // Round-half-even: a decimal exactly on an end of the interval parses to x only when m is even.
        private readonly bool _endsIncluded;

        public ExactDouble(double magnitude, int b)
        {
            ulong bits = BitConverter.DoubleToUInt64Bits(magnitude);
            int biased = (int)(bits >> 52);
            ulong fraction = bits & FractionMask;
            ulong m = biased == 0 ? fraction : fraction | (1UL << 52);

            // Work in quarter units: x = 4m × 2^e, the next double up is 4 units away, the one down 4 units
            // away, or 2 when x is a power of two above the smallest normal (the binade below is twice as fine).
            int e = (biased == 0 ? 1 : biased) - 1075 - 2;
            BigInteger binaryScale = s_pow10[Math.Max(-b, 0)] << Math.Max(e, 0);
            _decimalScale = s_pow10[Math.Max(b, 0)] << Math.Max(-e, 0);
            _value = binaryScale * (4 * m);
            _up = binaryScale * 2;
            _down = fraction == 0 && biased > 1 ? binaryScale : _up;
            _endsIncluded = (m & 1) == 0;
        }

        /// <summary>floor(|x| / 10^b).</summary>
        public BigInteger Quotient => BigInteger.Divide(_value, _decimalScale);

        /// <summary>c × 10^b − |x|, scaled.</summary>
        public BigInteger Difference(long c) => (c * _decimalScale) - _value;

        /// <summary>Whether c × 10^b, rounded to the nearest double (ties to even), is |x|.</summary>
        public bool RoundTrips(long c)
        {
            BigInteger d = Difference(c);
            int above = d.CompareTo(_up);
            int below = (-d).CompareTo(_down);
            return (above < 0 || (above == 0 && _endsIncluded)) && (below < 0 || (below == 0 && _endsIncluded));
        }
    }

    private sealed class Worker
    {
        private readonly char[] _buffer = new char[JsonConstants.NumberBufferLength];

        private readonly byte[] _bytes = new byte[JsonConstants.NumberBufferLength];

        public long FailureCount { get; private set; }

        public long CloserNeighbourNotRoundTripping { get; private set; }

        public long TiesToEven { get; private set; }

        public List<(int Index, string Message)> Failures { get; } = [];

        public void Check(int index, double value)
        {
            int length = NumberFormatter.Format(value, _buffer);
            string text = new(_buffer, 0, length);
            string? problem = Problem(value, text);

            // The same text as UTF-8.
            int byteLength = NumberFormatter.Format(value, _bytes);
            if (problem is null && !Encoding.UTF8.GetString(_bytes, 0, byteLength).Equals(text, StringComparison.Ordinal))
            {
                problem = "the UTF-8 bytes are not the chars' text";
            }

            // (5) on a sample, the brute-force text must agree too (checks 1-4 already pin the text down).
            if (problem is null && index % BruteForceSampleStride == 0 && ExpectedText(value) != text)
            {
                problem = "checks 1-4 pass but the brute-force oracle writes something else";
            }

            if (problem is null)
            {
                return;
            }

            FailureCount++;
            if (Failures.Count < MaxReportedFailures)
            {
                string message = string.Create(
                    CultureInfo.InvariantCulture,
                    $"bits 0x{BitConverter.DoubleToUInt64Bits(value):X16} (≈{value:E16}) written \"{text}\", expected \"{ExpectedText(value)}\": {problem}");
                Failures.Add((index, message));
            }
        }

        private string? Problem(double value, string text)
        {
            if (value == 0)
            {
                return text == "0" ? null : "zero must be written \"0\"";
            }

            // (1) layout: the digits and exponent the text carries, laid out per the spec, must be the text itself.
            if (!TryReadText(text, out bool negative, out long s, out int k, out int n))
            {
                return "not of the form [-]digits[.digits][e±digits] with at most 17 significant digits";
            }

            if (negative != value < 0)
            {
                return "wrong sign";
            }

            string laidOut = SpecLayout(negative, s, k, n);
            if (laidOut != text)
            {
                return Say($"s={s}, k={k}, n={n} is laid out \"{laidOut}\"");
            }

            // (2) round trip, with the BCL's parser and exactly.
            double parsed = double.Parse(text, NumberStyles.Float, CultureInfo.InvariantCulture);
            if (BitConverter.DoubleToUInt64Bits(parsed) != BitConverter.DoubleToUInt64Bits(value))
            {
                return Say($"parses back to bits 0x{BitConverter.DoubleToUInt64Bits(parsed):X16}");
            }

            // All decimals below are c × 10^(n-k-1): s itself is 10s, a k-1 digit candidate t is 100t.
            int q = n - k;
            if (q - 1 < -MaxPow10 || q + 1 > MaxPow10)
            {
                return "exponent out of range";
            }

            double magnitude = Math.Abs(value);
            var exact = new ExactDouble(magnitude, q - 1);
            if (!exact.RoundTrips(s * 10))
            {
                return "exact arithmetic says s × 10^(n-k) does not round to the value";
            }

            // (3) shortest: the k-1 digit neighbours just below and just above must not round-trip.
            if (k > 1)
            {
                long truncated = s / 10;
                foreach (long t in new[] { truncated, truncated + 1 })
                {
                    string candidate = string.Create(CultureInfo.InvariantCulture, $"{t}e{q + 1}");
                    if (exact.RoundTrips(t * 100) ||
                        double.Parse(candidate, NumberStyles.Float, CultureInfo.InvariantCulture) == magnitude)
                    {
                        return Say($"not shortest: {candidate} ({k - 1} digits) also round-trips");
                    }
                }
            }

            // (4) closest: a k-digit neighbour nearer to the value must not round-trip, nor one as near when s is odd
            // (ties go to the even digit). When s is 1 (so k = 1) the neighbour below is 9 at the next lower exponent.
            BigInteger distance = BigInteger.Abs(exact.Difference(s * 10));
            long lower = s == 1 ? 9 : (s - 1) * 10;
            long upper = (s + 1) * 10;
            foreach (long c in new[] { lower, upper })
            {
                int compare = BigInteger.Abs(exact.Difference(c)).CompareTo(distance);
                if (compare > 0)
                {
                    continue;
                }

                if (!exact.RoundTrips(c))
                {
                    if (compare < 0)
                    {
                        CloserNeighbourNotRoundTripping++;
                    }

                    continue;
                }

                if (compare < 0)
                {
                    return Say($"not closest: {Neighbour(c, q)} also round-trips and is nearer to the value");
                }

                if (s % 2 != 0)
                {
                    return Say($"tie: {Neighbour(c, q)} is as near and round-trips, and the spec picks the even one");
                }

                TiesToEven++;
            }

            return null;
        }

        // A neighbour c × 10^(q-1) as k-digit text.
        private static string Neighbour(long c, int q) => c % 10 == 0 ? Say($"{c / 10}e{q}") : Say($"{c}e{q - 1}");

        private static string Say(FormattableString message) => message.ToString(CultureInfo.InvariantCulture);
    }
}

/// <summary>A fact that runs only where the formatter makes digits with AVX-512 VBMI: skipped elsewhere.</summary>
public sealed class WideDigitsFactAttribute : FactAttribute
{
    public WideDigitsFactAttribute()
    {
        if (!NumberFormatter.HasWideDigits)
        {
            Skip = "The processor lacks AVX-512 VBMI, or the runtime does not use 512-bit vectors.";
        }
    }
}
