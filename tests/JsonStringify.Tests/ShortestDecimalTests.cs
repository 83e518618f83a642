using System.Numerics;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The data ShortestDecimal runs on: the table of 128-bit powers of ten, recomputed exactly with BigInteger, and the
/// estimate of floor(k × log2(10)) that picks each entry's scale. The digits themselves are checked against the spec's
/// oracle in <see cref="NumberFormattingTests"/>.
/// </summary>
public class ShortestDecimalTests
{
    [Fact]
    public void ThePowersOfTenAreTenToTheKRoundedDown()
    {
        ReadOnlySpan<ulong> table = ShortestDecimal.PowersOfTen;
        Assert.Equal(2 * (ShortestDecimal.MaxK - ShortestDecimal.MinK + 1), table.Length);
        for (int k = ShortestDecimal.MinK; k <= ShortestDecimal.MaxK; k++)
        {
            BigInteger expected = NormalisedPowerOfTen(k, out _);
            var actual = (new BigInteger(table[2 * (k - ShortestDecimal.MinK)]) << 64) | table[(2 * (k - ShortestDecimal.MinK)) + 1];
            Assert.True(expected == actual, $"10^{k}: 0x{actual:X32} in the table, 0x{expected:X32} computed");
        }
    }

    // The power-of-two case (Dragonbox's) reads only the high word, and its analysis takes the power rounded up: the
    // two agree wherever rounding up does not carry into the high word.
    [Fact]
    public void EveryHighWordIsAlsoThatOfThePowerRoundedUp()
    {
        for (int k = ShortestDecimal.MinK; k <= ShortestDecimal.MaxK; k++)
        {
            BigInteger roundedDown = NormalisedPowerOfTen(k, out bool exact);
            BigInteger roundedUp = exact ? roundedDown : roundedDown + 1;
            Assert.True(roundedDown >> 64 == roundedUp >> 64, $"10^{k}: rounding up carries into the high word");
        }
    }

    [Fact]
    public void TheLogarithmEstimateIsExactForEveryPower()
    {
        for (int k = ShortestDecimal.MinK; k <= ShortestDecimal.MaxK; k++)
        {
            Assert.Equal(FloorLog2PowerOfTen(k), ShortestDecimal.FloorLog2Pow10(k));
        }
    }

    // floor(10^k × 2^(127 - floor(log2(10^k)))): 10^k's leading 128 bits, and whether they are all of it.
    private static BigInteger NormalisedPowerOfTen(int k, out bool exact)
    {
        BigInteger power = BigInteger.Pow(10, Math.Abs(k));
        int shift = 127 - FloorLog2PowerOfTen(k);
        BigInteger numerator = k >= 0 ? power : BigInteger.One;
        BigInteger denominator = k >= 0 ? BigInteger.One : power;
        numerator = shift >= 0 ? numerator << shift : numerator;
        denominator = shift >= 0 ? denominator : denominator << -shift;
        BigInteger quotient = BigInteger.DivRem(numerator, denominator, out BigInteger remainder);
        exact = remainder.IsZero;
        Assert.Equal(128, (int)quotient.GetBitLength());
        return quotient;
    }

    // floor(log2(10^k)) exactly: the bit length of 10^k less one for k ≥ 0; for k < 0, minus the bit length of
    // 10^-k, which is no power of two.
    private static int FloorLog2PowerOfTen(int k)
    {
        int bitLength = (int)BigInteger.Pow(10, Math.Abs(k)).GetBitLength();
        return k >= 0 ? bitLength - 1 : -bitLength;
    }
}
