using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

// QuoteJSONString straight into UTF-8, for the text of long strings that is not ASCII: the escape and the encoding
// in one pass, with the transcoder's 512-bit block encoders.
internal static partial class StringEscaper
{
    /// <summary>The least room with which <see cref="EscapeUtf8"/> moves on: a block's stores, and an escape.</summary>
    public const int MinUtf8Room = Utf8Transcoder.BlockRoom + JsonConstants.MaxEscapedCharLength;

    /// <summary>Whether <see cref="EscapeUtf8"/> can run here: the transcoder's 512-bit blocks are there.</summary>
    public static bool CanEscapeUtf8 => Utf8Transcoder.HasWideBlocks;

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, as UTF-8 into
    /// <paramref name="destination"/>, in blocks of <see cref="Utf8Transcoder.BlockLength"/> chars, each checked for
    /// the chars JSON.stringify escapes: a block of chars below U+0800 whose escapes all have a short form is encoded
    /// whole, its escapes with it; any other block up to its first char to escape, whose escape follows. Stops when
    /// the value ends, when less than <see cref="MinUtf8Room"/> bytes of room are left, or after
    /// <see cref="Utf8Transcoder.AsciiBlocksToNarrow"/> blocks in a row of ASCII that needs no escaping, which
    /// <see cref="EscapeAscii"/> takes faster. A high surrogate at the very end is escaped as unpaired, so callers cut
    /// long strings between pairs; a block never ends between the two halves of one.
    /// </summary>
    /// <param name="value">The chars to escape.</param>
    /// <param name="destination">Where the UTF-8 goes.</param>
    /// <param name="consumed">How many chars of <paramref name="value"/> were written.</param>
    /// <param name="chars">How many chars of output they are: the chars consumed and what their escapes add.</param>
    /// <returns>The number of bytes written.</returns>
    /// <remarks>Optimised from its first call and never inlined, as the transcoder is, for the same reasons.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    public static int EscapeUtf8(ReadOnlySpan<char> value, Span<byte> destination, out int consumed, out int chars)
    {
        Debug.Assert(CanEscapeUtf8, "only where the 512-bit blocks are");
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
                Vector512<ushort> letters = Avx512BW.PermuteVar32x16(ControlLetters, block);
                if ((controls & Vector512.Equals(letters, Vector512<ushort>.Zero)) == Vector512<ushort>.Zero)
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
