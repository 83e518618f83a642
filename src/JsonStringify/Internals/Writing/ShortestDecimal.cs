using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

/// <summary>
/// The shortest decimal that rounds to a double, and of those the closest to it (the even one on a tie): the digits
/// Number::toString needs. This is Junekey Jeon's Dragonbox ("Dragonbox: A New Floating-Point Binary-to-Decimal
/// Conversion Algorithm", 2020), written from the paper, for round-to-nearest-even: one multiplication of 64 by 128
/// bits against a power of ten gives the upper end of the rounding interval, scaled so that the interval is 10^κ to
/// 10^(κ+1) wide. A multiple of 10^κ = 100 always lies in it; where a multiple of 10^(κ+1) = 1,000 does too (found
/// with a division by 1,000), that is the shorter decimal, and its trailing zeros come off; otherwise the multiple of
/// 100 closest to the value is the answer. The table of powers of ten is data (ShortestDecimal.PowersOfTen.cs),
/// which a test recomputes exactly with BigInteger.
/// </summary>
internal static partial class ShortestDecimal
{
    private const int SignificandBits = 52;           // stored significand bits; the hidden one makes 53
    private const ulong HiddenBit = 1UL << SignificandBits;
    private const ulong FractionMask = HiddenBit - 1;
    private const int BiasedExponentMask = 0x7FF;
    private const int ExponentBias = 1075;            // a normal double is (2^52 + fraction) × 2^(biased - 1075)
    private const int SubnormalExponent = -1074;      // a subnormal one is fraction × 2^-1074

    // κ: the scaled interval is 10^κ to 10^(κ+1) wide, so it holds a multiple of 10^κ and may hold one of 10^(κ+1).
    private const int Kappa = 2;
    private const uint BigDivisor = 1000;
    private const uint SmallDivisor = 100;

    /// <summary>The least k of the powers of ten 10^k that the exponents of doubles need.</summary>
    internal const int MinK = -292;

    /// <summary>The greatest k of the powers of ten 10^k that the exponents of doubles need.</summary>
    internal const int MaxK = 326;

    // PowersOfTen copied once into an array (microseconds), which optimised code reads at a fixed address: the form the
    // hot path was measured with.
    private static readonly ulong[] s_powersOfTen = PowersOfTen.ToArray();

    // 5^-k modulo 2^64 for the trailing-zero steps.
    private static readonly ulong s_inverseFivePow1 = InverseModulo2Pow64(5);
    private static readonly ulong s_inverseFivePow2 = InverseModulo2Pow64(25);
    private static readonly ulong s_inverseFivePow4 = InverseModulo2Pow64(625);
    private static readonly ulong s_inverseFivePow8 = InverseModulo2Pow64(390_625);

    /// <summary>
    /// For a finite, positive <paramref name="value"/>: the digits (without trailing zeros) and the exponent such
    /// that digits × 10^exponent is the decimal Number::toString writes.
    /// </summary>
    public static (ulong Digits, int Exponent) Compute(double value)
    {
        Debug.Assert(double.IsFinite(value) && value > 0, "a finite, positive double");
        ulong bits = BitConverter.DoubleToUInt64Bits(value);
        int biasedExponent = (int)(bits >> SignificandBits) & BiasedExponentMask;
        ulong fraction = bits & FractionMask;
        if (biasedExponent == 0)
        {
            return Regular(fraction, SubnormalExponent);
        }

        // At a power of two the gap to the double below is half the gap above, except at the smallest normal, below
        // which the subnormals are as far apart as the normals above.
        return fraction == 0 && biasedExponent > 1
            ? PowerOfTwo(biasedExponent - ExponentBias)
            : Regular(HiddenBit | fraction, biasedExponent - ExponentBias);
    }

    // fc × 2^e, whose rounding interval reaches halfway to each neighbour, and includes its ends when fc is even
    // (round-half-even would round them to this double).
    private static (ulong Digits, int Exponent) Regular(ulong fc, int e)
    {
        bool endsIncluded = (fc & 1) == 0;
        ulong twoFc = fc << 1;

        // k = -minusK puts 10^k × 2^e in [10^κ, 10^(κ+1)): scaled by 10^k, the interval's ends have some 18 digits
        // before the point, and the interval is 10^κ to 10^(κ+1) wide.
        int minusK = FloorLog10Pow2(e) - Kappa;
        int k = -minusK;
        ulong high = s_powersOfTen[2 * (k - MinK)];
        ulong low = s_powersOfTen[(2 * (k - MinK)) + 1];
        int beta = e + FloorLog2Pow10(k);

        // zi: the upper end (2fc + 1) × 2^(e-1) × 10^k, rounded down, and whether it is an integer; deltai: the
        // interval's width 2^e × 10^k, rounded down.
        uint deltai = (uint)(high >> (63 - beta));
        Debug.Assert(deltai >= SmallDivisor && deltai < BigDivisor, "the width is between 10^κ and 10^(κ+1)");
        (ulong zi, bool ziIsInteger) = MultiplyUpper((twoFc | 1) << beta, high, low);

        // Two digits shorter: the multiple of 1,000 at or below zi, if it lies in the interval.
        ulong significand = zi / BigDivisor;
        uint r = (uint)(zi - (significand * BigDivisor));
        if (r < deltai)
        {
            // It is in unless it is the upper end itself, which the interval leaves out.
            if (r != 0 || !ziIsInteger || endsIncluded)
            {
                return WithoutTrailingZeros(significand, minusK + Kappa + 1);
            }

            significand--;
            r = BigDivisor;
        }
        else if (r == deltai)
        {
            // Exactly as far below zi as the lower end, up to the fractional parts: compare those, through the parity
            // and integrality of the lower end (2fc - 1) × 2^(e-1) × 10^k.
            (bool xParity, bool xIsInteger) = MultiplyParity(twoFc - 1, high, low, beta);
            if (xParity || (xIsInteger && endsIncluded))
            {
                return WithoutTrailingZeros(significand, minusK + Kappa + 1);
            }
        }

        // One digit longer: the multiple of 100 below zi closest to the value itself, fc × 2^e × 10^k, found from
        // zi's distance to it (half the width, deltai / 2), then corrected where that rounding may be off by one.
        significand *= 10;
        uint distance = r - (deltai / 2) + (SmallDivisor / 2);
        bool approximateParity = ((distance ^ (SmallDivisor / 2)) & 1) != 0;
        uint steps = distance / SmallDivisor;
        significand += steps;
        if (steps * SmallDivisor == distance)
        {
            // The value's fractional part decides between this and the one below; on a tie, the even one.
            (bool yParity, bool yIsInteger) = MultiplyParity(twoFc, high, low, beta);
            if (yParity != approximateParity || ((significand & 1) != 0 && yIsInteger))
            {
                significand--;
            }
        }

        Debug.Assert(significand % 10 != 0, "a decimal one digit longer than the shortest ends in a digit other than 0");
        return (significand, minusK + Kappa);
    }

    // 2^52 × 2^e, a power of two above the smallest normal: the interval reaches a quarter of the way down (the
    // binade below is twice as fine) and half of the way up, both ends included (2^52 is even).
    private static (ulong Digits, int Exponent) PowerOfTwo(int e)
    {
        int minusK = FloorLog10ThreeQuartersPow2(e);
        int k = -minusK;
        ulong high = s_powersOfTen[2 * (k - MinK)];
        int beta = e + FloorLog2Pow10(k);
        int shift = 64 - SignificandBits - 1 - beta;

        // The ends (1 - 2^-54) × 2^52 × 2^e × 10^k and (1 + 2^-53) × 2^52 × 2^e × 10^k, rounded down. The lower end
        // is an integer only for e of 2 and 3; for every other e, the least integer in the interval is the one above.
        ulong xi = (high - (high >> (SignificandBits + 2))) >> shift;
        ulong zi = (high + (high >> (SignificandBits + 1))) >> shift;
        if (e is < 2 or > 3)
        {
            xi++;
        }

        // One digit shorter than zi, if it is in the interval.
        ulong significand = zi / 10;
        if (significand * 10 >= xi)
        {
            return WithoutTrailingZeros(significand, minusK + 1);
        }

        // Otherwise the value itself, 2^52 × 2^e × 10^k, rounded to the nearest integer: a tie occurs only for e of
        // -77, where the even neighbour is taken; a value rounded below the interval moves up into it.
        significand = ((high >> (shift - 1)) + 1) / 2;
        if (e == -77 && (significand & 1) != 0)
        {
            significand--;
        }
        else if (significand < xi)
        {
            significand++;
        }

        Debug.Assert(significand % 10 != 0, "a decimal one digit longer than the shortest ends in a digit other than 0");
        return (significand, minusK);
    }

    // The upper 128 bits of the 192-bit product x × (high × 2^64 + low): their top 64 bits, and whether the rest of
    // them is zero (the product of the interval's end and 10^k, and whether it is an integer).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Integer, bool IsInteger) MultiplyUpper(ulong x, ulong high, ulong low)
    {
        ulong middle = (x * high) + MultiplyHigh(x, low);
        ulong carry = middle < x * high ? 1UL : 0;
        return (MultiplyHigh(x, high) + carry, middle == 0);
    }

    // Of the lower 128 bits of the 192-bit product x × (high × 2^64 + low), shifted right by 128 - beta bits: the
    // lowest bit of the integer part (its parity), and whether the fractional part below it is zero.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (bool Parity, bool IsInteger) MultiplyParity(ulong x, ulong high, ulong low, int beta)
    {
        ulong lowerHigh = (x * high) + MultiplyHigh(x, low);
        ulong lowerLow = x * low;
        return (((lowerHigh >> (64 - beta)) & 1) != 0, ((lowerHigh << beta) | (lowerLow >> (64 - beta))) == 0);
    }

    // The upper 64 bits of a × b. Math.BigMul hands back the lower half through memory on x64; these products need
    // only the upper one, or take the lower one as a plain multiplication, so both stay in registers.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MultiplyHigh(ulong a, ulong b) =>
        Bmi2.X64.IsSupported ? Bmi2.X64.MultiplyNoFlags(a, b) : Math.BigMul(a, b, out _);

    // d × 10^exponent with d's trailing zeros moved into the exponent. d is below 2^63 / 1,000 (the upper end of the
    // interval fits in 63 bits), so below 10^16, and has at most 15 trailing zeros: steps of 8, 4, 2 and 1 find them.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Digits, int Exponent) WithoutTrailingZeros(ulong d, int exponent)
    {
        Debug.Assert(d is > 0 and < 10_000_000_000_000_000, "a significand of at most 16 digits");
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
    // because a one bit below 2^k rotates to the top or because 5^k does not divide d / 2^k.
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

    // floor(e × log10(2)), exact for |e| ≤ 5456721.
    private static int FloorLog10Pow2(int e) => (int)((e * 661_971_961_083L) >> 41);

    // floor(log10(3/4 × 2^e)).
    private static int FloorLog10ThreeQuartersPow2(int e) => (int)(((e * 661_971_961_083L) - 274_743_187_321L) >> 41);

    /// <summary>floor(k × log2(10)), exact for k in [MinK, MaxK] (a test checks every one).</summary>
    internal static int FloorLog2Pow10(int k) => (int)((k * 913_124_641_741L) >> 38);
}
