using System.Globalization;
using System.Numerics;

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

    // The layout is written to the front of the buffer; the digits go to the back half first.
    private const int ScratchOffset = JsonConstants.NumberBufferLength / 2;

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

        if (Math.Abs(value) < MaxExactInteger && Math.Floor(value) == value)
        {
            return FormatInteger((long)value, buffer);
        }

        return FormatShortest(value, buffer);
    }

    // Two digits per step, from a table, right to left; 32-bit division while the value fits.
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
        ReadOnlySpan<char> pairs = DigitPairs;
        int i = length;
        if (value <= uint.MaxValue)
        {
            uint small = (uint)value;
            while (small >= 100)
            {
                uint quotient = small / 100;
                int pair = (int)(small - (quotient * 100)) * 2;
                small = quotient;
                i -= 2;
                buffer[i + 1] = pairs[pair + 1];
                buffer[i] = pairs[pair];
            }

            value = small;
        }
        else
        {
            while (value >= 100)
            {
                ulong quotient = value / 100;
                int pair = (int)(value - (quotient * 100)) * 2;
                value = quotient;
                i -= 2;
                buffer[i + 1] = pairs[pair + 1];
                buffer[i] = pairs[pair];
            }
        }

        // One or two leading digits are left, and i is their count.
        if (value >= 10)
        {
            buffer[1] = pairs[((int)value * 2) + 1];
            buffer[0] = pairs[(int)value * 2];
        }
        else
        {
            buffer[0] = (char)('0' + value);
        }

        return length;
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

    private static int FormatShortest(double value, Span<char> buffer)
    {
        (ulong significand, int exponent) = TryThousandths(Math.Abs(value), out ulong n, out int e)
            ? (n, e)
            : ShortestDecimal.Compute(Math.Abs(value));
        Span<char> digits = buffer[ScratchOffset..];
        int k = FormatUnsigned(significand, digits);

        // value = 0.d1d2..dk × 10^n
        return Layout(value < 0, digits[..k], k + exponent, buffer);
    }

    // Prices, measurements and table data are mostly decimals of one to three places. When n / 1000 rounds to the
    // value for an integer n below 10^15, the decimal n × 10^-3 is the answer: no other decimal of 15 significant
    // digits or fewer rounds to the same double, so it is the shortest, and the only one of its length. A multiply,
    // a floor and a division decide it; everything else goes to Schubfach.
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

    private static int Layout(bool negative, ReadOnlySpan<char> digits, int n, Span<char> buffer)
    {
        int k = digits.Length;
        int w = 0;
        if (negative)
        {
            buffer[w++] = '-';
        }

        if (k <= n && n <= MaxPlainExponent)
        {
            digits.CopyTo(buffer[w..]);
            w += k;
            buffer.Slice(w, n - k).Fill('0');
            return w + (n - k);
        }

        if (0 < n && n <= MaxPlainExponent)
        {
            digits[..n].CopyTo(buffer[w..]);
            w += n;
            buffer[w++] = '.';
            digits[n..].CopyTo(buffer[w..]);
            return w + (k - n);
        }

        if (MinPlainExponent < n && n <= 0)
        {
            buffer[w++] = '0';
            buffer[w++] = '.';
            buffer.Slice(w, -n).Fill('0');
            w += -n;
            digits.CopyTo(buffer[w..]);
            return w + k;
        }

        buffer[w++] = digits[0];
        if (k > 1)
        {
            buffer[w++] = '.';
            digits[1..].CopyTo(buffer[w..]);
            w += k - 1;
        }

        int e = n - 1;
        buffer[w++] = 'e';
        buffer[w++] = e < 0 ? '-' : '+';
        Math.Abs(e).TryFormat(buffer[w..], out int expLength, default, CultureInfo.InvariantCulture);
        return w + expLength;
    }
}
