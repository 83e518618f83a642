using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

/// <summary>
/// ECMA-262 Number::toString(x, 10) for finite doubles, written into a caller's small buffer of chars or of UTF-8 bytes
/// (<see cref="TextUnit"/>): the text is ASCII, one unit per char in both.
/// </summary>
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
    /// <see cref="JsonConstants.NumberBufferLength"/> units) and returns its length. -0 is written as 0.
    /// </summary>
    public static int Format<TUnit>(double value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        if (value == 0)
        {
            buffer[0] = TextUnit.Of<TUnit>('0');
            return 1;
        }

        if (IsExactInteger(value))
        {
            return FormatInteger((long)value, buffer);
        }

        return FormatShortest(value, buffer);
    }

    /// <summary>
    /// <paramref name="value"/>'s whole part where it is from 0 to 2^32 - 1; any uint otherwise (NaN, infinities, the
    /// rest), which callers tell apart by comparing it with <paramref name="value"/>: only a whole number in that range
    /// equals its truncation. The processor's own conversion to 64 bits, cut to 32: one instruction on x64, where
    /// <c>(uint)value</c> saturates in five.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Truncate(double value) => (uint)double.ConvertToIntegerNative<long>(value);

    /// <summary>
    /// Writes JSON's text of any number but the whole ones from 0 to 2^32 - 1 (which the writers write by paths of their
    /// own) into <paramref name="buffer"/> (at least <see cref="JsonConstants.NumberBufferLength"/> units) and returns
    /// its length: null where it is not finite. Most are fractions, which the first test sends to the shortest digits,
    /// past the tests for zero and whole numbers.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int FormatOther<TUnit>(double value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        if (buffer.Length < JsonConstants.NumberBufferLength)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        if (!IsExactInteger(value))
        {
            if (double.IsFinite(value))
            {
                return FormatShortest(value, buffer);
            }

            buffer[0] = TextUnit.Of<TUnit>('n');
            buffer[1] = TextUnit.Of<TUnit>('u');
            buffer[2] = TextUnit.Of<TUnit>('l');
            buffer[3] = TextUnit.Of<TUnit>('l');
            return 4;
        }

        // A negative whole number above -2^32 (offsets, deltas, balances, -1 for none): a sign, then its magnitude as a
        // positive one is written.
        double negated = -value;
        uint magnitude = Truncate(negated);
        if (magnitude == negated)
        {
            Debug.Assert(value < 0, "zero and the positive whole numbers below 2^32 are the writers' own");
            buffer[0] = TextUnit.Of<TUnit>('-');
            return 1 + (magnitude < SmallIntegerLimit
                ? FormatSmallInteger(magnitude, buffer[1..])
                : FormatWholeNumber(magnitude, buffer[1..]));
        }

        return Format(value, buffer);
    }

    /// <summary>
    /// An integer below 2^53 in magnitude: exact, so Number::toString writes its plain digits, as a long is written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsExactInteger(double value) => Math.Abs(value) < MaxExactInteger && Math.Floor(value) == value;

    // Pairs of digits from a table, right to left (see WritePairs); 32-bit division while the value fits.
    private static int FormatInteger<TUnit>(long value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        if (value < 0)
        {
            buffer[0] = TextUnit.Of<TUnit>('-');
            return 1 + FormatUnsigned((ulong)-value, buffer[1..]);
        }

        return FormatUnsigned((ulong)value, buffer);
    }

    private static int FormatUnsigned<TUnit>(ulong value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        if (value < 10)
        {
            buffer[0] = TextUnit.Of<TUnit>((char)('0' + value));
            return 1;
        }

        int length = CountDigits(value);
        WriteDigits(value, length, buffer);
        return length;
    }

    private const int EightDigits = 8;

    private const uint EightDigitLimit = 100_000_000;

    // Writes a whole number from 1 to 10^8 - 1 and returns its length: its eight digits with their leading zeros, made
    // by multiplying (DigitBytes), the leading zeros shifted off (they are the low bytes), and stored as eight units,
    // of which those past the digits are '0's that later writes overwrite. The length comes from the value
    // (CountDigits), not from the digits, so that where the next write goes does not wait for the multiplications.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int UpToEightDigits<TUnit>(uint value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        Debug.Assert(value is > 0 and < EightDigitLimit && buffer.Length >= EightDigits, "room for eight digits");
        int length = CountDigits(value);
        ulong text = (DigitBytes(value) >> ((EightDigits - length) * 8)) + DigitChars;
        TextUnit.StoreEight(text, ref MemoryMarshal.GetReference(buffer));
        return length;
    }

    // Added to DigitBytes' digits, byte by byte: '0' to each of the eight.
    private const ulong DigitChars = 0x3030_3030_3030_3030;

    /// <summary>The room <see cref="FormatWholeNumber"/> needs.</summary>
    public const int WholeNumberDigits = 10;

    /// <summary>
    /// Writes a whole number into <paramref name="buffer"/> (at least <see cref="WholeNumberDigits"/> units) and
    /// returns its length: up to eight digits made at once by multiplying (<see cref="UpToEightDigits"/>); nine or ten
    /// (timestamps in seconds, ids) as their one or two leading digits and then eight made the same way.
    /// </summary>
    public static int FormatWholeNumber<TUnit>(uint value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        if (buffer.Length < WholeNumberDigits)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        if (value is > 0 and < EightDigitLimit)
        {
            return UpToEightDigits(value, buffer);
        }

        if (value == 0)
        {
            buffer[0] = TextUnit.Of<TUnit>('0');
            return 1;
        }

        // 10^8 to 2^32 - 1: the leading digits are 1 to 42.
        uint leading = value / EightDigitLimit;
        int leadingLength = FormatSmallInteger(leading, buffer);
        ulong trailing = DigitBytes(value - (leading * EightDigitLimit)) + DigitChars;
        TextUnit.StoreEight(trailing, ref Unsafe.Add(ref MemoryMarshal.GetReference(buffer), leadingLength));
        return leadingLength + EightDigits;
    }

    /// <summary>The whole numbers <see cref="FormatSignedWholeNumber"/> writes are below this in magnitude.</summary>
    public const uint SignedWholeNumberLimit = EightDigitLimit;

    /// <summary>The room <see cref="FormatSignedWholeNumber"/> needs: a sign and eight digits.</summary>
    public const int SignedWholeNumberDigits = EightDigits + 1;

    /// <summary>
    /// Writes a whole number <paramref name="value"/> whose magnitude, <paramref name="magnitude"/>, is from 1 to
    /// 10^8 - 1, sign and all, into <paramref name="buffer"/> (at least <see cref="SignedWholeNumberDigits"/> units)
    /// and returns its length, with no branch on its sign or its length: a '-' is stored in any case, and the digits
    /// (<see cref="UpToEightDigits"/>) go after it or over it, by the value's sign bit. Where a number's sign and
    /// length are what the last ones had, the writer's branches on them cost less; where both change at random, their
    /// mispredictions cost more (an array of signed differences of one to five digits: 8 ns a number here against 16).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int FormatSignedWholeNumber<TUnit>(double value, uint magnitude, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        Debug.Assert(magnitude is > 0 and < SignedWholeNumberLimit && magnitude == Math.Abs(value), "a whole number below 10^8, not zero");
        if (buffer.Length < SignedWholeNumberDigits)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        int negative = (int)(BitConverter.DoubleToUInt64Bits(value) >> 63);
        buffer[0] = TextUnit.Of<TUnit>('-');
        return negative + UpToEightDigits(magnitude, buffer[negative..]);
    }

    /// <summary>The whole numbers that <see cref="FormatSmallInteger"/> writes are below this.</summary>
    public const uint SmallIntegerLimit = 10_000;

    /// <summary>The room <see cref="FormatSmallInteger"/> needs.</summary>
    public const int SmallIntegerDigits = 4;

    /// <summary>
    /// Writes a whole number below <see cref="SmallIntegerLimit"/> into <paramref name="buffer"/> (at least
    /// <see cref="SmallIntegerDigits"/> units) and returns its length: a digit, or pairs of digits copied as one
    /// move each, small enough to be inlined where numbers are written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int FormatSmallInteger<TUnit>(uint value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        Debug.Assert(value < SmallIntegerLimit, "a small whole number");
        if (buffer.Length < SmallIntegerDigits)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        ref TUnit first = ref MemoryMarshal.GetReference(buffer);
        if (value < 10)
        {
            first = TextUnit.Of<TUnit>((char)('0' + value));
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
            first = TextUnit.Of<TUnit>((char)('0' + high));
            WritePair(low, ref Unsafe.Add(ref first, 1));
            return 3;
        }

        WritePair(high, ref first);
        WritePair(low, ref Unsafe.Add(ref first, 2));
        return 4;
    }

    // The two digits of a pair below 100 at destination, as one move: 32 bits of chars, or 16 of bytes.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WritePair<TUnit>(uint pair, ref TUnit destination)
        where TUnit : unmanaged
    {
        Debug.Assert(pair < 100, "a pair of digits");
        if (TextUnit.IsByte<TUnit>())
        {
            ushort digitBytes = Unsafe.ReadUnaligned<ushort>(ref Unsafe.Add(ref MemoryMarshal.GetReference(DigitPairBytes), (nint)pair * 2));
            Unsafe.WriteUnaligned(ref Unsafe.As<TUnit, byte>(ref destination), digitBytes);
            return;
        }

        ref byte pairs = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(DigitPairs));
        uint digits = Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref pairs, (nint)pair * 2 * sizeof(char)));
        Unsafe.WriteUnaligned(ref Unsafe.As<TUnit, byte>(ref destination), digits);
    }

    // Writes the length (its CountDigits) digits of value (at most 17: a shortest significand, or a whole number below
    // 2^53). Where SSSE3 is there and the buffer has room for seventeen units, a value of five digits or more is
    // written as vectors (LeadingSixteenDigitText), which may write past its digits.
    // Otherwise, a value of more than 32 bits has its last eight digits split off by one 64-bit division; they and the
    // rest are then written in 32 bits, as two chains of divisions the processor runs side by side.
    private static void WriteDigits<TUnit>(ulong value, int length, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        Debug.Assert(length == CountDigits(value) && length <= buffer.Length, "the buffer holds every digit");
        Debug.Assert(value < 100_000_000_000_000_000, "at most 17 digits");
        ref TUnit destination = ref MemoryMarshal.GetReference(buffer);
        if (UsesDigitVectors(length) && buffer.Length > SixteenDigits)
        {
            TextUnit.StoreSixteen(LeadingSixteenDigitText(value, length, out char seventeenth), ref destination);
            Unsafe.Add(ref destination, SixteenDigits) = TextUnit.Of<TUnit>(seventeenth);
            return;
        }

        uint leading;
        if (value <= uint.MaxValue)
        {
            leading = WritePairs((uint)value, length, ref destination);
        }
        else
        {
            ulong high = value / 100_000_000;
            WriteEightDigits((uint)(value - (high * 100_000_000)), ref Unsafe.Add(ref destination, length - 8));
            leading = WritePairs((uint)high, length - 8, ref destination);
        }

        // One or two leading digits are left, for the front of the buffer.
        if (leading >= 10)
        {
            WritePair(leading, ref destination);
        }
        else
        {
            destination = TextUnit.Of<TUnit>((char)('0' + leading));
        }
    }

    private const int SixteenDigits = 16;

    // Whether a value of length digits is written as vectors (LeadingSixteenDigitText): where SSSE3 is there (whose byte
    // shuffle WriteWithPoint takes), from five digits on (fewer are one or two pairs from the table).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool UsesDigitVectors(int length) => Ssse3.IsSupported && length > 4;

    // The first sixteen digits of a value of length (at most 17) digits as sixteen ASCII bytes in text order: with
    // AVX-512 from LeadingSixteenDigitBytes, otherwise from LeadingSixteenDigitValues, a pair's tens in the low byte of
    // its lane, which comes first in memory.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> LeadingSixteenDigitText(ulong value, int length, out char seventeenth)
    {
        if (HasWideDigits)
        {
            return LeadingSixteenDigitBytes(value, length, out seventeenth) + Vector128.Create((byte)'0');
        }

        (Vector128<ushort> tens, Vector128<ushort> units) = LeadingSixteenDigitValues(value, length, out seventeenth);
        return (tens | Sse2.ShiftLeftLogical(units, 8)).AsByte() + Vector128.Create((byte)'0');
    }

    // The first sixteen digits of a value of length (at most 17) digits, leading zeros included, as the values (not
    // yet chars) of the tens and of the units of eight pairs, in 16-bit lanes in text order; zeros follow the digits
    // of a shorter value, and seventeenth is the last digit of a value of seventeen ('0' otherwise). The sixteen are
    // cut into four groups of four (one 64-bit division, then two 32-bit ones in the two lanes of a vector, which keeps
    // them off the scalar multiplier that ShortestDecimal's work beside them uses), each group into two pairs
    // in 16-bit lanes, each pair into its tens and units, all by multiplying: x / 100 is x × 5243 >> 19 and x / 10 is
    // x × 6554 >> 16, both exact below 10^4. The divisions are three steps deep, where pairs from the table take one
    // chained division per four digits.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (Vector128<ushort> Tens, Vector128<ushort> Units) LeadingSixteenDigitValues(ulong value, int length, out char seventeenth)
    {
        Debug.Assert(Sse2.IsSupported, "the digits are cut in vectors");
        ulong sixteen = LeadingSixteen(value, length, out seventeenth);
        ulong high = sixteen / 100_000_000;
        Vector128<ulong> halves = Vector128.Create(high, sixteen - (high * 100_000_000));

        // Each half's two groups of four: x / 10^4 is x × 0xD1B71759 >> 45 for any 32-bit x, a 32 by 32-bit multiply
        // in each 64-bit lane. In each lane the half's leading group goes in the lower 16 bits and its trailing group
        // above them; the two lanes' low 32 bits are then put side by side, the four groups in text order (the upper
        // four 16-bit lanes repeat them, and go unused).
        Vector128<ulong> quotients = Sse2.ShiftRightLogical(Sse2.Multiply(halves.AsUInt32(), Vector128.Create(0xD1B7_1759UL).AsUInt32()), 45);
        Vector128<ulong> remainders = halves - Sse2.Multiply(quotients.AsUInt32(), Vector128.Create(10_000UL).AsUInt32());
        Vector128<ushort> fours = Sse2.Shuffle((quotients | Sse2.ShiftLeftLogical(remainders, 16)).AsUInt32(), 0b10_00_10_00).AsUInt16();
        Vector128<ushort> hundreds = Sse2.ShiftRightLogical(Sse2.MultiplyHigh(fours, Vector128.Create((ushort)5243)), 3);
        Vector128<ushort> pairs = Sse2.UnpackLow(hundreds, fours - (hundreds * 100));
        Vector128<ushort> tens = Sse2.MultiplyHigh(pairs, Vector128.Create((ushort)6554));
        return (tens, pairs - (tens * 10));
    }

    // The first sixteen digits of a value of length (at most 17) digits as a whole number of sixteen digits: the value
    // with zeros after its digits, or without its seventeenth digit, which comes out as a char ('0' where there is
    // none).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong LeadingSixteen(ulong value, int length, out char seventeenth)
    {
        Debug.Assert(length <= SixteenDigits + 1 && value < PowersOfTen[length], "at most 17 digits");
        if (length > SixteenDigits)
        {
            ulong sixteen = value / 10;
            seventeenth = (char)('0' + (value - (sixteen * 10)));
            return sixteen;
        }

        seventeenth = '0';
        return value * PowersOfTen[SixteenDigits - length];
    }

    /// <summary>
    /// Whether the sixteen digits are made by <see cref="LeadingSixteenDigitBytes"/>: where AVX-512 VBMI is there and
    /// the runtime uses 512-bit vectors (not on processors that slow down for them).
    /// </summary>
    internal static bool HasWideDigits => Avx512Vbmi.IsSupported && Vector512.IsHardwareAccelerated;

    /// <summary>
    /// The first sixteen digits of a value of <paramref name="length"/> (at most 17) digits, leading zeros included,
    /// as their values (not yet chars) in sixteen bytes in text order, with zeros after the digits of a shorter value
    /// (see <see cref="LeadingSixteen"/>). Each half of eight, one 64-bit division apart, has all its digits made at
    /// once, one in each 64-bit lane (<see cref="EightDigitTenths"/>), and one byte permute takes the sixteen digits
    /// out of the two halves' lanes. That is two multiplications deep, where the steps of four, two and one digits of
    /// <see cref="LeadingSixteenDigitValues"/> are six, which a number's formatting waits for (canada: 0.95 of the
    /// time).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static Vector128<byte> LeadingSixteenDigitBytes(ulong value, int length, out char seventeenth)
    {
        Debug.Assert(HasWideDigits, "AVX-512 VBMI");
        ulong sixteen = LeadingSixteen(value, length, out seventeenth);
        ulong high = sixteen / 100_000_000;
        Vector512<byte> front = EightDigitTenths(high).AsByte();
        Vector512<byte> back = EightDigitTenths(sixteen - (high * 100_000_000)).AsByte();
        return Avx512Vbmi.PermuteVar64x8x2(front, DigitOfEachTenths, back).GetLower().GetLower();
    }

    // The eight digits of n below 10^8, one in each 64-bit lane in text order, in bits 32 to 35 (the lane's fifth
    // byte). The digit in lane j is floor(10 × frac(n / D)) for D = 10^(8 - j). With s = floor(log2(D)) and
    // c = ceil(2^(32 + s) / D), below 2^32 (EightDigitReciprocals), n × c / 2^s is n / D × 2^32 plus an error of
    // e × 2^32, e below n / 2^(32 + s). Shifted right by s, rounded up, its low 32 bits are the fraction's; the vector
    // multiply of 32 by 32 bits takes them times 10, and the digit is the product's upper half. Rounded up, a fraction
    // of exactly d / 10 gives d; the fraction below the next tenth, at most 1/10 - 1/D, stays below it while
    // 2^32 × (1/D - e) exceeds 1, which holds in every lane by a wide margin (42 at least, in lane 0; the tests check
    // it with exact fractions).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ulong> EightDigitTenths(ulong n)
    {
        Debug.Assert(n < EightDigitLimit, "eight digits");
        Vector512<ulong> scaled = Avx512F.Multiply(Vector512.Create(n).AsUInt32(), EightDigitReciprocals.AsUInt32());
        Vector512<ulong> fraction = Avx512F.ShiftRightLogicalVariable(scaled + EightDigitRoundings, EightDigitShifts);
        return Avx512F.Multiply(fraction.AsUInt32(), Vector512.Create(10UL).AsUInt32());
    }

    // The bytes of two EightDigitTenths (the first's 64, then the second's) that hold their digits: the fifth of each
    // lane. The permute's other 48 bytes go unused.
    private static Vector512<byte> DigitOfEachTenths
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (byte)4, 12, 20, 28, 36, 44, 52, 60, 68, 76, 84, 92, 100, 108, 116, 124,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /// <summary>EightDigitTenths' c for each lane j: ceil(2^(32 + s) / D), D = 10^(8 - j), s = floor(log2(D)).</summary>
    internal static Vector512<ulong> EightDigitReciprocals
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(0xABCC_7712UL, 0xD6BF_94D6, 0x8637_BD06, 0xA7C5_AC48, 0xD1B7_1759, 0x8312_6E98, 0xA3D7_0A3E, 0xCCCC_CCCD);
    }

    /// <summary>EightDigitTenths' s for each lane: floor(log2(D)).</summary>
    internal static Vector512<ulong> EightDigitShifts
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(26UL, 23, 19, 16, 13, 9, 6, 3);
    }

    /// <summary>
    /// EightDigitTenths' 2^s - 1 for each lane (s of <see cref="EightDigitShifts"/>), added before the shift by s so
    /// that the fraction is rounded up.
    /// </summary>
    internal static Vector512<ulong> EightDigitRoundings
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create((1UL << 26) - 1, (1UL << 23) - 1, (1UL << 19) - 1, (1UL << 16) - 1, (1UL << 13) - 1, (1UL << 9) - 1, (1UL << 6) - 1, (1UL << 3) - 1);
    }

    // dd.dddd from the first sixteen digits (LeadingSixteenDigitText), put together in registers and stored once: the
    // sixteen digits as bytes, shuffled so that each lane before the point keeps its digit and each lane after it takes
    // the digit one lane before, the point's lane set to '.', then stored as units. Moving the digits already stored
    // instead would read them back across the stores, which waits for the stores to finish (a tenth of canada's time).
    // Returns the length, k + 1.
    private static int WriteWithPoint<TUnit>(ulong significand, int k, int point, ref TUnit destination)
        where TUnit : unmanaged
    {
        Debug.Assert(UsesDigitVectors(k) && 0 < point && point < k, "digits on both sides of the point");
        Vector128<byte> digits = LeadingSixteenDigitText(significand, k, out char seventeenth);

        Vector128<sbyte> lanes = Vector128.Create((sbyte)0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        Vector128<sbyte> pointLane = Vector128.Create((sbyte)point);

        // Every index is a lane of digits (a lane after the point less one: the compare's all-ones is -1), so the
        // processor's own shuffle gives what any other would.
        Vector128<sbyte> from = lanes + Vector128.GreaterThan(lanes, pointLane);
        Vector128<byte> moved = Vector128.ShuffleNative(digits, from.AsByte());
        Vector128<byte> text = Vector128.ConditionalSelect(Vector128.Equals(lanes, pointLane).AsByte(), Vector128.Create((byte)'.'), moved);
        TextUnit.StoreSixteen(text, ref destination);

        // Past the sixteen: the sixteenth digit moved up (or the point, after sixteen digits), then the seventeenth.
        Unsafe.Add(ref destination, SixteenDigits) = TextUnit.Of<TUnit>(point == SixteenDigits ? '.' : (char)digits.GetElement(SixteenDigits - 1));
        Unsafe.Add(ref destination, SixteenDigits + 1) = TextUnit.Of<TUnit>(seventeenth);
        return k + 1;
    }

    // The eight digits of a value below 10^8, leading zeros included, from destination on: two groups of four, each
    // two pairs.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteEightDigits<TUnit>(uint value, ref TUnit destination)
        where TUnit : unmanaged
    {
        Debug.Assert(value < 100_000_000, "eight digits");
        uint high = value / 10_000;
        uint low = value - (high * 10_000);
        uint highPair = high / 100;
        uint lowPair = low / 100;
        WritePair(highPair, ref destination);
        WritePair(high - (highPair * 100), ref Unsafe.Add(ref destination, 2));
        WritePair(lowPair, ref Unsafe.Add(ref destination, 4));
        WritePair(low - (lowPair * 100), ref Unsafe.Add(ref destination, 6));
    }

    // Writes all but the one or two leading digits of value, right to left from end; returns those leading digits.
    // end is the value's digit count, which the caller's buffer holds. Four digits come off per division by 10,000,
    // and their two pairs are split apart off that chain, which is half as long as with a division per pair.
    private static uint WritePairs<TUnit>(uint value, int end, ref TUnit destination)
        where TUnit : unmanaged
    {
        int i = end;
        while (value >= 10_000)
        {
            uint quotient = value / 10_000;
            uint four = value - (quotient * 10_000);
            value = quotient;
            i -= 4;
            uint high = four / 100;
            WritePair(high, ref Unsafe.Add(ref destination, i));
            WritePair(four - (high * 100), ref Unsafe.Add(ref destination, i + 2));
        }

        // One to four digits left: of three or four, the last two are written here; the caller writes the one or two
        // before them.
        if (value >= 100)
        {
            uint leading = value / 100;
            Debug.Assert(i - 2 is 1 or 2, "one or two leading digits are left for the caller");
            WritePair(value - (leading * 100), ref Unsafe.Add(ref destination, i - 2));
            return leading;
        }

        Debug.Assert(i is 1 or 2, "one or two leading digits are left for the caller");
        return value;
    }

    /// <summary>
    /// The number of decimal digits of <paramref name="value"/> (1 for 0): bits × log10(2) (1233 / 4096) estimates it,
    /// one comparison corrects it.
    /// </summary>
    public static int CountDigits(ulong value)
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

    // DigitPairs as UTF-8.
    private static ReadOnlySpan<byte> DigitPairBytes =>
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"u8;

    /// <summary>
    /// <see cref="Format"/> for a finite <paramref name="value"/> that <see cref="IsExactInteger"/> rejects: a number
    /// that is not whole, or one of 2^53 or more in magnitude. Number::toString writes both by their shortest digits,
    /// laid out here without a branch on the sign or, for the common layouts, on where the point goes: the buffer has
    /// room past the number (<see cref="JsonConstants.NumberBufferLength"/>), so fixed-width vector moves may write
    /// beyond its end.
    /// </summary>
    public static int FormatShortest<TUnit>(double value, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        Debug.Assert(double.IsFinite(value) && !IsExactInteger(value), "a finite double that is not an exact integer");
        if (buffer.Length < JsonConstants.NumberBufferLength)
        {
            Throw.DestinationTooShort(nameof(buffer));
        }

        // A minus sign always goes in front, and is written over by the first digit when the value is positive.
        ref TUnit first = ref MemoryMarshal.GetReference(buffer);
        first = TextUnit.Of<TUnit>('-');
        int w = (int)(BitConverter.DoubleToUInt64Bits(value) >> 63);

        double magnitude = Math.Abs(value);
        if (TryFewPlaces(magnitude, out ulong tenMillionths))
        {
            return w + WriteFewPlaces(tenMillionths, buffer[w..]);
        }

        return WriteShortest(magnitude, buffer, w);
    }

    // The rest of FormatShortest: the shortest digits of magnitude, from ShortestDecimal, in their layout after the w
    // units (the sign, or none) that buffer starts with; returns the whole length. Out of line: compiled with the
    // profile of its own calls, it keeps ShortestDecimal's work inlined and in registers, where the writer's number
    // path, compiled with the profile of documents whose numbers are whole or have few places, lays it out as cold
    // code.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int WriteShortest<TUnit>(double magnitude, Span<TUnit> buffer, int w)
        where TUnit : unmanaged
    {
        ref TUnit first = ref MemoryMarshal.GetReference(buffer);

        // value = 0.d1d2..dk × 10^point
        (ulong significand, int exponent, int k) = ShortestDecimal.Compute(magnitude);
        Debug.Assert(k == CountDigits(significand), "k is the number of the significand's digits");
        int point = k + exponent;
        if (k <= point && point <= MaxPlainExponent)
        {
            // dddd000
            WriteDigits(significand, k, buffer[w..]);
            buffer.Slice(w + k, point - k).Fill(TextUnit.Of<TUnit>('0'));
            return w + point;
        }

        if (0 < point && point <= MaxPlainExponent)
        {
            // dd.dddd: put together in registers where the digits are vectors; otherwise the digits, then those after
            // the point (fewer than 17) moved one place right, sixteen units read before any is written (two vectors
            // of eight chars, or one of sixteen bytes), and the point in the gap.
            if (UsesDigitVectors(k))
            {
                return w + WriteWithPoint(significand, k, point, ref Unsafe.Add(ref first, w));
            }

            WriteDigits(significand, k, buffer[w..]);
            ref TUnit fraction = ref Unsafe.Add(ref first, w + point);
            if (TextUnit.IsByte<TUnit>())
            {
                ref byte fractionBytes = ref Unsafe.As<TUnit, byte>(ref fraction);
                Vector128.LoadUnsafe(ref fractionBytes).StoreUnsafe(ref fractionBytes, 1);
            }
            else
            {
                ref ushort fractionChars = ref Unsafe.As<TUnit, ushort>(ref fraction);
                Vector128<ushort> front = Vector128.LoadUnsafe(ref fractionChars);
                Vector128<ushort> back = Vector128.LoadUnsafe(ref fractionChars, (nuint)Vector128<ushort>.Count);
                front.StoreUnsafe(ref fractionChars, 1);
                back.StoreUnsafe(ref fractionChars, (nuint)Vector128<ushort>.Count + 1);
            }

            fraction = TextUnit.Of<TUnit>('.');
            return w + k + 1;
        }

        if (MinPlainExponent < point && point <= 0)
        {
            // 0.000dddd: "0." and six zeros, of which the digits overwrite those past the -point the layout has.
            TextUnit.StoreEight(ZeroPointZeros, ref Unsafe.Add(ref first, w));
            w += 2 - point;
            WriteDigits(significand, k, buffer[w..]);
            return w + k;
        }

        // d.dddde+x, or de+x
        WriteDigits(significand, k, buffer[(w + 1)..]);
        buffer[w] = buffer[w + 1];
        if (k > 1)
        {
            buffer[w + 1] = TextUnit.Of<TUnit>('.');
            w += k + 1;
        }
        else
        {
            w++;
        }

        int power = point - 1;
        buffer[w++] = TextUnit.Of<TUnit>('e');
        buffer[w++] = TextUnit.Of<TUnit>(power < 0 ? '-' : '+');
        return w + FormatUnsigned((ulong)Math.Abs(power), buffer[w..]);
    }

    // "0.000000" as eight ASCII bytes, the first in the lowest: the front of a number between 10^-6 and 1.
    private const ulong ZeroPointZeros = 0x3030_3030_3030_2E30;

    // A decimal of a few places and at most fifteen significant digits, recognised without ShortestDecimal: prices,
    // measurements and table data have one to three places, map coordinates six or seven (OpenStreetMap's), texture
    // coordinates six. When n / 10^p rounds to the value for an integer n below 10^15, the decimal n × 10^-p is the
    // answer: no other decimal of fifteen significant digits or fewer rounds to the same double (they are more than an
    // ulp apart), so, with its trailing zeros dropped, it is the shortest, and the only one of its length. Seven places
    // are tried below 10^8 (n below 10^15 there), which takes every decimal of fewer places too; from 10^8 on, three.
    // Everything else goes to ShortestDecimal, as do values below 10^-6 (seven places, n below 10), which
    // Number::toString writes in e-notation. tenMillionths is the decimal in units of 10^-7, trailing zeros and all.
    private static bool TryFewPlaces(double magnitude, out ulong tenMillionths)
    {
        if (magnitude < 1e8)
        {
            return IsDecimalOfPlaces(magnitude, 1e7, out tenMillionths) && tenMillionths >= 10;
        }

        if (IsDecimalOfPlaces(magnitude, 1e3, out ulong thousandths))
        {
            // Below 10^15 × 10^4, which a ulong holds.
            tenMillionths = thousandths * 10_000;
            return true;
        }

        tenMillionths = 0;
        return false;
    }

    // Whether magnitude is the double nearest to n / scale (scale 10^7 or 10^3) for an integer n from 1 to below 10^15.
    // The only candidate is magnitude × scale rounded to an integer: for such a decimal the product is within a
    // seventh of n (magnitude within half an ulp of n / scale, the product rounded once). The decimal rounds to
    // magnitude when it lies within half an ulp of it, |magnitude × scale - n| < scale × ulp / 2, which a fused
    // multiply-add gives exactly; none lies exactly halfway between two doubles (a decimal that is a binary fraction
    // has n divisible by 5^7 or 5^3, and is then a double itself). No division, and no test for a whole product: a
    // decimal that a double's rounding has put a hair off (4.8907075 × 10^7 is not a whole double) is found as well.
    // n is converted only then, and as a long: the conversion to ulong, which must saturate for any double, is a dozen
    // instructions, which every number that fails the test (most of those that come here) paid.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsDecimalOfPlaces(double magnitude, double scale, out ulong n)
    {
        double scaled = magnitude * scale;
        double nearest = Math.Round(scaled);
        if (scaled >= 1 && scaled < 1e15 && Math.Abs(Math.FusedMultiplyAdd(magnitude, scale, -nearest)) < scale * HalfUlp(magnitude))
        {
            n = (ulong)(long)nearest;
            return true;
        }

        n = 0;
        return false;
    }

    // Half the gap between a normal double of at least 2^-969 and the next one up: the power of two 53 binary places
    // below its leading one.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static double HalfUlp(double magnitude)
    {
        const ulong exponentBits = 0x7FF0_0000_0000_0000;
        const ulong halfUlpBelow = 53UL << 52;
        ulong exponent = BitConverter.DoubleToUInt64Bits(magnitude) & exponentBits;
        Debug.Assert(exponent > halfUlpBelow, "a double large enough for its half-ulp to be normal");
        return BitConverter.UInt64BitsToDouble(exponent - halfUlpBelow);
    }

    // Writes a decimal of seven places at most, given in units of 10^-7 and not a whole number, as Number::toString
    // does from 10^-6 on: the whole part's digits (0 below 1), the point, and the seven places with their trailing
    // zeros dropped. The places are made by multiplying, a digit to a byte in one ulong (DigitBytes), and stored as
    // eight units from the point's place on, the point in place of their leading zero; their trailing zeros are the
    // ulong's high zero bytes, counted rather than divided off. Returns the length.
    private static int WriteFewPlaces<TUnit>(ulong tenMillionths, Span<TUnit> buffer)
        where TUnit : unmanaged
    {
        const uint places = 10_000_000;
        ulong whole = tenMillionths / places;
        uint fraction = (uint)(tenMillionths - (whole * places));
        Debug.Assert(fraction != 0 && whole < 1_000_000_000_000, "a decimal below 10^12 that is not whole");

        int length = whole < SmallIntegerLimit
            ? FormatSmallInteger((uint)whole, buffer)
            : FormatUnsigned(whole, buffer);

        Debug.Assert(buffer.Length >= length + 8, "room for the point and seven places");
        ulong digits = DigitBytes(fraction);
        TextUnit.StoreEight(digits + PointAndDigitChars, ref Unsafe.Add(ref MemoryMarshal.GetReference(buffer), length));
        return length + 8 - (BitOperations.LeadingZeroCount(digits) >> 3);
    }

    // Added to DigitBytes' digits of the places, byte by byte: '.' to the first (always 0), '0' to the other seven.
    private const ulong PointAndDigitChars = 0x3030_3030_3030_302E;

    // The eight decimal digits of a value below 10^8, leading zeros included (their values 0 to 9, not yet chars), one
    // per byte in text order: the first digit in the lowest byte. Split in two groups of four in the ulong's 32-bit
    // halves, each group into pairs in 16-bit lanes, each pair into its digits in bytes, all by multiplying: x / 100 is
    // x × 10,486 >> 20 below 10^4 and x / 10 is x × 103 >> 10 below 100. No lane's product carries into the lane above
    // it; the shift brings the low bits of each lane's product into the top of the lane below, which the mask clears.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong DigitBytes(uint value)
    {
        Debug.Assert(value < EightDigitLimit, "eight digits");
        uint high = value / 10_000;
        ulong groups = high | ((ulong)(value - (high * 10_000)) << 32);
        ulong hundreds = ((groups * 10_486) >> 20) & 0x0000_007F_0000_007F;
        ulong pairs = hundreds | ((groups - (hundreds * 100)) << 16);
        ulong tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
        return tens | ((pairs - (tens * 10)) << 8);
    }
}
