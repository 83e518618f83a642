using System.Globalization;

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

    // The layout is written to the front of the buffer; the BCL's shortest digits go to the back half first.
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
            ((long)value).TryFormat(buffer, out int written, default, CultureInfo.InvariantCulture);
            return written;
        }

        return FormatShortest(value, buffer);
    }

    private static int FormatShortest(double value, Span<char> buffer)
    {
        // "R" gives the shortest digits that round-trip, as [-]d[.ddd][E±dd]; only the layout differs from the spec.
        // .NET 10's "R" is wrong for some exact powers of two (2^-25 gives 2.980232238769531e-8, which parses to the
        // double below), so those take a slower search that checks its answer.
        Span<char> scratch = buffer[ScratchOffset..];
        int length = IsPowerOfTwo(value)
            ? FormatPowerOfTwo(value, scratch)
            : value.TryFormat(scratch, out int written, "R", CultureInfo.InvariantCulture) ? written : 0;
        scratch = scratch[..length];

        int pos = 0;
        bool negative = scratch[0] == '-';
        if (negative)
        {
            pos++;
        }

        // Collect the significant digits (k of them) and the decimal exponent n, so that value = 0.d1d2..dk × 10^n.
        Span<char> digits = stackalloc char[24];
        int k = 0;
        int intDigits = 0;
        bool seenPoint = false;
        int leadingZeros = 0;
        for (; pos < scratch.Length; pos++)
        {
            char c = scratch[pos];
            if (c == '.')
            {
                seenPoint = true;
                continue;
            }

            if (c is 'E' or 'e')
            {
                break;
            }

            if (k == 0 && c == '0')
            {
                if (!seenPoint)
                {
                    continue;
                }

                leadingZeros++;
                continue;
            }

            digits[k++] = c;
            if (!seenPoint)
            {
                intDigits++;
            }
        }

        int exponent = 0;
        if (pos < scratch.Length)
        {
            exponent = int.Parse(scratch[(pos + 1)..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
        }

        while (k > 1 && digits[k - 1] == '0')
        {
            k--;
        }

        int n = (intDigits > 0 ? intDigits : -leadingZeros) + exponent;
        return Layout(negative, digits[..k], n, buffer);
    }

    private static bool IsPowerOfTwo(double value) => (BitConverter.DoubleToInt64Bits(value) & 0x000F_FFFF_FFFF_FFFFL) == 0;

    // The shortest digits that round-trip, closest to the value: for each digit count p, the correctly rounded p-digit
    // decimal, or else its neighbour on either side (a power of two has a narrower gap below than above, so the
    // nearest decimal can miss while the next one up hits). Writes them as [-]d.ddd…E±x.
    private static int FormatPowerOfTwo(double value, Span<char> destination)
    {
        Span<char> rounded = stackalloc char[32];
        Span<char> candidate = stackalloc char[32];
        for (int precision = 1; precision <= 17; precision++)
        {
            value.TryFormat(rounded, out int length, "E" + (precision - 1).ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);
            ReadOnlySpan<char> text = rounded[..length];
            int e = text.IndexOf('E');
            bool negative = text[0] == '-';
            long digits = long.Parse(text[(negative ? 1 : 0)..e].ToString().Replace(".", string.Empty, StringComparison.Ordinal), CultureInfo.InvariantCulture);
            int exponent = int.Parse(text[(e + 1)..], NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture) - (precision - 1);
            foreach (long tryDigits in (ReadOnlySpan<long>)[digits, digits + 1, digits - 1])
            {
                int candidateLength = WriteCandidate(negative, tryDigits, exponent, candidate);
                if (double.Parse(candidate[..candidateLength], NumberStyles.Float, CultureInfo.InvariantCulture) == value)
                {
                    candidate[..candidateLength].CopyTo(destination);
                    return candidateLength;
                }
            }
        }

        return value.TryFormat(destination, out int fallback, "R", CultureInfo.InvariantCulture) ? fallback : 0;
    }

    private static int WriteCandidate(bool negative, long digits, int exponent, Span<char> destination)
    {
        int w = 0;
        if (negative)
        {
            destination[w++] = '-';
        }

        digits.TryFormat(destination[w..], out int digitCount, default, CultureInfo.InvariantCulture);
        w += digitCount;
        destination[w++] = 'E';
        exponent.TryFormat(destination[w..], out int exponentLength, default, CultureInfo.InvariantCulture);
        return w + exponentLength;
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
