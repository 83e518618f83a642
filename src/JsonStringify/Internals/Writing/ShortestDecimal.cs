using System.Diagnostics;
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

    // 5^-k modulo 2^64 for the trailing-zero steps of Compute.
    private static readonly ulong s_inverseFivePow1 = InverseModulo2Pow64(5);
    private static readonly ulong s_inverseFivePow2 = InverseModulo2Pow64(25);
    private static readonly ulong s_inverseFivePow4 = InverseModulo2Pow64(625);
    private static readonly ulong s_inverseFivePow8 = InverseModulo2Pow64(390_625);
    private static readonly ulong s_inverseFivePow16 = InverseModulo2Pow64(152_587_890_625);

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
        exponent += RemoveTrailingZeros(ref d, 16, s_inverseFivePow16, ulong.MaxValue / 10_000_000_000_000_000);
        exponent += RemoveTrailingZeros(ref d, 8, s_inverseFivePow8, ulong.MaxValue / 100_000_000);
        exponent += RemoveTrailingZeros(ref d, 4, s_inverseFivePow4, ulong.MaxValue / 10_000);
        exponent += RemoveTrailingZeros(ref d, 2, s_inverseFivePow2, ulong.MaxValue / 100);
        exponent += RemoveTrailingZeros(ref d, 1, s_inverseFivePow1, ulong.MaxValue / 10);
        Debug.Assert(d % 10 != 0, "every trailing zero is gone");
        return (d, exponent);
    }

    // Divides d by 10^k and returns k when 10^k divides it, else returns 0: an exact-division test with one
    // multiplication and no division (Granlund and Montgomery, "Division by invariant integers using
    // multiplication", 1994, section 9). With inverse = 5^-k mod 2^64, d × inverse has d's trailing zero bits, and
    // once rotated right by k it is d / 10^k when 10^k divides d; otherwise it exceeds (2^64 - 1) / 10^k, either
    // because a one bit below 2^k rotates to the top or because 5^k does not divide d / 2^k. Five steps of
    // 16, 8, 4, 2 and 1 strip up to 31 zeros, more than a 19-digit d can have.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int RemoveTrailingZeros(ref ulong d, int k, ulong inverse, ulong limit)
    {
        // Written as selects, not a branch: how many zeros a number ends in is as good as random, so a branch per step
        // would be mispredicted often.
        ulong quotient = BitOperations.RotateRight(d * inverse, k);
        bool divisible = quotient <= limit;
        d = divisible ? quotient : d;
        return divisible ? k : 0;
    }

    // 5^-k modulo 2^64, by Newton's iteration x ← x(2 - ax): an odd a is its own inverse modulo 8, and each step
    // doubles the number of correct low bits (3, 6, 12, 24, 48, 96).
    private static ulong InverseModulo2Pow64(ulong a)
    {
        ulong x = a;
        for (int i = 0; i < 5; i++)
        {
            x *= 2 - (a * x);
        }

        Debug.Assert(a * x == 1, "x is the inverse of a");
        return x;
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
        // The UInt128 forms keep both halves in registers; the out-parameter forms go through the stack.
        long x1 = (long)(ulong)(Math.BigMul((ulong)g0, (ulong)cp) >> 64);
        UInt128 y = Math.BigMul((ulong)g1, (ulong)cp);
        ulong y1 = (ulong)(y >> 64);
        ulong y0 = (ulong)y;
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
