using System.Numerics;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>
/// The shortest decimal that rounds to a double, and of those the closest to it: the digits Number::toString
/// needs. This is Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render doubles", 2020), written
/// from the paper: one 128-bit multiplication per bound against a power of ten, with round-to-odd, and no loops
/// over digits. The table of powers of ten is computed once, exactly, with BigInteger.
/// </summary>
internal static class ShortestDecimal
{
    private const int Precision = 53;                 // significand bits, the hidden one included
    private const int MinExponent = -1074;            // Q_MIN: the exponent of the smallest subnormal
    private const ulong HiddenBit = 1UL << (Precision - 1);
    private const ulong FractionMask = HiddenBit - 1;
    private const int BiasedExponentMask = 0x7FF;
    private const long Mask63 = long.MaxValue;
    private const int MinK = -324;                    // floor(log10(2^MinExponent))
    private const int MaxK = 292;                     // floor(log10(2^971))

    // g(k) = floor(10^-k × 2^-r) + 1 with r = floor(log2(10^-k)) - 125, split into two 63-bit halves.
    private static readonly long[] s_g = CreateTable();

    /// <summary>
    /// For a finite, positive <paramref name="value"/>: the digits (without trailing zeros) and the exponent such
    /// that digits × 10^exponent is the decimal Number::toString writes.
    /// </summary>
    public static (ulong Digits, int Exponent) Compute(double value)
    {
        ulong bits = BitConverter.DoubleToUInt64Bits(value);
        int biasedExponent = (int)(bits >> (Precision - 1)) & BiasedExponentMask;
        long fraction = (long)(bits & FractionMask);
        (long digits, int exponent) = biasedExponent != 0
            ? Normal(biasedExponent, fraction)
            : ToDecimal(MinExponent, fraction, 0);
        ulong d = (ulong)digits;
        while (d % 10 == 0)
        {
            d /= 10;
            exponent++;
        }

        return (d, exponent);
    }

    private static (long Digits, int Exponent) Normal(int biasedExponent, long fraction)
    {
        long c = (long)HiddenBit | fraction;
        int shift = -MinExponent + 1 - biasedExponent;

        // An integer below 2^53 is its own shortest decimal.
        if (shift > 0 && shift < Precision)
        {
            long integer = c >> shift;
            if (integer << shift == c)
            {
                return (integer, 0);
            }
        }

        return ToDecimal(-shift, c, 0);
    }

    private static (long Digits, int Exponent) ToDecimal(int q, long c, int dk)
    {
        // The value is c × 2^q; its rounding interval is [cbl, cbr] / 4 × 2^q, closed when c is even.
        int outside = (int)c & 1;
        long cb = c << 2;
        long cbr = cb + 2;
        long cbl;
        int k;
        if (c != (long)HiddenBit || q == MinExponent)
        {
            cbl = cb - 2;
            k = FloorLog10Pow2(q);
        }
        else
        {
            // At a power of two the gap below is half the gap above.
            cbl = cb - 1;
            k = FloorLog10ThreeQuartersPow2(q);
        }

        int h = q + FloorLog2Pow10(-k) + 2;
        long g1 = s_g[2 * (k - MinK)];
        long g0 = s_g[(2 * (k - MinK)) + 1];
        long vb = RoundToOdd(g1, g0, cb << h);
        long vbl = RoundToOdd(g1, g0, cbl << h);
        long vbr = RoundToOdd(g1, g0, cbr << h);

        long s = vb >> 2;
        if (s >= 10)
        {
            // Try one digit fewer: the multiples of ten around s. (The paper needs s >= 100 only because it scales tiny
            // subnormals by ten to keep two digits; the spec wants the shortest, so they go in unscaled.)
            long sp10 = 10 * (s / 10);
            long tp10 = sp10 + 10;
            bool lowerIn = vbl + outside <= sp10 << 2;
            bool upperIn = (tp10 << 2) + outside <= vbr;
            if (lowerIn != upperIn)
            {
                return (lowerIn ? sp10 : tp10, k);
            }
        }

        long t = s + 1;
        bool sIn = vbl + outside <= s << 2;
        bool tIn = (t << 2) + outside <= vbr;
        if (sIn != tIn)
        {
            return (sIn ? s : t, k + dk);
        }

        // Both or neither are in: take the closer, and the even one on a tie.
        long cmp = vb - ((s + t) << 1);
        return (cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t, k + dk);
    }

    // The top 64 bits of g × cp / 2^64, where g = g1 × 2^63 + g0, rounded to odd.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static long RoundToOdd(long g1, long g0, long cp)
    {
        long x1 = (long)Math.BigMul((ulong)g0, (ulong)cp, out _);
        ulong y1 = Math.BigMul((ulong)g1, (ulong)cp, out ulong y0);
        long z = (long)(y0 >> 1) + x1;
        long vbp = (long)y1 + (long)((ulong)z >> 63);
        return vbp | (long)((ulong)((z & Mask63) + Mask63) >> 63);
    }

    // floor(q × log10(2)), exact for |q| ≤ 5456721.
    private static int FloorLog10Pow2(int q) => (int)((q * 661_971_961_083L) >> 41);

    // floor(log10(3/4 × 2^q)).
    private static int FloorLog10ThreeQuartersPow2(int q) => (int)(((q * 661_971_961_083L) - 274_743_187_321L) >> 41);

    // floor(e × log2(10)).
    private static int FloorLog2Pow10(int e) => (int)((e * 913_124_641_741L) >> 38);

    private static long[] CreateTable()
    {
        var table = new long[2 * (MaxK - MinK + 1)];
        for (int k = MinK; k <= MaxK; k++)
        {
            int r = FloorLog2Pow10(-k) - 125;
            BigInteger g;
            if (k <= 0)
            {
                BigInteger power = BigInteger.Pow(10, -k);
                g = r >= 0 ? power >> r : power << -r;
            }
            else
            {
                g = (BigInteger.One << -r) / BigInteger.Pow(10, k);
            }

            g += 1;
            table[2 * (k - MinK)] = (long)(g >> 63);
            table[(2 * (k - MinK)) + 1] = (long)(g & Mask63);
        }

        return table;
    }
}
