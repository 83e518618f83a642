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
/// three-byte chars (CJK, most symbols) in two. A block with a surrogate, the few chars at the end, and all of the text
/// where that instruction is missing go through <see cref="Utf8.FromUtf16"/>; after two ASCII blocks in a row, the
/// narrowing takes over again.
/// </summary>
internal static class Utf8Transcoder
{
    // Chars per block: one 512-bit vector.
    private const int BlockLength = 32;

    // The room a block needs: as far as the stores of a block encoded at once reach (the second half of a block of
    // three-byte chars starts up to 48 bytes in and stores 64), which is more than the most a block becomes (three
    // bytes per char; a surrogate pair is four bytes for two chars).
    private const int BlockRoom = 4 * BlockLength;

    // ASCII blocks in a row, after a char that is not ASCII, at which the runtime's narrowing takes the text again: a
    // run that long is likely to go on.
    private const int AsciiBlocksToNarrow = 2;

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
                else if (!Vector512.LessThanAny(block - Vector512.Create((ushort)0xD800), Vector512.Create((ushort)0x800)))
                {
                    // Chars of up to three bytes (CJK, most symbols), and no surrogate: the block in two halves.
                    int half = EncodeThreeByteHalf(Vector512.WidenLower(block), ref Unsafe.Add(ref bytes, w));
                    w += half + EncodeThreeByteHalf(Vector512.WidenUpper(block), ref Unsafe.Add(ref bytes, w + half));
                }
                else
                {
                    // A surrogate, paired (four bytes) or not (U+FFFD): the runtime's transcoder takes the block, and
                    // stops before a high surrogate at its end (NeedMoreData), which the next block then starts with.
                    OperationStatus status = Utf8.FromUtf16(
                        source.Slice(i, BlockLength), destination[w..], out int blockRead, out int blockWritten, replaceInvalidSequences: true, isFinalBlock: false);
                    Debug.Assert(status != OperationStatus.DestinationTooSmall, "the room holds three bytes per char");
                    Debug.Assert(blockRead > 0, "a block moves on");
                    i += blockRead;
                    w += blockWritten;
                    continue;
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

    // Writes half a block (16 chars, widened to 32-bit lanes) of chars that are not surrogates as UTF-8 at destination,
    // which has room for 64 bytes; returns how many bytes it took. Each lane holds the char's bytes in memory order:
    // its lead byte (the ASCII byte, 110xxxxx or 1110xxxx), then one or two continuation bytes (10xxxxxx); the
    // compress keeps the lead byte, the first continuation byte from U+0080 on, and the second from U+0800 on.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeThreeByteHalf(Vector512<uint> half, ref byte destination)
    {
        Vector512<uint> twoOrMore = Vector512.GreaterThan(half, Vector512.Create(0x7Fu));
        Vector512<uint> three = Vector512.GreaterThan(half, Vector512.Create(0x7FFu));
        Vector512<uint> lead = Vector512.ConditionalSelect(
            three,
            Vector512.ShiftRightLogical(half, 12) | Vector512.Create(0xE0u),
            Vector512.ConditionalSelect(twoOrMore, Vector512.ShiftRightLogical(half, 6) | Vector512.Create(0xC0u), half));
        Vector512<uint> low = (half & Vector512.Create(0x3Fu)) | Vector512.Create(0x80u);
        Vector512<uint> middle = (Vector512.ShiftRightLogical(half, 6) & Vector512.Create(0x3Fu)) | Vector512.Create(0x80u);

        // Two bytes: lead, low. Three bytes: lead, middle, low.
        Vector512<uint> second = Vector512.ConditionalSelect(three, middle, low);
        Vector512<uint> lanes = lead | Vector512.ShiftLeft(second, 8) | Vector512.ShiftLeft(low, 16);
        Vector512<uint> kept = Vector512.Create(0xFFu)
            | (twoOrMore & Vector512.Create(0xFF00u))
            | (three & Vector512.Create(0xFF0000u));
        Avx512Vbmi2.Compress(Vector512<byte>.Zero, kept.AsByte(), lanes.AsByte()).StoreUnsafe(ref destination);
        return BlockLength / 2
            + BitOperations.PopCount(twoOrMore.ExtractMostSignificantBits())
            + BitOperations.PopCount(three.ExtractMostSignificantBits());
    }
}
