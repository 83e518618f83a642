using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

// QuoteJSONString straight into UTF-8, for the text of long strings that is not ASCII: the escape and the encoding
// in one pass, with the transcoder's block encoders: blocks of 32 chars with AVX-512 VBMI2, of 16 with AVX2.
internal static partial class StringEscaper
{
    /// <summary>The least room with which <see cref="EscapeUtf8"/> moves on: a block's stores, and an escape.</summary>
    public const int MinUtf8Room = Utf8Transcoder.BlockRoom + JsonConstants.MaxEscapedCharLength;

    // A 16-char block with more chars from U+0800 on than this (CJK, runs of emoji) stops the 256-bit escaper: the
    // chars and the transcoder take such text faster than its blocks do.
    private const int MaxWideCharsPerBlock = 2;

    /// <summary>Whether <see cref="EscapeUtf8"/> can run here: the transcoder's 512-bit blocks, or AVX2, are
    /// there. A field, as <see cref="Utf8Transcoder.HasWideBlocks"/> is.</summary>
    public static readonly bool CanEscapeUtf8 = Utf8Transcoder.HasWideBlocks || Utf8Transcoder.HasSixteenCharBlocks;

    /// <summary>
    /// The UTF-8 twin of <see cref="TryCopyShort"/>: narrows <paramref name="value"/>, of <see cref="MinShortLength"/>
    /// to <see cref="MaxShortLength"/> chars, into <paramref name="destination"/> when all its chars are ASCII and none
    /// needs escaping, which is then its escaped form; false when one is not (the destination then holds a partial
    /// copy, to be written over). The destination holds at least a block's worth of bytes: the pieces are stored eight
    /// bytes at a time, past the value's end where it is shorter.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryNarrowShort(string value, Span<byte> destination)
    {
        Debug.Assert(value.Length is >= MinShortLength and <= MaxShortLength, "a short value");
        if (destination.Length < BlockLength)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value.AsSpan()));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = value.Length;

        // Two pieces that meet or overlap, as CopyShort's: 8 chars each, or 4, or 2. With SSE2 both go into one vector,
        // saturated, and their bytes are checked at once, as NarrowBlock's are; each piece is stored where it goes.
        if (length >= HalfBlockLength)
        {
            int last = length - HalfBlockLength;
            Vector128<ushort> head = Vector128.LoadUnsafe(ref source);
            Vector128<ushort> tail = Vector128.LoadUnsafe(ref source, (nuint)last);
            if (Sse2.IsSupported)
            {
                Vector128<byte> bytes = Sse2.PackUnsignedSaturate(head.AsInt16(), tail.AsInt16());
                Unsafe.WriteUnaligned(ref target, bytes.AsUInt64().ToScalar());
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, last), bytes.AsUInt64().GetElement(1));
                bool clean = AreClean(bytes, BlockLength);
                Debug.Assert(clean == ((AsciiStopMask(head) | AsciiStopMask(tail)) == 0), "the bytes stop where the chars do");
                return clean;
            }

            return (NarrowPiece(head, ref target) | NarrowPiece(tail, ref Unsafe.Add(ref target, last))) == 0;
        }

        if (length >= 4)
        {
            int last = length - 4;
            Vector128<ushort> pieces = Vector128.Create(
                Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref source)),
                Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref source, last)))).AsUInt16();
            if (Sse2.IsSupported)
            {
                Vector128<byte> bytes = Sse2.PackUnsignedSaturate(pieces.AsInt16(), pieces.AsInt16());
                Unsafe.WriteUnaligned(ref target, bytes.AsUInt32().ToScalar());
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, last), bytes.AsUInt32().GetElement(1));
                bool clean = AreClean(bytes, HalfBlockLength);
                Debug.Assert(clean == (AsciiStopMask(pieces) == 0), "the bytes stop where the chars do");
                return clean;
            }

            return ((NarrowPiece(Vector128.CreateScalarUnsafe(pieces.AsUInt64().ToScalar()).AsUInt16(), ref target)
                | NarrowPiece(Vector128.CreateScalarUnsafe(pieces.AsUInt64().GetElement(1)).AsUInt16(), ref Unsafe.Add(ref target, last)))
                & 0b1111) == 0;
        }

        Vector128<ushort> pair = Vector128.CreateScalar(
            Unsafe.ReadUnaligned<uint>(ref Unsafe.As<ushort, byte>(ref source))
            | ((ulong)Unsafe.ReadUnaligned<uint>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref source, length - 2))) << 32)).AsUInt16();
        if (Sse2.IsSupported)
        {
            Vector128<byte> bytes = Sse2.PackUnsignedSaturate(pair.AsInt16(), pair.AsInt16());
            Unsafe.WriteUnaligned(ref target, bytes.AsUInt16().ToScalar());
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, length - 2), bytes.AsUInt16().GetElement(1));
            bool clean = AreClean(bytes, 4);
            Debug.Assert(clean == ((AsciiStopMask(pair) & 0b1111) == 0), "the bytes stop where the chars do");
            return clean;
        }

        return ((NarrowPiece(Vector128.CreateScalarUnsafe(pair.AsUInt32().ToScalar()).AsUInt16(), ref target)
            | NarrowPiece(Vector128.CreateScalarUnsafe(pair.AsUInt32().GetElement(1)).AsUInt16(), ref Unsafe.Add(ref target, length - 2)))
            & 0b11) == 0;
    }

    // Whether the first count bytes of a short value's saturated pieces are clean: ByteStops finds none among them.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool AreClean(Vector128<byte> bytes, int count) =>
        (ByteStops(bytes.AsSByte()) & (uint)((1 << count) - 1)) == 0;

    /// <summary>
    /// The UTF-8 twin of <see cref="TryCopyMedium"/>, for a value of <see cref="MaxShortLength"/> + 1 to
    /// <see cref="MaxMediumLength"/> chars: whole blocks narrowed, the last one reaching back over bytes already written.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryNarrowMedium(string value, Span<byte> destination)
    {
        Debug.Assert(value.Length is > MaxShortLength and <= MaxMediumLength, "a medium value");
        if (destination.Length < value.Length)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value.AsSpan()));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int lastBlock = value.Length - BlockLength;

        // The last block first, as TryCopyMedium does.
        if (NarrowBlock(ref Unsafe.Add(ref source, lastBlock), ref Unsafe.Add(ref target, lastBlock)) != 0)
        {
            return false;
        }

        for (int i = 0; i < lastBlock; i += BlockLength)
        {
            if (NarrowBlock(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, i)) != 0)
            {
                return false;
            }
        }

        return true;
    }

    // Stores the low bytes of the first HalfBlockLength lanes of chars at target (the caller keeps as many as it
    // loaded) and returns the mask of the lanes that need escaping or are not ASCII (bit k for lane k).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint NarrowPiece(Vector128<ushort> chars, ref byte target)
    {
        Unsafe.WriteUnaligned(ref target, Vector128.Narrow(chars, chars).AsUInt64().ToScalar());
        return AsciiStopMask(chars);
    }

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, as UTF-8 into
    /// <paramref name="destination"/>, in blocks of 32 chars (<see cref="Utf8Transcoder.BlockLength"/>, AVX-512) or 16
    /// (AVX2), each checked for the chars JSON.stringify escapes: a block of chars below U+0800 whose escapes all have
    /// a short form is encoded whole, its escapes with it, and in blocks of 16 so is one with no char to escape and one
    /// or two chars from U+0800 on; any other block up to its first char to escape (or, in blocks of 16, its first char
    /// from U+0800 on), which follows on its own. Stops when the value ends, when less than <see cref="MinUtf8Room"/>
    /// bytes of room are left, after a run of ASCII that needs no escaping (256 chars in blocks of 32, 64 in blocks of
    /// 16), which <see cref="EscapeAscii"/> takes faster, and, in blocks of 16, before a block with more than two chars
    /// from U+0800 on, which the chars and the transcoder take faster (so it may write nothing). A high surrogate at
    /// the very end is escaped as unpaired, so callers cut long strings between pairs; a block never ends between the
    /// two halves of one.
    /// </summary>
    /// <param name="value">The chars to escape.</param>
    /// <param name="destination">Where the UTF-8 goes.</param>
    /// <param name="consumed">How many chars of <paramref name="value"/> were written.</param>
    /// <param name="chars">How many chars of output they are: the chars consumed and what their escapes add.</param>
    /// <returns>The number of bytes written.</returns>
    public static int EscapeUtf8(ReadOnlySpan<char> value, Span<byte> destination, out int consumed, out int chars) =>
        Utf8Transcoder.HasWideBlocks
            ? EscapeUtf8In32CharBlocks(value, destination, out consumed, out chars)
            : EscapeUtf8In16CharBlocks(value, destination, out consumed, out chars);

    // EscapeUtf8 with AVX-512 VBMI2. Optimised from its first call and never inlined, as the transcoder is, for the
    // same reasons.
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private static int EscapeUtf8In32CharBlocks(ReadOnlySpan<char> value, Span<byte> destination, out int consumed, out int chars)
    {
        Debug.Assert(Utf8Transcoder.HasWideBlocks, "only where the 512-bit blocks are");
        const int Lanes = Utf8Transcoder.BlockLength;
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = value.Length;

        // A block starts only where its stores and an escape after it fit: at most lastStart.
        int lastStart = destination.Length - MinUtf8Room;
        int i = 0;
        int w = 0;

        // What the escapes so far add to the output's length in chars, beyond the one char each replaces.
        int added = 0;
        int asciiBlocks = 0;
        while (i < length && w <= lastStart)
        {
            // The value's chars in this block: all its lanes, or at the value's end the first few, the others
            // spaces (one byte each, which w leaves out, and nothing to escape).
            int count = Math.Min(Lanes, length - i);
            Vector512<ushort> block = count == Lanes
                ? Vector512.LoadUnsafe(ref source, (nuint)i)
                : Utf8Transcoder.LoadFirstLanes(ref Unsafe.Add(ref source, i), count, filler: ' ');
            int filler = Lanes - count;

            // The chars to escape, but for surrogates without their other half: controls, '"' and '\\'. As a mask of
            // lanes in a register, which the common blocks test with one branch.
            uint special = (uint)(
                Vector512.LessThan(block, Vector512.Create((ushort)' ')).ExtractMostSignificantBits()
                | Vector512.Equals(block, Vector512.Create((ushort)'"')).ExtractMostSignificantBits()
                | Vector512.Equals(block, Vector512.Create((ushort)'\\')).ExtractMostSignificantBits());

            // The common blocks: every char below U+0800 (so no surrogate).
            if (Vector512.LessThanAll(block, Vector512.Create((ushort)0x800)))
            {
                if (special == 0)
                {
                    if ((block & Vector512.Create((ushort)0xFF80)) == Vector512<ushort>.Zero)
                    {
                        Avx512BW.ConvertToVector256Byte(block).StoreUnsafe(ref Unsafe.Add(ref target, w));
                        i += count;
                        w += count;
                        if (++asciiBlocks == Utf8Transcoder.AsciiBlocksToNarrow)
                        {
                            break;
                        }

                        continue;
                    }

                    asciiBlocks = 0;
                    w += Utf8Transcoder.EncodeTwoByteBlock(block, ref Unsafe.Add(ref target, w)) - filler;
                    i += count;
                    continue;
                }

                // Escapes with a short form (\b, \t, \n, \f, \r, \" and \\) are two bytes, a backslash and a
                // letter, as a two-byte char is a lead and a continuation byte: a block of them and chars below
                // U+0800 is encoded as one of two-byte chars, however many escapes it has.
                Vector512<ushort> controls = Vector512.LessThan(block, Vector512.Create((ushort)' '));
                Vector512<ushort> escaped = controls
                    | Vector512.Equals(block, Vector512.Create((ushort)'"'))
                    | Vector512.Equals(block, Vector512.Create((ushort)'\\'));
                if (ControlsHaveShortEscapes(block, controls, out Vector512<ushort> letters))
                {
                    asciiBlocks = 0;
                    Vector512<ushort> notAscii = Vector512.GreaterThan(block, Vector512.Create((ushort)0x7F));
                    Vector512<ushort> lead = Vector512.ConditionalSelect(
                        notAscii,
                        Vector512.ShiftRightLogical(block, 6) | Vector512.Create((ushort)0xC0),
                        Vector512.ConditionalSelect(escaped, Vector512.Create((ushort)'\\'), block));
                    Vector512<ushort> second = Vector512.ConditionalSelect(
                        notAscii,
                        (block & Vector512.Create((ushort)0x3F)) | Vector512.Create((ushort)0x80),
                        Vector512.ConditionalSelect(controls, letters, block));
                    w += Utf8Transcoder.StoreTwoByteLanes(lead, second, notAscii | escaped, ref Unsafe.Add(ref target, w)) - filler;
                    added += BitOperations.PopCount(special);
                    i += count;
                    continue;
                }
            }

            asciiBlocks = 0;
            Vector512<ushort> kind = block & Vector512.Create((ushort)0xFC00);
            Vector512<ushort> highLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xD800));
            Vector512<ushort> lowLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xDC00));
            uint high = (uint)highLanes.ExtractMostSignificantBits();
            uint low = (uint)lowLanes.ExtractMostSignificantBits();

            // The chars this block writes before its first escape: all of the value's, or all but a high surrogate
            // last with chars after it, whose low one may come next: the next block starts with it.
            int take = count;
            if ((high >> (count - 1) & 1) != 0 && i + count < length)
            {
                take = count - 1;
                high &= ~(1u << take);
            }

            // A surrogate without its other half is escaped: a high one without a low one next, a low one without a
            // high one before it (the block never starts with the low half of a pair, which the block before would
            // have kept for this one).
            special |= (high & ~(low >> 1)) | (low & ~(high << 1));
            if (special != 0)
            {
                take = Math.Min(take, BitOperations.TrailingZeroCount(special));
            }

            if (take > 0)
            {
                // The chars from take on (and any filler) become NUL: one byte each, after the bytes of the chars
                // before them (the compress keeps the lanes' order), which w leaves out. No pair is cut: an escaped
                // char is ASCII or a surrogate without its other half, and a pair's high half last in the block was
                // left out above.
                if (take < Lanes)
                {
                    Vector512<ushort> kept = Vector512.LessThan(Vector512<ushort>.Indices, Vector512.Create((ushort)take));
                    block &= kept;
                    highLanes &= kept;
                    lowLanes &= kept;
                    high &= uint.MaxValue >> (Lanes - take);
                }

                int encoded = Utf8Transcoder.EncodeBlock(block, highLanes, lowLanes, pairs: high != 0, ref Unsafe.Add(ref target, w));
                w += encoded - (Lanes - take);
                i += take;
            }

            if (take < count && (special >> take & 1) != 0)
            {
                // The char to escape: its escape is ASCII, as many chars of output as bytes.
                ushort c = Unsafe.Add(ref source, i);
                int escapeLength = c < 0x80
                    ? EscapeAsciiOne(c, ref Unsafe.Add(ref target, w))
                    : EscapeUnpairedSurrogate(c, ref Unsafe.Add(ref target, w));
                w += escapeLength;
                added += escapeLength - 1;
                i++;
            }
        }

        consumed = i;
        chars = i + added;
        return w;
    }

    // EscapeUtf8 with AVX2: blocks of 16 chars. A block below U+0800 is one of two-byte lanes as in blocks of 32 (its
    // short escapes looked up by a byte shuffle, which reads a lane's low four bits, so only controls below 0x10 can
    // have one); a block with one or two chars from U+0800 on, no surrogate and nothing to escape, in 32-bit lanes a
    // half at a time; any other block is written up to its first char to escape or from U+0800 on, and that char (or
    // pair) on its own after it, the next block starting after it.
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private static int EscapeUtf8In16CharBlocks(ReadOnlySpan<char> value, Span<byte> destination, out int consumed, out int chars)
    {
        Debug.Assert(Utf8Transcoder.HasSixteenCharBlocks, "only where AVX2 is");
        const int Lanes = Utf8Transcoder.SixteenChars;
        // ASCII through the two-byte encoder costs more than EscapeAscii's narrowing, and words in another script
        // rarely run this long: four blocks, 64 chars.
        const int AsciiBlocksToStop = 4;
        ref byte shuffles = ref Utf8Transcoder.TwoByteShuffles;
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = value.Length;
        int lastStart = destination.Length - MinUtf8Room;
        int i = 0;
        int w = 0;
        int added = 0;
        int asciiBlocks = 0;
        while (i < length && w <= lastStart)
        {
            // The common blocks first, in loops of their own: all lanes the value's, each from ' ' to U+07FF and
            // neither '"' nor '\\'. ASCII goes through the two-byte encoder too (no lane takes two bytes), counted
            // so that a long enough run of it stops the escaper. Two blocks at a time while both are common, which
            // halves the loop's own work and the masks' (a pair of blocks writes at most 64 bytes, less than the
            // room lastStart leaves); then one, up to the block that is not.
            while (length - i >= 2 * Lanes && w <= lastStart)
            {
                Vector256<ushort> first = Vector256.LoadUnsafe(ref source, (nuint)i);
                Vector256<ushort> second = Vector256.LoadUnsafe(ref source, (nuint)(i + Lanes));
                if (OutsideCommon(first, second) != Vector256<ushort>.Zero)
                {
                    break;
                }

                int encoded = Utf8Transcoder.EncodeTwoByteBlocks(first, second, ref shuffles, ref Unsafe.Add(ref target, w));
                asciiBlocks = encoded == 2 * Lanes ? asciiBlocks + 2 : 0;
                w += encoded;
                i += 2 * Lanes;
                if (asciiBlocks >= AsciiBlocksToStop)
                {
                    goto Stop;
                }
            }

            while (length - i >= Lanes && w <= lastStart)
            {
                Vector256<ushort> common = Vector256.LoadUnsafe(ref source, (nuint)i);
                if (OutsideCommon(common) != Vector256<ushort>.Zero)
                {
                    break;
                }

                int encoded = Utf8Transcoder.EncodeTwoByteBlock(common, ref shuffles, ref Unsafe.Add(ref target, w));
                asciiBlocks = encoded == Lanes ? asciiBlocks + 1 : 0;
                w += encoded;
                i += Lanes;
                if (asciiBlocks == AsciiBlocksToStop)
                {
                    goto Stop;
                }
            }

            if (i >= length || w > lastStart)
            {
                break;
            }

            // The value's chars in this block: all its lanes, or at the value's end the first few, the others spaces
            // (one byte each, which w leaves out, and nothing to escape).
            int count = Math.Min(Lanes, length - i);
            Vector256<ushort> block = count == Lanes
                ? Vector256.LoadUnsafe(ref source, (nuint)i)
                : Utf8Transcoder.LoadFirstOfSixteen(ref Unsafe.Add(ref source, i), count);
            int filler = Lanes - count;
            Vector256<ushort> controls = Vector256.LessThan(block, Vector256.Create((ushort)' '));
            Vector256<ushort> escaped = controls
                | Vector256.Equals(block, Vector256.Create((ushort)'"'))
                | Vector256.Equals(block, Vector256.Create((ushort)'\\'));
            if (Vector256.LessThanAll(block, Vector256.Create((ushort)0x800)))
            {
                if (escaped == Vector256<ushort>.Zero)
                {
                    // Only the value's last chars, fewer than a block, come here clean: the loop above takes every
                    // whole block that is.
                    Debug.Assert(count < Lanes, "whole clean blocks go through the loop of common blocks");
                    w += Utf8Transcoder.EncodeTwoByteBlock(block, ref shuffles, ref Unsafe.Add(ref target, w)) - filler;
                    i += count;
                    continue;
                }

                if (ControlsHaveShortEscapes(block, controls, out Vector256<ushort> letters))
                {
                    asciiBlocks = 0;
                    Vector256<ushort> notAscii = Vector256.GreaterThan(block.AsInt16(), Vector256.Create((short)0x7F)).AsUInt16();
                    Vector256<ushort> lead = Vector256.ConditionalSelect(
                        notAscii,
                        Vector256.ShiftRightLogical(block, 6) | Vector256.Create((ushort)0xC0),
                        Vector256.ConditionalSelect(escaped, Vector256.Create((ushort)'\\'), block));
                    Vector256<ushort> second = Vector256.ConditionalSelect(
                        notAscii,
                        (block & Vector256.Create((ushort)0x3F)) | Vector256.Create((ushort)0x80),
                        Vector256.ConditionalSelect(controls, letters, block));
                    Vector256<byte> lanes = (lead | Vector256.ShiftLeft(second, 8)).AsByte();
                    w += Utf8Transcoder.StoreTwoByteLanes(lanes, notAscii | escaped, ref shuffles, ref Unsafe.Add(ref target, w)) - filler;
                    added += BitOperations.PopCount(escaped.AsByte().ExtractMostSignificantBits()) / sizeof(ushort);
                    i += count;
                    continue;
                }
            }

            asciiBlocks = 0;
            Vector256<ushort> wide = Vector256.GreaterThanOrEqual(block, Vector256.Create((ushort)0x800));
            uint wideBytes = wide.AsByte().ExtractMostSignificantBits();
            if (BitOperations.PopCount(wideBytes) > MaxWideCharsPerBlock * sizeof(ushort))
            {
                break;
            }

            // A dash, an ellipsis or a curly quote among other words, and nothing to escape: all of the block, each
            // half in 32-bit lanes, where a char from U+0800 on by itself would cost a pass of its own and a block that
            // starts after it.
            if (escaped == Vector256<ushort>.Zero
                && !Vector256.EqualsAny(block & Vector256.Create((ushort)0xF800), Vector256.Create((ushort)0xD800)))
            {
                w += Utf8Transcoder.EncodeEightChars(block.GetLower(), ref shuffles, ref Unsafe.Add(ref target, w));
                w += Utf8Transcoder.EncodeEightChars(block.GetUpper(), ref shuffles, ref Unsafe.Add(ref target, w)) - filler;
                i += count;
                continue;
            }

            // The chars before the first to escape or from U+0800 on (filler lanes are neither): two-byte lanes, those
            // from take on NUL, one byte each, which w leaves out.
            int take = BitOperations.TrailingZeroCount((escaped | wide).AsByte().ExtractMostSignificantBits()) / sizeof(ushort);
            Debug.Assert(take < count, "a block that is not all below U+0800 without escapes has a char that stops it");
            if (take > 0)
            {
                Vector256<ushort> kept = Vector256.LessThan(Vector256<ushort>.Indices, Vector256.Create((ushort)take));
                w += Utf8Transcoder.EncodeTwoByteBlock(block & kept, ref shuffles, ref Unsafe.Add(ref target, w)) - (Lanes - take);
                i += take;
            }

            ushort c = Unsafe.Add(ref source, i);
            if (c < 0x80)
            {
                // A char to escape: its escape is ASCII, as many chars of output as bytes.
                int escapeLength = EscapeAsciiOne(c, ref Unsafe.Add(ref target, w));
                w += escapeLength;
                added += escapeLength - 1;
                i++;
            }
            else if (!char.IsSurrogate((char)c))
            {
                w += EncodeThreeBytes(c, ref Unsafe.Add(ref target, w));
                i++;
            }
            else if (char.IsHighSurrogate((char)c) && i + 1 < length && char.IsLowSurrogate((char)Unsafe.Add(ref source, i + 1)))
            {
                w += EncodePair(c, Unsafe.Add(ref source, i + 1), ref Unsafe.Add(ref target, w));
                i += 2;
            }
            else
            {
                w += EscapeUnpairedSurrogate(c, ref Unsafe.Add(ref target, w));
                added += JsonConstants.MaxEscapedCharLength - 1;
                i++;
            }
        }

    Stop:
        consumed = i;
        chars = i + added;
        return w;
    }

    // Nonzero where a lane of the block is not common: below ' ' or from U+0800 on, '"' or '\\'. Below ' ' or from
    // U+0800 on is above 0x7DF once ' ' is taken off (wrapping below it), which a saturating subtraction of 0x7DF
    // leaves nonzero.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ushort> OutsideCommon(Vector256<ushort> block) =>
        Avx2.SubtractSaturate(block - Vector256.Create((ushort)' '), Vector256.Create((ushort)(0x800 - ' ' - 1)))
        | QuoteOrBackslash(block);

    // The same for two blocks, their ranges checked at once on the larger of each pair of lanes.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ushort> OutsideCommon(Vector256<ushort> first, Vector256<ushort> second) =>
        Avx2.SubtractSaturate(
            Avx2.Max(first - Vector256.Create((ushort)' '), second - Vector256.Create((ushort)' ')),
            Vector256.Create((ushort)(0x800 - ' ' - 1)))
        | QuoteOrBackslash(first)
        | QuoteOrBackslash(second);

    // All ones in the lanes that hold '"' or '\\', and in some that are already not common (NUL, and chars from U+0800
    // on whose two bytes are each 0x00, 0x22 or 0x5C): a byte shuffle gives each byte below 0x80 the one of 0x22 and
    // 0x5C with its low four bits, or 0, and a lane is set where both its bytes equal what they were given.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ushort> QuoteOrBackslash(Vector256<ushort> block) =>
        Vector256.Equals(block, Avx2.Shuffle(QuoteAndBackslashByLowBits, block.AsByte()).AsUInt16());

    // '"' at index 2 and '\\' at 0xC, in each half: the bytes that QuoteOrBackslash's shuffle gives.
    private static Vector256<byte> QuoteAndBackslashByLowBits
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector256.Create(
            (byte)0, 0, (byte)'"', 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)'\\', 0, 0, 0,
            0, 0, (byte)'"', 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)'\\', 0, 0, 0);
    }

    // Whether every control among a block's lanes (controls) has a short escape, and each lane's letter, which is that
    // escape's letter where the lane is such a control.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ControlsHaveShortEscapes(Vector512<ushort> block, Vector512<ushort> controls, out Vector512<ushort> letters)
    {
        letters = Avx512BW.PermuteVar32x16(ControlLetters, block);
        return (controls & Vector512.Equals(letters, Vector512<ushort>.Zero)) == Vector512<ushort>.Zero;
    }

    // The same for 16 lanes: each lane's letter by its low four bits, so a control from 0x10 on has none, whatever the
    // table says.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ControlsHaveShortEscapes(Vector256<ushort> block, Vector256<ushort> controls, out Vector256<ushort> letters)
    {
        letters = Avx2.Shuffle(ControlLettersBelow0x10, block.AsByte()).AsUInt16();
        Vector256<ushort> shortForm = Vector256.LessThan(block, Vector256.Create((ushort)0x10))
            & ~Vector256.Equals(letters, Vector256<ushort>.Zero);
        return Vector256.AndNot(controls, shortForm) == Vector256<ushort>.Zero;
    }

    // For each char from 0x00 to 0x0F (indexed by a byte's low four bits, in each half), the letter of its short
    // escape, the spec's table in QuoteJSONString; 0 for those escaped as \u00XX.
    private static Vector256<byte> ControlLettersBelow0x10
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector256.Create(
            (byte)0, 0, 0, 0, 0, 0, 0, 0, (byte)'b', (byte)'t', (byte)'n', 0, (byte)'f', (byte)'r', 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, (byte)'b', (byte)'t', (byte)'n', 0, (byte)'f', (byte)'r', 0, 0);
    }

    // Writes a char from U+0800 on that is not a surrogate as its three UTF-8 bytes at target.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeThreeBytes(ushort c, ref byte target)
    {
        Debug.Assert(c >= 0x800 && !char.IsSurrogate((char)c), "a three-byte char");
        target = (byte)(0xE0 | (c >> 12));
        Unsafe.Add(ref target, 1) = (byte)(0x80 | ((c >> 6) & 0x3F));
        Unsafe.Add(ref target, 2) = (byte)(0x80 | (c & 0x3F));
        return 3;
    }

    // Writes the code point of a surrogate pair as its four UTF-8 bytes at target.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodePair(ushort high, ushort low, ref byte target)
    {
        int codePoint = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        target = (byte)(0xF0 | (codePoint >> 18));
        Unsafe.Add(ref target, 1) = (byte)(0x80 | ((codePoint >> 12) & 0x3F));
        Unsafe.Add(ref target, 2) = (byte)(0x80 | ((codePoint >> 6) & 0x3F));
        Unsafe.Add(ref target, 3) = (byte)(0x80 | (codePoint & 0x3F));
        return 4;
    }

    // For each control char (indexed by its value; the permute reads the low five bits of each lane), the letter of
    // its short escape, the spec's table in QuoteJSONString; 0 for those escaped as \u00XX.
    private static Vector512<ushort> ControlLetters
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)0, 0, 0, 0, 0, 0, 0, 0, 'b', 't', 'n', 0, 'f', 'r', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    // Writes a surrogate without its other half as \uXXXX, lowercase hex, as bytes at target; returns how many.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeUnpairedSurrogate(ushort c, ref byte target)
    {
        Debug.Assert(char.IsSurrogate((char)c), "only surrogates come here");
        target = (byte)'\\';
        Unsafe.Add(ref target, 1) = (byte)'u';
        Unsafe.Add(ref target, 2) = HexDigits[c >> 12];
        Unsafe.Add(ref target, 3) = HexDigits[(c >> 8) & 0xF];
        Unsafe.Add(ref target, 4) = HexDigits[(c >> 4) & 0xF];
        Unsafe.Add(ref target, 5) = HexDigits[c & 0xF];
        return JsonConstants.MaxEscapedCharLength;
    }
}
