using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace JsonStringify.Internals;

/// <summary>ECMA-262 Number::toString(x, 10) for finite doubles, written into a caller's small buffer.</summary>
internal static class NumberFormatter
{
    // Integers below 2^53 are exact, so their plain digits are already the shortest round-trip form.
    private const double MaxExactInteger = 9007199254740992d;

    // Number::toString writes plain decimals while the decimal exponent n is at most 21 (1e21 and up use e-notation).
    private const int MaxPlainExponent = 21;

    // ... and from n > -6, i.e. 1e-6 is "0.000001" while 1e-7 is "1e-7".
    private const int MinPlainExponent = -6;

    /// <summary>
    /// Writes the text of a finite <paramref name="value"/> into <paramref name="buffer"/> (at least
    /// <see cref="JsonConstants.NumberBufferLength"/> chars) and returns its length. -0 is written as 0.
    /// </summary>
    public static int Format(double value, Span<char> buffer)
    {
        if (value == 0)
        {
            buffer[0] = '0';
            return 1;
        }

        if (IsExactInteger(value))
        {
            return FormatInteger((long)value, buffer);
        }

        return FormatShortest(value, buffer);
    }

    /// <summary>
    /// An integer below 2^53 in magnitude: exact, so Number::toString writes its plain digits, as a long is written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsExactInteger(double value) => Math.Abs(value) < MaxExactInteger && Math.Floor(value) == value;

    // Pairs of digits from a table, right to left (see WritePairs); 32-bit division while the value fits.
    private static int FormatInteger(long value, Span<char> buffer)
    {
        if (value < 0)
        {
            buffer[0] = '-';
            return 1 + FormatUnsigned((ulong)-value, buffer[1..]);
        }

        return FormatUnsigned((ulong)value, buffer);
    }

    private static int FormatUnsigned(ulong value, Span<char> buffer)
    {
        if (value < 10)
        {
            buffer[0] = (char)('0' + value);
            return 1;
        }

        int length = CountDigits(value);
        WriteDigits(value, length, buffer);
        return length;
    }

    /// <summary>The whole numbers that <see cref="FormatSmallInteger"/> writes are below this.</summary>
    public const uint SmallIntegerLimit = 10_000;

    /// <summary>The room <see cref="FormatSmallInteger"/> needs.</summary>
    public const int SmallIntegerDigits = 4;

    /// <summary>
    /// Writes a whole number below <see cref="SmallIntegerLimit"/> into <paramref name="buffer"/> (at least
    /// <see cref="SmallIntegerDigits"/> chars) and returns its length: a digit, or pairs of digits copied as one
    /// 32-bit move each, small enough to be inlined where numbers are written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int FormatSmallInteger(uint value, Span<char> buffer)
    {
        Debug.Assert(value < SmallIntegerLimit, "a small whole number");
        if (buffer.Length < SmallIntegerDigits)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        ref char first = ref MemoryMarshal.GetReference(buffer);
        if (value < 10)
        {
            first = (char)('0' + value);
            return 1;
        }

        if (value < 100)
        {
            WritePair(value, ref first);
            return 2;
        }

        uint high = value / 100;
        uint low = value - (high * 100);
        if (value < 1_000)
        {
            first = (char)('0' + high);
            WritePair(low, ref Unsafe.Add(ref first, 1));
            return 3;
        }

        WritePair(high, ref first);
        WritePair(low, ref Unsafe.Add(ref first, 2));
        return 4;
    }

    // The two digits of a pair below 100 at destination, as one 32-bit move.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WritePair(uint pair, ref char destination)
    {
        Debug.Assert(pair < 100, "a pair of digits");
        ref byte pairs = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(DigitPairs));
        uint digits = Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref pairs, (nint)pair * 2 * sizeof(char)));
        Unsafe.WriteUnaligned(ref Unsafe.As<char, byte>(ref destination), digits);
    }

    // Writes the length (its CountDigits) digits of value. Values that fit in 32 bits divide in 32 bits, which is
    // the faster division; the loop is one generic method, compiled separately for each width.
    private static void WriteDigits(ulong value, int length, Span<char> buffer)
    {
        ReadOnlySpan<char> pairs = DigitPairs;
        value = value <= uint.MaxValue
            ? WritePairs((uint)value, length, buffer)
            : WritePairs(value, length, buffer);

        // One or two leading digits are left, for the front of the buffer.
        if (value >= 10)
        {
            buffer[1] = pairs[((int)value * 2) + 1];
            buffer[0] = pairs[(int)value * 2];
        }
        else
        {
            buffer[0] = (char)('0' + value);
        }
    }

    // Writes all but the one or two leading digits of value, right to left from end; returns those leading digits,
    // without bounds checks: end is the value's digit count, which the caller's buffer holds. Four digits come off per
    // division by 10,000, and their two pairs are split apart off that chain, which is half as long as with a division
    // per pair.
    private static T WritePairs<T>(T value, int end, Span<char> buffer)
        where T : IBinaryInteger<T>
    {
        Debug.Assert(end <= buffer.Length, "the buffer holds every digit");
        ref char destination = ref MemoryMarshal.GetReference(buffer);
        T tenThousand = T.CreateTruncating(10_000);
        int i = end;
        while (value >= tenThousand)
        {
            T quotient = value / tenThousand;
            uint four = uint.CreateTruncating(value - (quotient * tenThousand));
            value = quotient;
            i -= 4;
            uint high = four / 100;
            WritePair(high, ref Unsafe.Add(ref destination, i));
            WritePair(four - (high * 100), ref Unsafe.Add(ref destination, i + 2));
        }

        // One to four digits left: of three or four, the last two are written here; the caller writes the one or two
        // before them.
        uint rest = uint.CreateTruncating(value);
        if (rest >= 100)
        {
            uint leading = rest / 100;
            Debug.Assert(i - 2 is 1 or 2, "one or two leading digits are left for the caller");
            WritePair(rest - (leading * 100), ref Unsafe.Add(ref destination, i - 2));
            return T.CreateTruncating(leading);
        }

        Debug.Assert(i is 1 or 2, "one or two leading digits are left for the caller");
        return value;
    }

    // floor(log10(value)) + 1: bits × log10(2) (1233 / 4096) estimates it, one comparison corrects it.
    private static int CountDigits(ulong value)
    {
        int bits = 64 - BitOperations.LeadingZeroCount(value | 1);
        int estimate = (bits * 1233) >> 12;
        return estimate + (value >= PowersOfTen[estimate] ? 1 : 0);
    }

    private static ReadOnlySpan<ulong> PowersOfTen =>
    [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ];

    private static ReadOnlySpan<char> DigitPairs =>
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

    // The shortest digits, then Number::toString's layout of them. The digits are written where they end up, or one
    // place to the right of it when a point or the first digit has to be moved in front of them.
    private static int FormatShortest(double value, Span<char> buffer)
    {
        (ulong significand, int exponent) = TryThousandths(Math.Abs(value), out ulong n, out int e)
            ? (n, e)
            : ShortestDecimal.Compute(Math.Abs(value));
        int w = 0;
        if (value < 0)
        {
            buffer[w++] = '-';
        }

        // value = 0.d1d2..dk × 10^point
        int k = CountDigits(significand);
        int point = k + exponent;
        if (k <= point && point <= MaxPlainExponent)
        {
            // dddd000
            WriteDigits(significand, k, buffer[w..]);
            buffer.Slice(w + k, point - k).Fill('0');
            return w + point;
        }

        if (0 < point && point <= MaxPlainExponent)
        {
            // dd.dddd
            WriteDigits(significand, k, buffer[(w + 1)..]);
            for (int i = 0; i < point; i++)
            {
                buffer[w + i] = buffer[w + i + 1];
            }

            buffer[w + point] = '.';
            return w + k + 1;
        }

        if (MinPlainExponent < point && point <= 0)
        {
            // 0.000dddd
            buffer[w] = '0';
            buffer[w + 1] = '.';
            buffer.Slice(w + 2, -point).Fill('0');
            w += 2 - point;
            WriteDigits(significand, k, buffer[w..]);
            return w + k;
        }

        // d.dddde+x, or de+x
        WriteDigits(significand, k, buffer[(w + 1)..]);
        buffer[w] = buffer[w + 1];
        if (k > 1)
        {
            buffer[w + 1] = '.';
            w += k + 1;
        }
        else
        {
            w++;
        }

        int power = point - 1;
        buffer[w++] = 'e';
        buffer[w++] = power < 0 ? '-' : '+';
        return w + FormatUnsigned((ulong)Math.Abs(power), buffer[w..]);
    }

    // Prices, measurements and table data are mostly decimals of one to three places. When n / 1000 rounds to the
    // value for an integer n below 10^15, the decimal n × 10^-3 is the answer: no other decimal of 15 significant
    // digits or fewer rounds to the same double, so it is the shortest, and the only one of its length. A multiply,
    // a floor and a division decide it, faster than ShortestDecimal on such numbers; everything else goes to
    // ShortestDecimal.
    private static bool TryThousandths(double magnitude, out ulong digits, out int exponent)
    {
        double scaled = magnitude * 1000;
        if (scaled >= 1 && scaled < 1e15 && Math.Floor(scaled) == scaled && scaled / 1000 == magnitude)
        {
            digits = (ulong)scaled;
            exponent = -3;
            while (digits % 10 == 0)
            {
                digits /= 10;
                exponent++;
            }

            return true;
        }

        digits = 0;
        exponent = 0;
        return false;
    }
}
