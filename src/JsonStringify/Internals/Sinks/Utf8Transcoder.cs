using System.Buffers;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using System.Text;
using System.Text.Unicode;

namespace JsonStringify.Internals;

/// <summary>
/// UTF-16 to UTF-8 for the UTF-8 sinks, as <see cref="Utf8.FromUtf16"/> with invalid sequences replaced and more data
/// to come. Runs of ASCII go through the runtime's narrowing (<see cref="Ascii.FromUtf16"/>). From a char that is not
/// ASCII on, the text goes in blocks of <see cref="BlockLength"/> chars, each encoded at once with a compress
/// instruction (AVX-512 VBMI2): every char's bytes are laid out in a lane of their own, and the compress packs the
/// bytes each char needs; a block of two-byte chars (Latin, Greek, Cyrillic, Hebrew, Arabic) in one vector, one of
/// three-byte chars (CJK, most symbols) or surrogate pairs (emoji) in two. A block with a surrogate that is not half of
/// a pair in it, the few chars at the end, and all of the text where that instruction is missing go through
/// <see cref="Utf8.FromUtf16"/>; after eight ASCII blocks in a row, the narrowing takes over again.
/// </summary>
internal static class Utf8Transcoder
{
    // Chars per block: one 512-bit vector.
    private const int BlockLength = 32;

    // The room a block needs: as far as the stores of a block encoded at once reach (the second half of a block starts
    // up to 49 bytes in, after 15 three-byte chars and a pair that ends in it, and stores 64), which is more than the
    // most a block becomes (three bytes per char; a surrogate pair is four bytes for two chars).
    private const int BlockRoom = 4 * BlockLength;

    // ASCII blocks in a row, after a char that is not ASCII, at which the runtime's narrowing takes the text again: a
    // run that long is likely to go on. The runs between a document's strings that are not ASCII are mostly shorter,
    // and a call to the narrowing for each of those costs more than the block loop's narrowing.
    private const int AsciiBlocksToNarrow = 8;

    // For a block's lanes, the lane after each (the last lane's own for itself): the successor of every char. A
    // constant the JIT embeds in the code once the property is inlined, which FromUtf16, compiled without a profile, does
    // only when told to.
    private static Vector512<ushort> NextLane
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31);
    }

    /// <summary>
    /// Encodes <paramref name="source"/> into <paramref name="destination"/>; returns what <see cref="Utf8.FromUtf16"/>
    /// returns for the same text with <c>replaceInvalidSequences: true, isFinalBlock: false</c>, and the same counts.
    /// </summary>
    /// <remarks>
    /// Optimised from its first call: unoptimised, its vector code runs several times slower than the runtime's
    /// transcoder, and a process's first calls would pay for that. Never inlined: inlined into the sink, it left its
    /// block encoders out of line, passing each 512-bit vector through memory, which made it slower than the runtime's.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    public static OperationStatus FromUtf16(ReadOnlySpan<char> source, Span<byte> destination, out int read, out int written)
    {
        int i = 0;
        int w = 0;
        if (Avx512Vbmi2.IsSupported && Vector512.IsHardwareAccelerated)
        {
            ref ushort chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(source));
            ref byte bytes = ref MemoryMarshal.GetReference(destination);

            // The text up to its first char that is not ASCII, at the runtime's own speed: all of it, for most output.
            OperationStatus ascii = Ascii.FromUtf16(source, destination, out int narrowed);
            if (ascii == OperationStatus.Done)
            {
                read = written = narrowed;
                return OperationStatus.Done;
            }

            i = w = narrowed;

            // Whole ASCII blocks in a row since the last char that is not ASCII.
            int asciiBlocks = 0;
            while (ascii == OperationStatus.InvalidData && source.Length - i >= BlockLength && destination.Length - w >= BlockRoom)
            {
                Vector512<ushort> block = Vector512.LoadUnsafe(ref chars, (nuint)i);
                if ((block & Vector512.Create((ushort)0xFF80)) == Vector512<ushort>.Zero)
                {
                    Avx512BW.ConvertToVector256Byte(block).StoreUnsafe(ref Unsafe.Add(ref bytes, w));
                    i += BlockLength;
                    w += BlockLength;
                    if (++asciiBlocks == AsciiBlocksToNarrow)
                    {
                        asciiBlocks = 0;
                        ascii = Ascii.FromUtf16(source[i..], destination[w..], out narrowed);
                        i += narrowed;
                        w += narrowed;
                    }

                    continue;
                }

                asciiBlocks = 0;
                if (Vector512.LessThanAll(block, Vector512.Create((ushort)0x800)))
                {
                    w += EncodeTwoByteBlock(block, ref Unsafe.Add(ref bytes, w));
                }
                else
                {
                    // Chars of up to three bytes (CJK, most symbols) and surrogate pairs: the block in two halves, each
                    // char's lane seeing the char after it. A surrogate without its other half (U+FFFD), or a high
                    // surrogate last in the block, whose pair the next block holds: the runtime's transcoder takes the
                    // block, and stops before a high surrogate at its end (NeedMoreData), which the next block then
                    // starts with.
                    Vector512<ushort> kind = block & Vector512.Create((ushort)0xFC00);
                    ulong high = Vector512.Equals(kind, Vector512.Create((ushort)0xD800)).ExtractMostSignificantBits();
                    ulong low = Vector512.Equals(kind, Vector512.Create((ushort)0xDC00)).ExtractMostSignificantBits();
                    // Pairs only: every high surrogate has a low one next, and every low one a high one before it.
                    if (high != low >> 1 || (low & 1) != 0)
                    {
                        OperationStatus status = Utf8.FromUtf16(
                            source.Slice(i, BlockLength), destination[w..], out int blockRead, out int blockWritten, replaceInvalidSequences: true, isFinalBlock: false);
                        Debug.Assert(status != OperationStatus.DestinationTooSmall, "the room holds three bytes per char");
                        Debug.Assert(blockRead > 0, "a block moves on");
                        i += blockRead;
                        w += blockWritten;
                        continue;
                    }

                    if (high == 0)
                    {
                        int half = EncodeHalf(Vector512.WidenLower(block), default, surrogates: false, ref Unsafe.Add(ref bytes, w));
                        w += half + EncodeHalf(Vector512.WidenUpper(block), default, surrogates: false, ref Unsafe.Add(ref bytes, w + half));
                    }
                    else
                    {
                        // Each char's successor, the last lane's being a char no pair needs (the checks above put no high
                        // surrogate there).
                        Vector512<ushort> next = Vector512.Shuffle(block, NextLane);
                        int half = EncodeHalf(Vector512.WidenLower(block), Vector512.WidenLower(next), surrogates: true, ref Unsafe.Add(ref bytes, w));
                        w += half + EncodeHalf(Vector512.WidenUpper(block), Vector512.WidenUpper(next), surrogates: true, ref Unsafe.Add(ref bytes, w + half));
                    }
                }

                i += BlockLength;
            }
        }

        OperationStatus rest = Utf8.FromUtf16(source[i..], destination[w..], out int restRead, out int restWritten, replaceInvalidSequences: true, isFinalBlock: false);
        read = i + restRead;
        written = w + restWritten;
        return rest;
    }

    // Writes a block of chars below U+0800 as UTF-8 at destination, which has room for BlockRoom; returns how many
    // bytes it took. Each char becomes a 16-bit lane holding its lead byte and its continuation byte (110xxxxx
    // 10xxxxxx, in memory order), or its ASCII byte and a byte to drop; the compress keeps every lead byte and the
    // continuation bytes of the chars that are not ASCII, in order.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeTwoByteBlock(Vector512<ushort> block, ref byte destination)
    {
        Vector512<ushort> notAscii = Vector512.GreaterThan(block, Vector512.Create((ushort)0x7F));
        ulong twoByteChars = notAscii.ExtractMostSignificantBits();

        Vector512<ushort> lead = Vector512.ConditionalSelect(
            notAscii, Vector512.ShiftRightLogical(block, 6) | Vector512.Create((ushort)0xC0), block);
        Vector512<ushort> continuation = (block & Vector512.Create((ushort)0x3F)) | Vector512.Create((ushort)0x80);
        Vector512<byte> pairs = (lead | Vector512.ShiftLeft(continuation, 8)).AsByte();
        Vector512<byte> kept = (notAscii | Vector512.Create((ushort)0x00FF)).AsByte();
        Avx512Vbmi2.Compress(Vector512<byte>.Zero, kept, pairs).StoreUnsafe(ref destination);
        return BlockLength + BitOperations.PopCount(twoByteChars);
    }

    // Writes half a block (16 chars, widened to 32-bit lanes) as UTF-8 at destination, which has room for 64 bytes;
    // returns how many bytes it took. next holds each char's successor, read only with surrogates: then every high
    // surrogate has its low surrogate next, and every low surrogate its high surrogate before it. Each lane holds the
    // char's bytes in memory order: its lead byte (the ASCII byte, 110xxxxx, 1110xxxx, or 11110xxx for a pair), then
    // up to three continuation bytes (10xxxxxx); the compress keeps the lead byte, the first continuation byte from
    // U+0080 on, the second from U+0800 on, and the third for a pair. A low surrogate's lane keeps nothing: its bits
    // are in the pair's lane.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeHalf(Vector512<uint> half, Vector512<uint> next, bool surrogates, ref byte destination)
    {
        // Lane masks (all ones or zero): the chars that keep a byte at all, and the pairs.
        Vector512<uint> notLow = Vector512<uint>.AllBitsSet;
        Vector512<uint> pair = Vector512<uint>.Zero;
        Vector512<uint> value = half;
        if (surrogates)
        {
            Vector512<uint> kind = half & Vector512.Create(0xFC00u);
            pair = Vector512.Equals(kind, Vector512.Create(0xD800u));
            notLow = ~Vector512.Equals(kind, Vector512.Create(0xDC00u));

            // 0x10000 + (high - 0xD800) × 2^10 + (low - 0xDC00).
            value = Vector512.ConditionalSelect(pair, Vector512.ShiftLeft(half, 10) + next - Vector512.Create(0x35F_DC00u), half);
        }

        Vector512<uint> twoOrMore = Vector512.GreaterThan(value, Vector512.Create(0x7Fu)) & notLow;
        Vector512<uint> threeOrMore = Vector512.GreaterThan(value, Vector512.Create(0x7FFu)) & notLow;
        Vector512<uint> low = (value & Vector512.Create(0x3Fu)) | Vector512.Create(0x80u);
        Vector512<uint> middle = (Vector512.ShiftRightLogical(value, 6) & Vector512.Create(0x3Fu)) | Vector512.Create(0x80u);
        Vector512<uint> lead = Vector512.ConditionalSelect(
            threeOrMore,
            Vector512.ShiftRightLogical(value, 12) | Vector512.Create(0xE0u),
            Vector512.ConditionalSelect(twoOrMore, Vector512.ShiftRightLogical(value, 6) | Vector512.Create(0xC0u), value));

        // One byte: the ASCII byte. Two: lead, low. Three: lead, middle, low.
        Vector512<uint> lanes = lead
            | Vector512.ShiftLeft(Vector512.ConditionalSelect(threeOrMore, middle, low), 8)
            | Vector512.ShiftLeft(low, 16);
        Vector512<uint> keptBytes = (notLow & Vector512.Create(0xFFu))
            | (twoOrMore & Vector512.Create(0xFF00u))
            | (threeOrMore & Vector512.Create(0xFF0000u));
        int length = BitOperations.PopCount(notLow.ExtractMostSignificantBits())
            + BitOperations.PopCount(twoOrMore.ExtractMostSignificantBits())
            + BitOperations.PopCount(threeOrMore.ExtractMostSignificantBits());
        if (surrogates)
        {
            // Four: 11110xxx, then the top, middle and low six bits.
            Vector512<uint> top = (Vector512.ShiftRightLogical(value, 12) & Vector512.Create(0x3Fu)) | Vector512.Create(0x80u);
            Vector512<uint> pairLanes = Vector512.ShiftRightLogical(value, 18) | Vector512.Create(0xF0u)
                | Vector512.ShiftLeft(top, 8) | Vector512.ShiftLeft(middle, 16) | Vector512.ShiftLeft(low, 24);
            lanes = Vector512.ConditionalSelect(pair, pairLanes, lanes);
            keptBytes |= pair;
            length += BitOperations.PopCount(pair.ExtractMostSignificantBits());
        }

        Avx512Vbmi2.Compress(Vector512<byte>.Zero, keptBytes.AsByte(), lanes.AsByte()).StoreUnsafe(ref destination);
        return length;
    }
}
