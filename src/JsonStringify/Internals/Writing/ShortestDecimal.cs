using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

/// <summary>
/// The shortest decimal that rounds to a double, and of those the closest to it (the even one on a tie): the digits
/// Number::toString needs.
/// <para>
/// A double v = m × 2^e that is not a power of two is scaled to c = v × 10^-(d+1), with d = floor(log10(2^e)), so that
/// the gap between neighbouring doubles becomes 2^e × 10^-(d+1), between 0.1 and 1. Its rounding interval, c plus or
/// minus half that gap, then holds at most one whole number. If it holds one, that is the shortest decimal (a shorter
/// one would be a whole number at this scale too), and its trailing zeros come off. If it holds none, the answer has
/// one digit more, and the interval, at least one tenth wide, holds the tenth nearest to c: c rounded to tenths. This
/// is Schubfach's observation (Raffaello Giulietti, 2020) in the form Żmij computes it (Victor Zverovich and others,
/// 2025, after Xiang JunBo's scaling by 10^-(d+1)): one multiplication of 64 by 128 bits gives c in fixed point, with
/// 64 bits of fraction, and half the gap comes from the power's high word. Its constants are Żmij's: the powers of
/// ten rounded down, <see cref="FractionShift"/>, <see cref="TenthsRoundingBias"/> and the test for an exact
/// quarter; its authors verify that with them every double is rounded as exact arithmetic would round it.
/// </para>
/// <para>
/// A power of two has an interval twice as long above as below, and goes through Junekey Jeon's Dragonbox ("Dragonbox:
/// A New Floating-Point Binary-to-Decimal Conversion Algorithm", 2020), written from the paper for that case. Both are
/// checked against exact arithmetic in NumberFormattingTests; the table of powers of ten is data
/// (ShortestDecimal.PowersOfTen.cs), which ShortestDecimalTests recomputes exactly with BigInteger.
/// </para>
/// </summary>
internal static partial class ShortestDecimal
{
    private const int SignificandBits = 52;           // stored significand bits; the hidden one makes 53
    private const ulong HiddenBit = 1UL << SignificandBits;
    private const ulong FractionMask = HiddenBit - 1;
    private const int BiasedExponentMask = 0x7FF;
    private const int ExponentBias = 1075;            // a normal double is (2^52 + fraction) × 2^(biased - 1075)
    private const int SubnormalExponent = -1074;      // a subnormal one is fraction × 2^-1074

    // The upper word of the scaled product holds c × 2^FractionShift: c's whole part above its low FractionShift bits,
    // which, with the lower word's top bits, are c's fraction to 64 bits. m is shifted left by FractionShift - 3 to
    // FractionShift bits for that, and stays below 2^64.
    private const int FractionShift = 9;

    // Added to fraction × 10 before its carry out is taken as the tenth: one half (2^63), so that it is rounded to the
    // nearest, and 6 units of 2^-64 that make up for the product rounded down.
    private const ulong TenthsRoundingBias = (1UL << 63) + 6;

    // A fraction of exactly 0.25: 2.5 tenths, a tie, which goes to the even 2 (0.75 rounds up to the even 8 anyway).
    private const ulong ExactQuarter = 1UL << 62;

    /// <summary>The least k of the powers of ten 10^k that the exponents of doubles need.</summary>
    internal const int MinK = -293;

    /// <summary>The greatest k of the powers of ten 10^k that the exponents of doubles need.</summary>
    internal const int MaxK = 324;

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
    /// that digits × 10^exponent is the decimal Number::toString writes, and how many digits there are.
    /// </summary>
    public static (ulong Digits, int Exponent, int Length) Compute(double value)
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

    // m × 2^e, whose rounding interval reaches halfway to each neighbour, and includes its ends when m is even
    // (round-half-even would round them to this double). Inlined where numbers are formatted, so that the digits and
    // their count stay in registers and the layout's work overlaps this one's, without a call and its frame.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Digits, int Exponent, int Length) Regular(ulong m, int e)
    {
        int d = FloorLog10Pow2(e);
        int k = -(d + 1);
        ulong high = s_powersOfTen[2 * (k - MinK)];
        ulong low = s_powersOfTen[(2 * (k - MinK)) + 1];

        // 10^k is (high, low) × 2^(FloorLog2Pow10(k) - 127), so m shifted left by this much puts c × 2^FractionShift
        // in the upper word of the product's top 128 bits. 10^d ≤ 2^e < 10^(d+1) keeps the shift within 3 of
        // FractionShift.
        int shift = e + FloorLog2Pow10(k) + 1 + FractionShift;
        Debug.Assert(shift is >= FractionShift - 3 and <= FractionShift, "m << shift fits in 64 bits");
        (ulong upper, ulong lower) = MultiplyTop128(m << shift, high, low);
        ulong whole = upper >> FractionShift;
        ulong fraction = (upper << (64 - FractionShift)) | (lower >> FractionShift);

        // Half the gap, 2^(e-1) × 10^k, in units of 2^-64: the power's high word shifted by the same scale, one more
        // where the interval's ends are included.
        ulong halfGap = (high >> (FractionShift + 1 - shift)) + (1 - (m & 1));

        // whole + 1 is in the interval if fraction + halfGap reaches 1 (the sum carries); whole is, if halfGap exceeds
        // fraction. The gap is under 1, so at most one of them is.
        bool nextInInterval = fraction + halfGap < fraction;
        bool wholeInInterval = halfGap > fraction;
        if (nextInInterval | wholeInInterval)
        {
            ulong shortest = whole + (nextInInterval ? 1UL : 0);
            return WithoutTrailingZeros(shortest, d + 1, LengthOfScaled(shortest));
        }

        // No whole number in the interval: c rounded to tenths, the carry out of fraction × 10 plus the bias.
        ulong fractionTimesTen = fraction * 10;
        ulong tenth = MultiplyHigh(fraction, 10) + (fractionTimesTen + TenthsRoundingBias < fractionTimesTen ? 1UL : 0);
        if (fraction == ExactQuarter)
        {
            tenth = 2;
        }

        // A tenth of 0 or 10 would be a whole number within a twentieth of c, which the interval, reaching at least a
        // twentieth either side, would hold.
        Debug.Assert(tenth is >= 1 and <= 9, "the decimal one digit longer ends in a digit other than 0");
        ulong digits = (whole * 10) + tenth;
        return (digits, d, LengthOfScaled(digits));
    }

    // The number of digits of c's whole part, the next whole number or c in tenths: from 15 to 17 where c is at least
    // 10^14, as it is for every normal double (c is at least 0.1 × 2^52), counted by three compares that do not wait
    // on one another; a subnormal's may be shorter, and is counted as any number is.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int LengthOfScaled(ulong digits)
    {
        const ulong fifteenDigits = 100_000_000_000_000;
        if (digits < fifteenDigits)
        {
            return NumberFormatter.CountDigits(digits);
        }

        return 15 + (digits >= fifteenDigits * 10 ? 1 : 0) + (digits >= fifteenDigits * 100 ? 1 : 0);
    }

    // 2^52 × 2^e, a power of two above the smallest normal: the interval reaches a quarter of the way down (the
    // binade below is twice as fine) and half of the way up, both ends included (2^52 is even).
    private static (ulong Digits, int Exponent, int Length) PowerOfTwo(int e)
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
            return WithoutTrailingZeros(significand, minusK + 1, NumberFormatter.CountDigits(significand));
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
        return (significand, minusK, NumberFormatter.CountDigits(significand));
    }

    // The upper 128 bits of the 192-bit product x × (high × 2^64 + low), as their upper and lower words.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Upper, ulong Lower) MultiplyTop128(ulong x, ulong high, ulong low)
    {
        ulong lowerOfHigh = x * high;
        ulong lower = lowerOfHigh + MultiplyHigh(x, low);
        ulong carry = lower < lowerOfHigh ? 1UL : 0;
        return (MultiplyHigh(x, high) + carry, lower);
    }

    // The upper 64 bits of a × b. Math.BigMul hands back the lower half through memory on x64; these products need
    // only the upper one, or take the lower one as a plain multiplication, so both stay in registers.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MultiplyHigh(ulong a, ulong b) =>
        Bmi2.X64.IsSupported ? Bmi2.X64.MultiplyNoFlags(a, b) : Math.BigMul(a, b, out _);

    // d × 10^exponent with d's trailing zeros moved into the exponent, and taken off d's length. d is below 10^16 (a
    // regular double's whole part is below 2^53, a power of two's shorter decimal has 16 digits at most), so it has at
    // most 15 trailing zeros: steps of 8, 4, 2 and 1 find them.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Digits, int Exponent, int Length) WithoutTrailingZeros(ulong d, int exponent, int length)
    {
        Debug.Assert(d is > 0 and < 10_000_000_000_000_000, "a significand of at most 16 digits");
        Debug.Assert(length == NumberFormatter.CountDigits(d), "length is d's number of digits");
        int zeros = RemoveTrailingZeros(ref d, 8, s_inverseFivePow8, ulong.MaxValue / 100_000_000);
        zeros += RemoveTrailingZeros(ref d, 4, s_inverseFivePow4, ulong.MaxValue / 10_000);
        zeros += RemoveTrailingZeros(ref d, 2, s_inverseFivePow2, ulong.MaxValue / 100);
        zeros += RemoveTrailingZeros(ref d, 1, s_inverseFivePow1, ulong.MaxValue / 10);
        Debug.Assert(d % 10 != 0, "every trailing zero is gone");
        return (d, exponent + zeros, length - zeros);
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
