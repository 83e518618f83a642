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
/// bytes each char needs; a block of two-byte chars (Latin, Greek, Cyrillic, Hebrew, Arabic), with or without surrogate
/// pairs (emoji), in one vector, one with three-byte chars (CJK, most symbols) in two; the text's last chars, fewer
/// than a block, are a block whose other lanes are NUL. A block with a surrogate that is not half of a pair in it goes
/// through <see cref="Utf8.FromUtf16"/>; after eight ASCII blocks in a row, the narrowing takes over again. Where those
/// instructions (and AVX-512 CD's leading-zero count) are missing but SSSE3 is there, blocks of eight chars go the same
/// way in 128-bit vectors (four at a time where all of them are below U+0800, where none is a surrogate, or where their
/// surrogates are all in pairs among them; with AVX2, four below U+0800, pairs among them or not, as two blocks of
/// sixteen in 256-bit vectors), each packed by byte shuffles, pairs among them and pairs that a block's end cuts
/// included, a block with a surrogate without its other half char by char, and the last chars, fewer than eight,
/// through <see cref="Utf8.FromUtf16"/> (EncodeEightCharBlocks). Without either, all of the text goes through
/// <see cref="Utf8.FromUtf16"/>. The 512-bit block encoders (EncodeBlock, EncodeTwoByteBlock) also serve the writer's
/// escaper of long strings (<see cref="StringEscaper.EscapeUtf8"/>), which encodes as it escapes.
/// </summary>
internal static class Utf8Transcoder
{
    // Chars per block: one 512-bit vector.
    internal const int BlockLength = 32;

    // The room a block needs: as far as the stores of a block encoded at once reach (the second half of a block starts
    // up to 49 bytes in, after 15 three-byte chars and a pair that ends in it, and stores 64), which is more than the
    // most a block becomes (three bytes per char; a surrogate pair is four bytes for two chars).
    internal const int BlockRoom = 4 * BlockLength;

    // ASCII blocks in a row, after a char that is not ASCII, at which the runtime's narrowing takes the text again: a
    // run that long is likely to go on. The runs between a document's strings that are not ASCII are mostly shorter,
    // and a call to the narrowing for each of those costs more than the block loop's narrowing.
    internal const int AsciiBlocksToNarrow = 8;

    // For a block's lanes, the lane after each (the last lane's own for itself): the successor of every char. A
    // constant the JIT embeds in the code once the property is inlined, which FromUtf16, compiled without a profile,
    // does only when told to.
    private static Vector512<ushort> NextLane
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 31);
    }

    // For a block's lanes, the lane before each (the first lane's own for itself): the predecessor of every char.
    private static Vector512<ushort> PreviousLane
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
    }

    // The last lane of a block, all its bits set, and its bit in a mask of a block's lanes.
    private static Vector512<ushort> LastLane
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(0UL, 0, 0, 0, 0, 0, 0, 0xFFFF_0000_0000_0000).AsUInt16();
    }

    private const ulong LastLaneBit = 1UL << (BlockLength - 1);

    // Set in a low surrogate's lane for EncodeHalf: its one leading zero picks the entry of ByLength that keeps no
    // byte.
    private const uint LowSurrogateMark = 0x4000_0000;

    /// <summary>Whether the blocks of <see cref="BlockLength"/> chars, encoded at once, are there (AVX-512 VBMI2 and
    /// CD). A static readonly field, not a property: optimised code reads it as a constant as it imports a method, so
    /// the branch that cannot run is dropped before the JIT inlines into it, where behind a property it inlines into
    /// both branches first and may run out of its inlining budget before the small methods of the branch that runs.
    /// </summary>
    internal static readonly bool HasWideBlocks = Avx512Vbmi2.IsSupported && Avx512CD.IsSupported && Vector512.IsHardwareAccelerated;

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

        // Both vector paths (the 512-bit instructions imply SSSE3) first take the text up to its first char that is not
        // ASCII at the runtime's own speed: all of it, for most output. So each path's block loop, a large method
        // compiled when it is first called, is compiled only once the output has such a char, never for ASCII output.
        OperationStatus ascii = OperationStatus.Done;
        if (Ssse3.IsSupported)
        {
            ascii = NarrowAscii(source, destination, ref i, ref w);
            if (ascii == OperationStatus.Done)
            {
                read = i;
                written = w;
                return OperationStatus.Done;
            }
        }

        if (ascii == OperationStatus.InvalidData)
        {
            (i, w) = HasWideBlocks ? EncodeWideBlocks(source, destination, i) : EncodeEightCharBlocks(source, destination, i);
        }

        OperationStatus rest = Utf8.FromUtf16(source[i..], destination[w..], out int restRead, out int restWritten, replaceInvalidSequences: true, isFinalBlock: false);
        read = i + restRead;
        written = w + restWritten;
        return rest;
    }

    // FromUtf16's loop where the processor has the 512-bit instructions: from start, the first char that is not ASCII
    // (the runtime's narrowing took the ASCII before it), blocks of BlockLength chars, until the text or the room runs
    // out, or the narrowing has taken the rest after a run of ASCII. Returns the chars read and the bytes written,
    // which are what Utf8.FromUtf16 writes for the same chars. A method of its own, optimised from its first call and
    // never inlined, as EncodeEightCharBlocks is: inside FromUtf16, a processor without these instructions had its
    // compiler inline the vector methods' fallbacks throughout the loop before dropping it, which made compiling
    // FromUtf16, at a process's first UTF-8 call, take 50 ms and more.
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private static (int Read, int Written) EncodeWideBlocks(ReadOnlySpan<char> source, Span<byte> destination, int start)
    {
        Debug.Assert(HasWideBlocks, "only where the 512-bit blocks are");
        Debug.Assert(start < source.Length && !char.IsAscii(source[start]), "the loop starts at a char that is not ASCII");
        int i = start;
        int w = start;
        OperationStatus ascii = OperationStatus.InvalidData;
        Debug.Assert(Ssse3.IsSupported, "the 512-bit instructions come with SSSE3, so the ASCII before them was taken");
        ref ushort chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(source));
        ref byte bytes = ref MemoryMarshal.GetReference(destination);

        // The blocks end before a high surrogate that ends the text: its low one may start the next text.
        int end = char.IsHighSurrogate(source[^1]) ? source.Length - 1 : source.Length;

        // Whole ASCII blocks in a row since the last char that is not ASCII.
        int asciiBlocks = 0;
        while (ascii == OperationStatus.InvalidData && i < end && destination.Length - w >= BlockRoom)
        {
            // The text's chars in this block: all its lanes, or at the text's end the first few, the others NUL.
            // A NUL lane writes one byte, after the bytes of the lanes before it (the compress keeps their order),
            // which w leaves out, so that the next write goes over it.
            int count = end - i;
            Vector512<ushort> block;
            if (count >= BlockLength)
            {
                count = BlockLength;
                block = Vector512.LoadUnsafe(ref chars, (nuint)i);
            }
            else
            {
                block = LoadFirstLanes(ref Unsafe.Add(ref chars, i), count);
            }

            if ((block & Vector512.Create((ushort)0xFF80)) == Vector512<ushort>.Zero)
            {
                Avx512BW.ConvertToVector256Byte(block).StoreUnsafe(ref Unsafe.Add(ref bytes, w));
                i += count;
                w += count;
                if (++asciiBlocks == AsciiBlocksToNarrow)
                {
                    asciiBlocks = 0;
                    ascii = NarrowAscii(source, destination, ref i, ref w);
                }

                continue;
            }

            asciiBlocks = 0;

            // The chars this block encodes: all of the text's, or all but a high surrogate at the end.
            int take = count;
            int encoded;
            if (Vector512.LessThanAll(block, Vector512.Create((ushort)0x800)))
            {
                encoded = EncodeTwoByteBlock(block, ref Unsafe.Add(ref bytes, w));
            }
            else
            {
                // Three-byte chars (CJK, most symbols) or surrogates.
                Vector512<ushort> kind = block & Vector512.Create((ushort)0xFC00);
                Vector512<ushort> highLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xD800));
                Vector512<ushort> lowLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xDC00));
                ulong high = highLanes.ExtractMostSignificantBits();
                ulong low = lowLanes.ExtractMostSignificantBits();
                if ((high & LastLaneBit) != 0)
                {
                    // A high surrogate last, whose low one (if any) comes after the block: the block stops
                    // before it, and the next block starts with it. Its lane becomes NUL: one byte, the last the
                    // block writes (the compress keeps the lanes' order), which w leaves out so that the next block
                    // writes over it.
                    block = Vector512.AndNot(block, LastLane);
                    highLanes = Vector512.AndNot(highLanes, LastLane);
                    high &= ~LastLaneBit;
                    take = BlockLength - 1;
                }

                // Pairs only: every high surrogate has a low one next, and every low one a high one before it.
                // Otherwise a surrogate without its other half (U+FFFD): the runtime's transcoder takes the block.
                if (high != low >> 1 || (low & 1) != 0)
                {
                    // The block's chars, and a high surrogate left out of the last block: then the transcoder
                    // stops before it, having read the block.
                    OperationStatus status = Utf8.FromUtf16(
                        source.Slice(i, Math.Min(BlockLength, source.Length - i)), destination[w..], out int blockRead, out int blockWritten, replaceInvalidSequences: true, isFinalBlock: false);
                    Debug.Assert(status != OperationStatus.DestinationTooSmall, "the room holds three bytes per char");
                    Debug.Assert(blockRead > 0, "a block moves on");
                    i += blockRead;
                    w += blockWritten;
                    continue;
                }

                // The encoder for the block's widths. A block here is below U+0800 only where its one surrogate
                // was a high one left for the next block: a whole block below U+0800 was encoded above.
                Debug.Assert(
                    high != 0 || take < BlockLength || !Vector512.LessThanAll(block, Vector512.Create((ushort)0x800)),
                    "a whole block below U+0800 was encoded above");
                encoded = EncodeBlock(block, highLanes, lowLanes, pairs: high != 0, ref Unsafe.Add(ref bytes, w));
            }

            // Less the bytes of the NUL lanes: those past the text's end, and that of a high surrogate left for the
            // next block.
            w += encoded - (BlockLength - take);
            i += take;
        }

        return (i, w);
    }

    // The first count chars of a block at chars, the other lanes filler (NUL for the transcoder). A masked load:
    // nothing past those chars is read, so the text's last chars make a block without reading past its end.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static unsafe Vector512<ushort> LoadFirstLanes(ref ushort chars, int count, ushort filler = 0)
    {
        Debug.Assert(count is > 0 and < BlockLength, "a block with fewer chars than lanes");
        Vector512<ushort> lanes = Vector512.LessThan(Vector512<ushort>.Indices, Vector512.Create((ushort)count));
        fixed (ushort* first = &chars)
        {
            return Avx512BW.MaskLoad(first, lanes, Vector512.Create(filler));
        }
    }

    // The text from i on handed to the runtime's narrowing, which goes as far as it is ASCII and there is room; i and w
    // move past what it narrowed. InvalidData when it stopped at a char that is not ASCII, so that the caller's loop
    // goes on from there; otherwise the text or the room has run out.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static OperationStatus NarrowAscii(ReadOnlySpan<char> source, Span<byte> destination, ref int i, ref int w)
    {
        OperationStatus status = Ascii.FromUtf16(source[i..], destination[w..], out int narrowed);
        i += narrowed;
        w += narrowed;
        return status;
    }

    // Chars per block where the 512-bit instructions are missing: one 128-bit vector.
    private const int EightChars = 8;

    // The room an eight-char block needs: as far as its stores reach. Eight three-byte chars store two vectors of 16
    // bytes; the second half of a block in 32-bit lanes stores 16 from up to 12 bytes in; a block char by char writes
    // at most 25 (seven three-byte chars and a pair that the block's end cuts).
    private const int EightCharRoom = 32;

    // ASCII blocks of eight in a row at which the runtime's narrowing takes the text again: as many chars as
    // AsciiBlocksToNarrow blocks of 32.
    private const int AsciiEightCharBlocksToNarrow = AsciiBlocksToNarrow * BlockLength / EightChars;

    // Blocks of eight looked at together, as a group: four that are all ASCII, or all below U+0800, are encoded without
    // a branch per block. In text that mixes ASCII with other chars below U+0800 (accented Latin, Cyrillic, Arabic),
    // whether a block is ASCII or not is a branch the processor mostly mispredicts.
    private const int GroupBlocks = 4;

    private const int GroupChars = GroupBlocks * EightChars;

    // The room a group needs: as far as its stores reach. Each block below U+0800 stores 16 bytes where the block
    // before ended, which is at most 16 bytes on.
    private const int GroupRoom = GroupBlocks * 2 * EightChars;

    // The room a group of every width needs: the last block starts at most three bytes a char on, and stores as far
    // as a block does (EightCharRoom).
    private const int MixedGroupRoom = (3 * (GroupBlocks - 1) * EightChars) + EightCharRoom;

    // The byte shuffles that pack a block's lanes, 0x80 (a zero) past the bytes kept. First TwoByteShuffleCount, one
    // for each mask of the chars of an eight-char block that take two bytes (bit k for char k): each 16-bit lane's
    // first byte, then its second where the char takes two. Then FourCharShuffleCount, one for each set of codes of
    // four chars, two bits per char (the low one set where it takes two bytes or more, the high one where it takes
    // three): each 32-bit lane's first one, two or three bytes.
    private static readonly byte[] s_shuffles = MakeShuffles();

    private const int TwoByteShuffleCount = 256;

    private const int FourCharShuffleCount = 256;

    private static byte[] MakeShuffles()
    {
        byte[] shuffles = new byte[(TwoByteShuffleCount + FourCharShuffleCount) * Vector128<byte>.Count];
        shuffles.AsSpan().Fill(0x80);
        for (int mask = 0; mask < TwoByteShuffleCount; mask++)
        {
            Span<byte> shuffle = shuffles.AsSpan(mask * Vector128<byte>.Count, Vector128<byte>.Count);
            int at = 0;
            for (int lane = 0; lane < EightChars; lane++)
            {
                shuffle[at++] = (byte)(2 * lane);
                if ((mask & (1 << lane)) != 0)
                {
                    shuffle[at++] = (byte)((2 * lane) + 1);
                }
            }
        }

        for (int codes = 0; codes < FourCharShuffleCount; codes++)
        {
            Span<byte> shuffle = shuffles.AsSpan((TwoByteShuffleCount + codes) * Vector128<byte>.Count, Vector128<byte>.Count);
            int at = 0;
            for (int lane = 0; lane < 4; lane++)
            {
                // A code of 2 (three bytes, not two) never comes; it too is one byte more per bit.
                int length = 1 + BitOperations.PopCount((uint)(codes >> (2 * lane)) & 3);
                for (int b = 0; b < length; b++)
                {
                    shuffle[at++] = (byte)((4 * lane) + b);
                }
            }
        }

        return shuffles;
    }

    // FromUtf16's loop where the processor has SSSE3 but not the 512-bit instructions: from start, the first char that
    // is not ASCII (the runtime's narrowing took the ASCII before it), blocks of eight chars, four at a time where they
    // are all ASCII, all below U+0800, without a surrogate and not all from U+0800 on, or with surrogates all in pairs
    // among the four (a group). ASCII is narrowed in the loop, until enough comes in a row to hand the text to the
    // narrowing again; a block of chars below U+0800 becomes a 16-bit lane per char, packed by one byte shuffle
    // (EncodeTwoByteBlock), and with AVX2 a group of such chars, with or without pairs among them, two blocks of
    // sixteen in 256-bit vectors; a block of three-byte chars, and the blocks like it after it, three bytes a char in
    // fixed shuffles (EncodeThreeByteBlock); any other block whose surrogates are all in pairs, a pair that the block's
    // end cuts included, two halves of four 32-bit lanes (EncodeMixedBlock); a block with a surrogate without its other
    // half goes char by char (Rune). Stops where fewer than eight chars or less than EightCharRoom bytes of room are
    // left, or before a high surrogate that ends the text. Returns the chars read and the bytes written, which are what
    // Utf8.FromUtf16 writes for the same chars. Optimised from its first call, as FromUtf16 is; never inlined, so that
    // FromUtf16's first call does not compile it.
    [MethodImpl(MethodImplOptions.AggressiveOptimization | MethodImplOptions.NoInlining)]
    private static (int Read, int Written) EncodeEightCharBlocks(ReadOnlySpan<char> source, Span<byte> destination, int start)
    {
        Debug.Assert(start < source.Length && !char.IsAscii(source[start]), "the loop starts at a char that is not ASCII");
        ref ushort chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(source));
        ref byte bytes = ref MemoryMarshal.GetReference(destination);
        ref byte shuffles = ref MemoryMarshal.GetArrayDataReference(s_shuffles);
        int i = start;
        int w = start;
        int asciiBlocks = 0;
        while (source.Length - i >= EightChars && destination.Length - w >= EightCharRoom)
        {
            if (source.Length - i >= GroupChars && destination.Length - w >= GroupRoom)
            {
                ref ushort at = ref Unsafe.Add(ref chars, i);
                Vector128<ushort> b0 = Vector128.LoadUnsafe(ref at);
                Vector128<ushort> b1 = Vector128.LoadUnsafe(ref at, EightChars);
                Vector128<ushort> b2 = Vector128.LoadUnsafe(ref at, 2 * EightChars);
                Vector128<ushort> b3 = Vector128.LoadUnsafe(ref at, 3 * EightChars);
                Vector128<ushort> highest = Vector128.Max(Vector128.Max(b0, b1), Vector128.Max(b2, b3));
                if (Vector128.LessThanAll(highest, Vector128.Create((ushort)0x80)))
                {
                    ref byte to = ref Unsafe.Add(ref bytes, w);
                    Sse2.PackUnsignedSaturate(b0.AsInt16(), b1.AsInt16()).StoreUnsafe(ref to);
                    Sse2.PackUnsignedSaturate(b2.AsInt16(), b3.AsInt16()).StoreUnsafe(ref to, 2 * EightChars);
                    i += GroupChars;
                    w += GroupChars;
                    asciiBlocks += GroupBlocks;
                    if (asciiBlocks >= AsciiEightCharBlocksToNarrow)
                    {
                        asciiBlocks = 0;
                        if (NarrowAscii(source, destination, ref i, ref w) != OperationStatus.InvalidData)
                        {
                            return (i, w);
                        }
                    }

                    continue;
                }

                if (Vector128.LessThanAll(highest, Vector128.Create((ushort)0x800)))
                {
                    asciiBlocks = 0;
                    if (HasSixteenCharBlocks)
                    {
                        w += EncodeTwoByteBlocks(Vector256.Create(b0, b1), Vector256.Create(b2, b3), ref shuffles, ref Unsafe.Add(ref bytes, w));
                    }
                    else
                    {
                        w += EncodeTwoByteBlock(b0, ref shuffles, ref Unsafe.Add(ref bytes, w));
                        w += EncodeTwoByteBlock(b1, ref shuffles, ref Unsafe.Add(ref bytes, w));
                        w += EncodeTwoByteBlock(b2, ref shuffles, ref Unsafe.Add(ref bytes, w));
                        w += EncodeTwoByteBlock(b3, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    }

                    i += GroupChars;
                    continue;
                }

                // Chars of every width but no surrogate, some of them below U+0800 (names in kana, Hangul or Han among
                // ASCII): four blocks in 32-bit lanes, where a block at a time would take a branch per block, and the
                // groups after it would be tried and fail again while the chars from U+0800 on are in them. A group
                // of chars all from U+0800 on goes a block at a time, as three-byte blocks, which are cheaper.
                Vector128<ushort> surrogateStart = Vector128.Create((ushort)0xD800);
                Vector128<ushort> fromSurrogates = Vector128.Min(
                    Vector128.Min(b0 - surrogateStart, b1 - surrogateStart), Vector128.Min(b2 - surrogateStart, b3 - surrogateStart));
                Vector128<ushort> lowest = Vector128.Min(Vector128.Min(b0, b1), Vector128.Min(b2, b3));
                if (Vector128.GreaterThanOrEqualAll(fromSurrogates, Vector128.Create((ushort)0x800))
                    && Vector128.LessThanAny(lowest, Vector128.Create((ushort)0x800))
                    && destination.Length - w >= MixedGroupRoom)
                {
                    asciiBlocks = 0;
                    w += EncodeMixedBlock(b0, pairs: false, default, default, default, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    w += EncodeMixedBlock(b1, pairs: false, default, default, default, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    w += EncodeMixedBlock(b2, pairs: false, default, default, default, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    w += EncodeMixedBlock(b3, pairs: false, default, default, default, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    i += GroupChars;
                    continue;
                }

                // Surrogates, all of them in pairs within the group (emoji in text): its four blocks in turn, each
                // seeing the one before it, so that a pair two blocks share is encoded in place. Below U+0800 apart
                // from the pairs (emoji among Latin or Cyrillic), in 16-bit lanes as a block of two-byte chars is;
                // with chars from U+0800 on, in 32-bit lanes. In a loop, so that each encoder is compiled into this
                // method once, not four times: the method is compiled at its first call, which waits for it.
                if (Vector128.LessThanAny(fromSurrogates, Vector128.Create((ushort)0x800)) && destination.Length - w >= MixedGroupRoom)
                {
                    Vector128<ushort> kinds = Vector128.Create((ushort)0xFC00);
                    Vector128<ushort> highStart = Vector128.Create((ushort)0xD800);
                    Vector128<ushort> lowStart = Vector128.Create((ushort)0xDC00);
                    uint groupHigh = LaneBits(
                        Vector128.Equals(b0 & kinds, highStart),
                        Vector128.Equals(b1 & kinds, highStart),
                        Vector128.Equals(b2 & kinds, highStart),
                        Vector128.Equals(b3 & kinds, highStart));
                    uint groupLow = LaneBits(
                        Vector128.Equals(b0 & kinds, lowStart),
                        Vector128.Equals(b1 & kinds, lowStart),
                        Vector128.Equals(b2 & kinds, lowStart),
                        Vector128.Equals(b3 & kinds, lowStart));

                    // Every high surrogate has its low one next in the group, and every low one its high one before.
                    if (groupHigh << 1 == groupLow && (int)groupHigh >= 0)
                    {
                        asciiBlocks = 0;
                        Vector128<ushort> widest = Vector128.Max(
                            Vector128.Max(SurrogatesBelowU0800(b0), SurrogatesBelowU0800(b1)),
                            Vector128.Max(SurrogatesBelowU0800(b2), SurrogatesBelowU0800(b3)));
                        bool belowU0800 = Vector128.LessThanAll(widest, Vector128.Create((ushort)0x800));
                        if (belowU0800 && HasSixteenCharBlocks)
                        {
                            // Two blocks of sixteen. The group's first char is never a low surrogate, so the first
                            // block's predecessor is never read.
                            Vector256<ushort> previousBlock = default;
                            for (int k = 0; k < GroupChars; k += SixteenChars)
                            {
                                Vector256<ushort> sixteen = Vector256.LoadUnsafe(ref at, (nuint)k);
                                Vector256<ushort> sixteenKinds = sixteen & Vector256.Create((ushort)0xFC00);
                                w += EncodeTwoBytesAndPairsBlock(
                                    sixteen,
                                    previousBlock,
                                    Vector256.Equals(sixteenKinds, Vector256.Create((ushort)0xD800)),
                                    Vector256.Equals(sixteenKinds, Vector256.Create((ushort)0xDC00)),
                                    ref shuffles,
                                    ref Unsafe.Add(ref bytes, w));
                                previousBlock = sixteen;
                            }

                            i += GroupChars;
                            continue;
                        }

                        Vector128<ushort> before = default;
                        for (int k = 0; k < GroupChars; k += EightChars)
                        {
                            Vector128<ushort> eight = Vector128.LoadUnsafe(ref at, (nuint)k);
                            Vector128<ushort> highs = Vector128.Equals(eight & kinds, highStart);
                            Vector128<ushort> lows = Vector128.Equals(eight & kinds, lowStart);
                            w += belowU0800
                                ? EncodeTwoBytesAndPairsBlock(eight, before, highs, lows, ref shuffles, ref Unsafe.Add(ref bytes, w))
                                : EncodeMixedBlock(eight, pairs: true, before, highs, lows, ref shuffles, ref Unsafe.Add(ref bytes, w));
                            before = eight;
                        }

                        i += GroupChars;
                        continue;
                    }
                }
            }

            // A block at a time: a group with a surrogate that is not in a pair within it, or of chars all from U+0800
            // on, and the last blocks.
            Vector128<ushort> block = Vector128.LoadUnsafe(ref chars, (nuint)i);
            if (IsAscii(block))
            {
                // With the next eight chars too where they are ASCII: sixteen in one store. Otherwise the store's
                // second half is the same eight again, past the bytes written, which later stores overwrite.
                int count = EightChars;
                Vector128<ushort> next = block;
                if (source.Length - i >= 2 * EightChars)
                {
                    Vector128<ushort> following = Vector128.LoadUnsafe(ref chars, (nuint)(i + EightChars));
                    if (IsAscii(following))
                    {
                        next = following;
                        count = 2 * EightChars;
                        asciiBlocks++;
                    }
                }

                Sse2.PackUnsignedSaturate(block.AsInt16(), next.AsInt16()).StoreUnsafe(ref bytes, (nuint)w);
                i += count;
                w += count;
                if (++asciiBlocks >= AsciiEightCharBlocksToNarrow)
                {
                    asciiBlocks = 0;
                    if (NarrowAscii(source, destination, ref i, ref w) != OperationStatus.InvalidData)
                    {
                        return (i, w);
                    }
                }

                continue;
            }

            asciiBlocks = 0;
            if (Vector128.LessThanAll(block, Vector128.Create((ushort)0x800)))
            {
                w += EncodeTwoByteBlock(block, ref shuffles, ref Unsafe.Add(ref bytes, w));
                i += EightChars;
                continue;
            }

            Vector128<ushort> surrogates = Vector128.Equals(
                block & Vector128.Create((ushort)0xF800), Vector128.Create((ushort)0xD800));
            if (surrogates == Vector128<ushort>.Zero)
            {
                // And the blocks after it while they too have three-byte chars and no surrogate (CJK text), which a
                // group would not take.
                do
                {
                    w += Vector128.GreaterThanOrEqualAll(block, Vector128.Create((ushort)0x800))
                        ? EncodeThreeByteBlock(block, ref Unsafe.Add(ref bytes, w))
                        : EncodeMixedBlock(block, pairs: false, default, default, default, ref shuffles, ref Unsafe.Add(ref bytes, w));
                    i += EightChars;
                    if (source.Length - i < EightChars || destination.Length - w < EightCharRoom)
                    {
                        break;
                    }

                    block = Vector128.LoadUnsafe(ref chars, (nuint)i);
                }
                while (!Vector128.LessThanAll(block, Vector128.Create((ushort)0x800))
                    && Vector128.GreaterThanOrEqualAll(block - Vector128.Create((ushort)0xD800), Vector128.Create((ushort)0x800)));

                continue;
            }

            Vector128<ushort> kind = block & Vector128.Create((ushort)0xFC00);
            Vector128<ushort> highLanes = Vector128.Equals(kind, Vector128.Create((ushort)0xD800));
            Vector128<ushort> lowLanes = Vector128.Equals(kind, Vector128.Create((ushort)0xDC00));
            uint high = highLanes.ExtractMostSignificantBits();
            uint low = lowLanes.ExtractMostSignificantBits();

            // A high surrogate in the last lane, whose low one is past the block: the block's first seven chars are
            // written, and the next block starts with that pair.
            uint cut = high & (1u << (EightChars - 1));
            if (((high ^ cut) << 1) != low)
            {
                // Other surrogates: char by char, a pair that the block's end cuts taken whole. Rune's decoder gives
                // U+FFFD for a surrogate without its other half, as Utf8.FromUtf16 writes it, and NeedMoreData for a
                // high surrogate that ends the text, which stops the loop for the runtime's transcoder to keep for the
                // text that follows.
                int end = i + EightChars;
                while (i < end)
                {
                    if (Rune.DecodeFromUtf16(source[i..], out Rune rune, out int charsRead) == OperationStatus.NeedMoreData)
                    {
                        return (i, w);
                    }

                    i += charsRead;
                    w += rune.EncodeToUtf8(destination[w..]);
                }

                continue;
            }

            // Pairs among chars of any other width: 32-bit lanes. A cut pair's high surrogate took two bytes, which the
            // next block writes again with its low one.
            int written = EncodeMixedBlock(block, pairs: true, default, highLanes, lowLanes, ref shuffles, ref Unsafe.Add(ref bytes, w));
            w += cut == 0 ? written : written - 2;
            i += cut == 0 ? EightChars : EightChars - 1;
        }

        return (i, w);
    }

    // Writes a block of eight chars below U+0800 as UTF-8 at destination, which has room for 16 bytes; returns how many
    // bytes it took. As the 512-bit EncodeTwoByteBlock: each lane's first byte, then its second where the char is not
    // ASCII, packed in order by a shuffle from the table.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeTwoByteBlock(Vector128<ushort> block, ref byte shuffles, ref byte destination)
    {
        Debug.Assert(Vector128.LessThanAll(block, Vector128.Create((ushort)0x800)), "each char takes one or two bytes");

        // Below U+0800 every char is positive as a short, so one signed compare finds those that take two bytes.
        Vector128<short> twoBytes = Vector128.GreaterThan(block.AsInt16(), Vector128.Create((short)0x7F));

        // Both bytes of a two-byte char at once: its top five bits under 110 in the low byte, its last six under 10 in
        // the high byte.
        Vector128<ushort> encoded = Vector128.ShiftRightLogical(block, 6)
            | Vector128.ShiftLeft(block & Vector128.Create((ushort)0x3F), 8)
            | Vector128.Create((ushort)0x80C0);
        return StoreTwoByteLanes(Select(twoBytes.AsUInt16(), encoded, block).AsByte(), twoBytes.AsUInt16(), ref shuffles, ref destination);
    }

    // The 128-bit blocks' two-byte store: each 16-bit lane's first byte, then its second where twoBytes is set, packed
    // in order at destination by a shuffle from the table; returns how many bytes it took.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int StoreTwoByteLanes(Vector128<byte> lanes, Vector128<ushort> twoBytes, ref byte shuffles, ref byte destination)
    {
        uint mask = twoBytes.ExtractMostSignificantBits();
        Vector128<byte> shuffle = Vector128.LoadUnsafe(ref shuffles, (nuint)(mask * (uint)Vector128<byte>.Count));
        Ssse3.Shuffle(lanes, shuffle).StoreUnsafe(ref destination);
        return EightChars + BitOperations.PopCount(mask);
    }

    /// <summary>Whether blocks of <see cref="SixteenChars"/> chars in 256-bit vectors are there (AVX2), for the
    /// writer's escaper where the 512-bit blocks are not. A field, as <see cref="HasWideBlocks"/> is.</summary>
    internal static readonly bool HasSixteenCharBlocks = Avx2.IsSupported && Vector256.IsHardwareAccelerated;

    // Chars per 256-bit block: two halves of eight, each packed by a byte shuffle from the table as a 128-bit block is.
    internal const int SixteenChars = 2 * EightChars;

    /// <summary>The byte shuffles of the two-byte blocks of eight chars, for the 256-bit blocks' encoders.</summary>
    internal static ref byte TwoByteShuffles => ref MemoryMarshal.GetArrayDataReference(s_shuffles);

    // Writes a block of sixteen chars below U+0800 as UTF-8 at destination, which has room for 32 bytes; returns how
    // many bytes it took. As the 128-bit EncodeTwoByteBlock, both halves at once.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeTwoByteBlock(Vector256<ushort> block, ref byte shuffles, ref byte destination)
    {
        Debug.Assert(Vector256.LessThanAll(block, Vector256.Create((ushort)0x800)), "each char takes one or two bytes");
        Vector256<short> twoBytes = Vector256.GreaterThan(block.AsInt16(), Vector256.Create((short)0x7F));
        return StoreTwoByteLanes(TwoByteLanes(block, twoBytes), twoBytes.AsUInt16(), ref shuffles, ref destination);
    }

    // Writes two blocks of sixteen chars below U+0800 as UTF-8 at destination, which has room for 64 bytes; returns how
    // many bytes they took. As EncodeTwoByteBlock for each, with one mask for both: packed to bytes, the masks' bits
    // are four bytes, one per half (the first block's lower half, the second's, the first's upper half, the second's),
    // each taken as the byte offset of its shuffle in the table (the mask shifted to bits 4 to 11, a shuffle being 16
    // bytes), whose bits count the same.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeTwoByteBlocks(Vector256<ushort> first, Vector256<ushort> second, ref byte shuffles, ref byte destination)
    {
        Debug.Assert(
            Vector256.LessThanAll(first, Vector256.Create((ushort)0x800)) && Vector256.LessThanAll(second, Vector256.Create((ushort)0x800)),
            "each char takes one or two bytes");
        Vector256<short> firstTwoBytes = Vector256.GreaterThan(first.AsInt16(), Vector256.Create((short)0x7F));
        Vector256<short> secondTwoBytes = Vector256.GreaterThan(second.AsInt16(), Vector256.Create((short)0x7F));
        uint mask = Avx2.PackSignedSaturate(firstTwoBytes, secondTwoBytes).ExtractMostSignificantBits();
        uint firstLower = (mask << 4) & 0xFF0;
        uint secondLower = (mask >> 4) & 0xFF0;
        uint firstUpper = (mask >> 12) & 0xFF0;
        uint secondUpper = (mask >> 20) & 0xFF0;
        Vector256<byte> firstPacked = Avx2.Shuffle(
            TwoByteLanes(first, firstTwoBytes),
            Vector256.Create(Vector128.LoadUnsafe(ref shuffles, firstLower), Vector128.LoadUnsafe(ref shuffles, firstUpper)));
        Vector256<byte> secondPacked = Avx2.Shuffle(
            TwoByteLanes(second, secondTwoBytes),
            Vector256.Create(Vector128.LoadUnsafe(ref shuffles, secondLower), Vector128.LoadUnsafe(ref shuffles, secondUpper)));
        int atFirstUpper = EightChars + BitOperations.PopCount(firstLower);
        int atSecond = atFirstUpper + EightChars + BitOperations.PopCount(firstUpper);
        int atSecondUpper = atSecond + EightChars + BitOperations.PopCount(secondLower);
        firstPacked.GetLower().StoreUnsafe(ref destination);
        firstPacked.GetUpper().StoreUnsafe(ref destination, (nuint)atFirstUpper);
        secondPacked.GetLower().StoreUnsafe(ref destination, (nuint)atSecond);
        secondPacked.GetUpper().StoreUnsafe(ref destination, (nuint)atSecondUpper);
        return atSecondUpper + EightChars + BitOperations.PopCount(secondUpper);
    }

    // Each 16-bit lane of a block below U+0800 as its UTF-8 bytes in memory order: the char where it is ASCII (its high
    // byte not kept), else 110 and its top five bits, then 10 and its last six. The lesser byte of the two forms picks
    // the right one: every byte of a lane that takes two bytes is all ones in the char's form (twoBytes or-ed in), and
    // an ASCII char is below the 110 of its two-byte form's first byte. Cheaper than a blend on Intel's processors,
    // where a variable blend of 256 bits is three micro-ops.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<byte> TwoByteLanes(Vector256<ushort> block, Vector256<short> twoBytes)
    {
        Vector256<ushort> encoded = Vector256.ShiftRightLogical(block, 6)
            | Vector256.ShiftLeft(block & Vector256.Create((ushort)0x3F), 8)
            | Vector256.Create((ushort)0x80C0);
        return Vector256.Min(encoded.AsByte(), (block | twoBytes.AsUInt16()).AsByte());
    }

    // The 256-bit blocks' two-byte store: each 16-bit lane's first byte, then its second where twoBytes is set (all
    // ones or zero), each half packed in order by a shuffle from the table (a byte shuffle stays within its half of
    // the vector), the second half stored where the first one's bytes end; returns how many bytes it took, at most 32.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int StoreTwoByteLanes(Vector256<byte> lanes, Vector256<ushort> twoBytes, ref byte shuffles, ref byte destination)
    {
        // Packed to bytes within each half, the mask has the first half's lanes in bits 0 to 7 (and again in 8 to 15),
        // the second half's in bits 16 to 23 (and 24 to 31).
        uint mask = Avx2.PackSignedSaturate(twoBytes.AsInt16(), twoBytes.AsInt16()).ExtractMostSignificantBits();
        uint firstHalf = mask & 0xFF;
        uint secondHalf = (mask >> 16) & 0xFF;
        Vector256<byte> shuffle = Vector256.Create(
            Vector128.LoadUnsafe(ref shuffles, (nuint)(firstHalf * (uint)Vector128<byte>.Count)),
            Vector128.LoadUnsafe(ref shuffles, (nuint)(secondHalf * (uint)Vector128<byte>.Count)));
        Vector256<byte> packed = Avx2.Shuffle(lanes, shuffle);
        int first = EightChars + BitOperations.PopCount(firstHalf);
        packed.GetLower().StoreUnsafe(ref destination);
        packed.GetUpper().StoreUnsafe(ref destination, (nuint)first);
        return first + EightChars + BitOperations.PopCount(secondHalf);
    }

    /// <summary>The room <see cref="EncodeSixteenChars"/> needs: as far as its stores reach, the second half of a block
    /// starting up to three bytes a char on and storing as far as a block of eight does.</summary>
    internal const int SixteenCharRoom = (3 * EightChars) + EightCharRoom;

    /// <summary>
    /// Writes a block of sixteen chars of any width as UTF-8 at <paramref name="destination"/>, which has room for
    /// <see cref="SixteenCharRoom"/> bytes; returns how many bytes it took. Its surrogates are all in pairs within it:
    /// <paramref name="high"/> and <paramref name="low"/> set their lanes (all ones), every high one has its low one
    /// next, and the last lane holds no high one. For the writer's short strings where the 512-bit blocks are not: chars
    /// below U+0800, pairs among them or not, in one 256-bit block of 16-bit lanes; chars from U+0800 on in two halves
    /// of eight, three bytes a char where a half has nothing else, 32-bit lanes where it has.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeSixteenChars(Vector256<ushort> block, Vector256<ushort> high, Vector256<ushort> low, ref byte destination)
    {
        Debug.Assert(HasSixteenCharBlocks, "only where AVX2 is");
        ref byte shuffles = ref MemoryMarshal.GetArrayDataReference(s_shuffles);
        Vector256<ushort> surrogates = high | low;
        if (surrogates == Vector256<ushort>.Zero)
        {
            if (Vector256.LessThanAll(block, Vector256.Create((ushort)0x800)))
            {
                return EncodeTwoByteBlock(block, ref shuffles, ref destination);
            }

            int lower = EncodeEightCharsOfAnyWidth(block.GetLower(), ref shuffles, ref destination);
            return lower + EncodeEightCharsOfAnyWidth(block.GetUpper(), ref shuffles, ref Unsafe.Add(ref destination, lower));
        }

        // The pairs' lanes below U+0800 (SurrogatesBelowU0800 for sixteen lanes): then every char is below U+0800 or
        // half a pair.
        if (Vector256.LessThanAll(Vector256.Min(block, block + Vector256.Create((ushort)0x2800)), Vector256.Create((ushort)0x800)))
        {
            return EncodeTwoBytesAndPairsBlock(block, default, high, low, ref shuffles, ref destination);
        }

        // A pair the halves share is encoded in place: the upper half sees the lower one's last char.
        int first = EncodeMixedBlock(block.GetLower(), pairs: true, default, high.GetLower(), low.GetLower(), ref shuffles, ref destination);
        return first + EncodeMixedBlock(
            block.GetUpper(), pairs: true, block.GetLower(), high.GetUpper(), low.GetUpper(), ref shuffles, ref Unsafe.Add(ref destination, first));
    }

    // Eight chars without a surrogate: three bytes each where all are from U+0800 on (CJK), 32-bit lanes otherwise.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeEightCharsOfAnyWidth(Vector128<ushort> block, ref byte shuffles, ref byte destination) =>
        Vector128.GreaterThanOrEqualAll(block, Vector128.Create((ushort)0x800))
            ? EncodeThreeByteBlock(block, ref destination)
            : EncodeMixedBlock(block, pairs: false, default, default, default, ref shuffles, ref destination);

    /// <summary>
    /// The first <paramref name="count"/> chars at <paramref name="chars"/> (1 to 15) in a block of sixteen, the other
    /// lanes spaces: a masked load of the whole pairs of chars, and the last char on its own where count is odd, so
    /// that nothing past those chars is read, and no call is made, which would have a loop's variables kept in memory
    /// across it. A space is one byte and never escaped, so its lanes cost a caller nothing to leave out.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static unsafe Vector256<ushort> LoadFirstOfSixteen(ref ushort chars, int count)
    {
        Debug.Assert(count is > 0 and < SixteenChars, "part of a block");
        Vector256<ushort> block;
        fixed (ushort* first = &chars)
        {
            Vector256<uint> wholePairs = Vector256.LessThan(Vector256<uint>.Indices, Vector256.Create((uint)(count / 2)));
            block = Avx2.MaskLoad((uint*)first, wholePairs).AsUInt16();
        }

        Vector256<ushort> last = Vector256.Equals(Vector256<ushort>.Indices, Vector256.Create((ushort)(count - 1)));
        block = Vector256.ConditionalSelect(last, Vector256.Create(Unsafe.Add(ref chars, count - 1)), block);
        Vector256<ushort> taken = Vector256.LessThan(Vector256<ushort>.Indices, Vector256.Create((ushort)count));
        return Vector256.ConditionalSelect(taken, block, Vector256.Create((ushort)' '));
    }

    /// <summary>
    /// Writes eight chars of any width but no surrogate as UTF-8 at <paramref name="destination"/>, which has room for
    /// 32 bytes (its stores reach up to 12 bytes past the bytes written); returns how many bytes it took. For the
    /// writer's escaper of long strings, where a block of 16 has a few chars from U+0800 on among the others.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeEightChars(Vector128<ushort> block, ref byte shuffles, ref byte destination) =>
        EncodeMixedBlock(block, pairs: false, default, default, default, ref shuffles, ref destination);

    // Each char as it is, but a surrogate (0xD800 to 0xDFFF) moved below 0x800: plus 0x2800 it wraps to below 0x800,
    // and every other char from U+0800 on stays at or above it. So a block whose values are all below 0x800 holds
    // chars below U+0800 and surrogates only.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ushort> SurrogatesBelowU0800(Vector128<ushort> block) =>
        Vector128.Min(block, block + Vector128.Create((ushort)0x2800));

    // SurrogatesBelowU0800 for a 512-bit block.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ushort> SurrogatesBelowU0800(Vector512<ushort> block) =>
        Vector512.Min(block, block + Vector512.Create((ushort)0x2800));

    // The lanes of ifTrue where mask is set, of ifFalse elsewhere; mask's lanes are all ones or all zeros (a compare's
    // result). One blend where SSE4.1 is there: the JIT writes ConditionalSelect as three logical operations.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ushort> Select(Vector128<ushort> mask, Vector128<ushort> ifTrue, Vector128<ushort> ifFalse) =>
        Sse41.IsSupported
            ? Sse41.BlendVariable(ifFalse.AsByte(), ifTrue.AsByte(), mask.AsByte()).AsUInt16()
            : Vector128.ConditionalSelect(mask, ifTrue, ifFalse);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsAscii(Vector128<ushort> chars) => (chars & Vector128.Create((ushort)0xFF80)) == Vector128<ushort>.Zero;

    // Writes a block of eight chars of any width as UTF-8 at destination, which has room for EightCharRoom bytes;
    // returns how many bytes it took. With pairs, its surrogates are in the lanes that highLanes and lowLanes set, each
    // high one followed by its low one (in the block, or for the last lane in the next block's first char), and a low
    // one in the first lane has its high one last in before, the block before it; without, it has none. Each char
    // becomes a 32-bit lane holding its bytes in order, a pair's four two in each of its lanes: a lane's first two
    // bytes from one vector of 16-bit lanes, its third (a three-byte char's last) from another, interleaved into two
    // vectors of four lanes, each packed by a shuffle from the table indexed by its chars' codes.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeMixedBlock(
        Vector128<ushort> block,
        bool pairs,
        Vector128<ushort> before,
        Vector128<ushort> highLanes,
        Vector128<ushort> lowLanes,
        ref byte shuffles,
        ref byte destination)
    {
        Debug.Assert(
            pairs ? AreInPairs(block, before, highLanes, lowLanes) : !HasSurrogate(block),
            "with pairs, the lanes are the block's surrogates, each low one after a high one; without, none");
        Vector128<ushort> sixBits = Vector128.Create((ushort)0x3F);
        Vector128<ushort> continuation = Vector128.Create((ushort)0x80);
        Vector128<ushort> twoOrMore = Vector128.GreaterThan(block, Vector128.Create((ushort)0x7F));
        Vector128<ushort> three = Vector128.GreaterThan(block, Vector128.Create((ushort)0x7FF));
        Vector128<ushort> shifted = Vector128.ShiftRightLogical(block, 6);
        Vector128<ushort> middle = (shifted & sixBits) | continuation;
        Vector128<ushort> last = (block & sixBits) | continuation;
        Vector128<ushort> first = Select(
            three,
            Vector128.ShiftRightLogical(block, 12) | Vector128.Create((ushort)0xE0),
            Select(twoOrMore, shifted | Vector128.Create((ushort)0xC0), block));
        Vector128<ushort> second = Select(three, middle, last);
        if (pairs)
        {
            // A pair's code point is (u << 10) + (low & 0x3FF), where u = (high & 0x3FF) + 0x40 (0x40 << 10 being
            // 0x10000): the high surrogate's lane takes 11110 and u's top three bits, then 10 and its next six; the low
            // one's takes 10, u's last two bits (the high surrogate's, before it) and its own top four, then 10 and its
            // last six. Both take two bytes, not three.
            Vector128<ushort> previous = Previous(block, before);
            Vector128<ushort> upper = (block & Vector128.Create((ushort)0x3FF)) + Vector128.Create((ushort)0x40);
            first = Select(
                highLanes,
                Vector128.ShiftRightLogical(upper, 8) | Vector128.Create((ushort)0xF0),
                Select(
                    lowLanes,
                    Vector128.ShiftLeft(previous & Vector128.Create((ushort)3), 4) | (shifted & Vector128.Create((ushort)0xF)) | continuation,
                    first));
            second = Select(
                highLanes, (Vector128.ShiftRightLogical(upper, 2) & sixBits) | continuation, Select(lowLanes, last, second));
            three = Vector128.AndNot(three, highLanes | lowLanes);
        }

        Vector128<ushort> firstTwo = first | Vector128.ShiftLeft(second, 8);

        // Each char's code in two bits, in order: a byte of twoOrMore's lane, then a byte of three's.
        uint codes = ((twoOrMore & Vector128.Create((ushort)0x00FF)) | (three & Vector128.Create((ushort)0xFF00))).AsByte().ExtractMostSignificantBits();
        uint lowerCodes = codes & 0xFF;
        Vector128<byte> lowerShuffle = Vector128.LoadUnsafe(ref shuffles, (nuint)((TwoByteShuffleCount + lowerCodes) * (uint)Vector128<byte>.Count));
        Vector128<byte> upperShuffle = Vector128.LoadUnsafe(ref shuffles, (nuint)((TwoByteShuffleCount + (codes >> 8)) * (uint)Vector128<byte>.Count));
        Ssse3.Shuffle(Sse2.UnpackLow(firstTwo, last).AsByte(), lowerShuffle).StoreUnsafe(ref destination);
        int lower = 4 + BitOperations.PopCount(lowerCodes);
        Ssse3.Shuffle(Sse2.UnpackHigh(firstTwo, last).AsByte(), upperShuffle).StoreUnsafe(ref destination, (nuint)lower);
        return EightChars + BitOperations.PopCount(codes);
    }

    private static bool HasSurrogate(Vector128<ushort> block) =>
        Vector128.EqualsAny(block & Vector128.Create((ushort)0xF800), Vector128.Create((ushort)0xD800));

    // Whether highLanes and lowLanes set the block's high and low surrogates, and each low one follows a high one, in
    // the block or last in before (a high one in the last lane may have its low one in the next block).
    private static bool AreInPairs(Vector128<ushort> block, Vector128<ushort> before, Vector128<ushort> highLanes, Vector128<ushort> lowLanes)
    {
        Vector128<ushort> kind = block & Vector128.Create((ushort)0xFC00);
        uint highBefore = char.IsHighSurrogate((char)before.GetElement(EightChars - 1)) ? 1u : 0u;
        return highLanes == Vector128.Equals(kind, Vector128.Create((ushort)0xD800))
            && lowLanes == Vector128.Equals(kind, Vector128.Create((ushort)0xDC00))
            && (((highLanes.ExtractMostSignificantBits() << 1) & 0xFF) | highBefore) == lowLanes.ExtractMostSignificantBits();
    }

    // EncodeTwoBytesAndPairsBlock for a block of sixteen chars at once, with room for 32 bytes at destination: before
    // is the block of sixteen before it, whose last char is the predecessor of the block's first.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeTwoBytesAndPairsBlock(
        Vector256<ushort> block, Vector256<ushort> before, Vector256<ushort> high, Vector256<ushort> low, ref byte shuffles, ref byte destination)
    {
        Debug.Assert(
            AreInPairs(block.GetLower(), before.GetUpper(), high.GetLower(), low.GetLower())
                && AreInPairs(block.GetUpper(), block.GetLower(), high.GetUpper(), low.GetUpper()),
            "surrogates come in pairs only");
        Debug.Assert(
            Vector256.LessThanAll(Vector256.Min(block, block + Vector256.Create((ushort)0x2800)), Vector256.Create((ushort)0x800)),
            "each char is below U+0800 or a surrogate");
        Vector256<ushort> twoBytes = Vector256.GreaterThan(block.AsInt16(), Vector256.Create((short)0x7F)).AsUInt16() | high | low;
        Vector256<ushort> upper = (block & Vector256.Create((ushort)0x3FF)) + Vector256.Create((ushort)0x40);
        Vector256<ushort> shifted = Vector256.ShiftRightLogical(block, 6);
        Vector256<ushort> continuation = Vector256.Create((ushort)0x80);

        // Each char's predecessor: a byte shift stays within a 128-bit half, so each half is shifted against the half
        // before it (before's upper half for the lower one, the block's lower half for the upper one).
        Vector256<byte> halvesBefore = Avx2.Permute2x128(before.AsByte(), block.AsByte(), 0x21);
        Vector256<ushort> previous = Avx2.AlignRight(block.AsByte(), halvesBefore, PreviousLaneShift).AsUInt16();
        Vector256<ushort> first = Select(
            high,
            Vector256.ShiftRightLogical(upper, 8) | Vector256.Create((ushort)0xF0),
            Select(
                low,
                Vector256.ShiftLeft(previous & Vector256.Create((ushort)3), 4) | (shifted & Vector256.Create((ushort)0xF)) | continuation,
                Select(twoBytes, shifted | Vector256.Create((ushort)0xC0), block)));
        Vector256<ushort> second = (Select(high, Vector256.ShiftRightLogical(upper, 2), block) & Vector256.Create((ushort)0x3F)) | continuation;
        return StoreTwoByteLanes((first | Vector256.ShiftLeft(second, 8)).AsByte(), twoBytes, ref shuffles, ref destination);
    }

    // Select for 256-bit blocks: one blend (the transcoder's 256-bit code runs only where AVX2 is there).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ushort> Select(Vector256<ushort> mask, Vector256<ushort> ifTrue, Vector256<ushort> ifFalse) =>
        Avx2.BlendVariable(ifFalse.AsByte(), ifTrue.AsByte(), mask.AsByte()).AsUInt16();

    // The bytes by which before and the block, end to end, are shifted to give each char its predecessor: all of a
    // 128-bit vector but one char.
    private const byte PreviousLaneShift = 16 - sizeof(ushort);

    // Each char's predecessor: the block's chars one lane on, the last char of before in the first lane.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ushort> Previous(Vector128<ushort> block, Vector128<ushort> before) =>
        Ssse3.AlignRight(block.AsByte(), before.AsByte(), PreviousLaneShift).AsUInt16();

    // One bit per lane of four blocks' compare results (all ones or zero), block by block: bit 8k + j for lane j of
    // the k-th block.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint LaneBits(Vector128<ushort> b0, Vector128<ushort> b1, Vector128<ushort> b2, Vector128<ushort> b3) =>
        Sse2.PackSignedSaturate(b0.AsInt16(), b1.AsInt16()).ExtractMostSignificantBits()
        | (Sse2.PackSignedSaturate(b2.AsInt16(), b3.AsInt16()).ExtractMostSignificantBits() << (2 * EightChars));

    // Writes a block of eight chars below U+0800 and surrogate pairs as UTF-8 at destination, which has room for 16
    // bytes; returns how many bytes it took. As the 512-bit EncodeTwoBytesAndPairsBlock, each char's 16-bit lane holds
    // at most two bytes, a pair's four being two in each of its lanes, stored as EncodeTwoByteBlock's.
    // high and low are the lanes of the high and low surrogates; every high one has its low one next (in the block, or
    // first in the next), and every low one its high one before it (in the block, or last in before).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeTwoBytesAndPairsBlock(
        Vector128<ushort> block, Vector128<ushort> before, Vector128<ushort> high, Vector128<ushort> low, ref byte shuffles, ref byte destination)
    {
        Debug.Assert(AreInPairs(block, before, high, low), "surrogates come in pairs only");
        Debug.Assert(
            Vector128.LessThanAll(SurrogatesBelowU0800(block), Vector128.Create((ushort)0x800)), "each char is below U+0800 or a surrogate");

        // Two bytes for a char from U+0080 on, positive as a short below U+0800, and for a surrogate, negative.
        Vector128<ushort> twoBytes = Vector128.GreaterThan(block.AsInt16(), Vector128.Create((short)0x7F)).AsUInt16() | high | low;

        // In a high surrogate's lane, U's bits above its low ten (see the 512-bit EncodeTwoBytesAndPairsBlock).
        Vector128<ushort> upper = (block & Vector128.Create((ushort)0x3FF)) + Vector128.Create((ushort)0x40);
        Vector128<ushort> shifted = Vector128.ShiftRightLogical(block, 6);
        Vector128<ushort> continuation = Vector128.Create((ushort)0x80);
        Vector128<ushort> first = Select(
            high,
            Vector128.ShiftRightLogical(upper, 8) | Vector128.Create((ushort)0xF0),
            Select(
                low,
                Vector128.ShiftLeft(Previous(block, before) & Vector128.Create((ushort)3), 4) | (shifted & Vector128.Create((ushort)0xF)) | continuation,
                Select(twoBytes, shifted | Vector128.Create((ushort)0xC0), block)));
        Vector128<ushort> second = (Select(high, Vector128.ShiftRightLogical(upper, 2), block) & Vector128.Create((ushort)0x3F)) | continuation;
        return StoreTwoByteLanes((first | Vector128.ShiftLeft(second, 8)).AsByte(), twoBytes, ref shuffles, ref destination);
    }

    // Writes eight chars from U+0800 on, none of them a surrogate, as UTF-8 at destination, which has room for 32
    // bytes; returns 24, three bytes a char. Each char's lead and middle byte (1110xxxx 10xxxxxx) in a 16-bit lane of
    // one vector, its last byte (10xxxxxx) in the low byte of a lane of another; fixed shuffles of the two interleave
    // them, the first 16 bytes (chars 0 to 4, and char 5's lead) and the last 8.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeThreeByteBlock(Vector128<ushort> block, ref byte destination)
    {
        Vector128<ushort> sixBits = Vector128.Create((ushort)0x3F);
        Vector128<ushort> continuation = Vector128.Create((ushort)0x80);
        Vector128<byte> leadAndMiddle = (Vector128.ShiftRightLogical(block, 12) | Vector128.Create((ushort)0xE0)
            | Vector128.ShiftLeft((Vector128.ShiftRightLogical(block, 6) & sixBits) | continuation, 8)).AsByte();
        Vector128<byte> last = ((block & sixBits) | continuation).AsByte();
        Vector128<byte> first16 =
            Ssse3.Shuffle(leadAndMiddle, Vector128.Create((byte)0, 1, 0x80, 2, 3, 0x80, 4, 5, 0x80, 6, 7, 0x80, 8, 9, 0x80, 10))
            | Ssse3.Shuffle(last, Vector128.Create((byte)0x80, 0x80, 0, 0x80, 0x80, 2, 0x80, 0x80, 4, 0x80, 0x80, 6, 0x80, 0x80, 8, 0x80));
        Vector128<byte> last8 =
            Ssse3.Shuffle(leadAndMiddle, Vector128.Create((byte)11, 0x80, 12, 13, 0x80, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80))
            | Ssse3.Shuffle(last, Vector128.Create((byte)0x80, 10, 0x80, 0x80, 12, 0x80, 0x80, 14, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80));
        first16.StoreUnsafe(ref destination);
        last8.StoreUnsafe(ref destination, (nuint)Vector128<byte>.Count);
        return 3 * EightChars;
    }

    // Writes a block of chars of any width as UTF-8 at destination, which has room for BlockRoom; returns how many
    // bytes it took. With pairs, its surrogates are all in pairs within it (highLanes and lowLanes set their lanes, all
    // ones), and its last lane holds no high surrogate; without, it has none. The encoder for the block's widths: chars
    // below U+0800 in one vector of 16-bit lanes, with or without pairs among them; three-byte chars, with or without
    // pairs, in two halves of 32-bit lanes, each char's lane seeing its successor where there are pairs. Shared by the
    // transcoder and the writer's escaper of long strings (StringEscaper.EscapeUtf8), which trims its blocks to pairs.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeBlock(Vector512<ushort> block, Vector512<ushort> highLanes, Vector512<ushort> lowLanes, bool pairs, ref byte destination)
    {
        if (!pairs)
        {
            if (Vector512.LessThanAll(block, Vector512.Create((ushort)0x800)))
            {
                return EncodeTwoByteBlock(block, ref destination);
            }

            // Three-byte chars and no pairs: the block in two halves.
            int half = EncodeHalf(Vector512.WidenLower(block), default, surrogates: false, ref destination);
            return half + EncodeHalf(Vector512.WidenUpper(block), default, surrogates: false, ref Unsafe.Add(ref destination, half));
        }

        if (Vector512.LessThanAll(SurrogatesBelowU0800(block), Vector512.Create((ushort)0x800)))
        {
            // Pairs among chars below U+0800 (emoji in Latin or Cyrillic text): every char's lane is two bytes at most,
            // a pair's four being two in each of its lanes.
            return EncodeTwoBytesAndPairsBlock(block, highLanes, lowLanes, ref destination);
        }

        // Three-byte chars and pairs: the block in two halves, each char's lane seeing its successor, the last lane's
        // being a char no pair needs.
        Vector512<ushort> next = Vector512.Shuffle(block, NextLane);
        int first = EncodeHalf(Vector512.WidenLower(block), Vector512.WidenLower(next), surrogates: true, ref destination);
        return first + EncodeHalf(Vector512.WidenUpper(block), Vector512.WidenUpper(next), surrogates: true, ref Unsafe.Add(ref destination, first));
    }

    // Writes a block of chars below U+0800 as UTF-8 at destination, which has room for BlockRoom; returns how many
    // bytes it took. Each char becomes a 16-bit lane holding its lead byte and its continuation byte (110xxxxx
    // 10xxxxxx), or its ASCII byte and a byte to drop.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int EncodeTwoByteBlock(Vector512<ushort> block, ref byte destination)
    {
        Vector512<ushort> notAscii = Vector512.GreaterThan(block, Vector512.Create((ushort)0x7F));
        Vector512<ushort> lead = Vector512.ConditionalSelect(
            notAscii, Vector512.ShiftRightLogical(block, 6) | Vector512.Create((ushort)0xC0), block);
        Vector512<ushort> continuation = (block & Vector512.Create((ushort)0x3F)) | Vector512.Create((ushort)0x80);
        return StoreTwoByteLanes(lead, continuation, notAscii, ref destination);
    }

    // Writes a block of chars below U+0800 and surrogate pairs as UTF-8 at destination, which has room for BlockRoom;
    // returns how many bytes it took. Every high surrogate has its low surrogate next, and every low surrogate its high
    // surrogate before it. Each char's 16-bit lane holds at most two bytes, in memory order, as in EncodeTwoByteBlock:
    // a pair's code point U (0x10000 + (high - 0xD800) × 2^10 + (low - 0xDC00)) is four bytes, the first two in the
    // high surrogate's lane (11110 and U's top three bits, then 10 and the next six) and the last two in the low
    // surrogate's lane (10, the next six bits, two of them from the high surrogate, then 10 and the last six). high and
    // low are the lanes of the high and low surrogates (all ones or zero).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeTwoBytesAndPairsBlock(Vector512<ushort> block, Vector512<ushort> high, Vector512<ushort> low, ref byte destination)
    {
        Debug.Assert(
            high.ExtractMostSignificantBits() == low.ExtractMostSignificantBits() >> 1 && (low.ExtractMostSignificantBits() & 1) == 0,
            "surrogates come in pairs only");
        Vector512<ushort> notAscii = Vector512.GreaterThan(block, Vector512.Create((ushort)0x7F));

        // Each char's predecessor: a low surrogate's lane takes two bits from its high surrogate's.
        Vector512<ushort> previous = Vector512.Shuffle(block, PreviousLane);

        // In a high surrogate's lane, U's bits above its low ten, 0x40 to 0x43F: (high - 0xD800) + 0x40, the 0x40 being
        // 0x10000 / 2^10.
        Vector512<ushort> upper = (block & Vector512.Create((ushort)0x3FF)) + Vector512.Create((ushort)0x40);
        Vector512<ushort> sixBits = Vector512.Create((ushort)0x3F);
        Vector512<ushort> continuation = Vector512.Create((ushort)0x80);
        Vector512<ushort> shifted = Vector512.ShiftRightLogical(block, 6);

        Vector512<ushort> first = Vector512.ConditionalSelect(
            high,
            Vector512.ShiftRightLogical(upper, 8) | Vector512.Create((ushort)0xF0),
            Vector512.ConditionalSelect(
                low,
                Vector512.ShiftLeft(previous & Vector512.Create((ushort)3), 4) | (shifted & Vector512.Create((ushort)0xF)) | continuation,
                Vector512.ConditionalSelect(notAscii, shifted | Vector512.Create((ushort)0xC0), block)));
        Vector512<ushort> second = Vector512.ConditionalSelect(
            high, Vector512.ShiftRightLogical(upper, 2) & sixBits, block & sixBits) | continuation;
        return StoreTwoByteLanes(first, second, notAscii, ref destination);
    }

    // The two-byte blocks' store: each 16-bit lane's first byte, then its second where notAscii is set (a lane of an
    // ASCII char has one byte), packed in order at destination by the compress; returns how many bytes it took.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static int StoreTwoByteLanes(Vector512<ushort> first, Vector512<ushort> second, Vector512<ushort> notAscii, ref byte destination)
    {
        Vector512<byte> lanes = (first | Vector512.ShiftLeft(second, 8)).AsByte();
        Vector512<byte> kept = (notAscii | Vector512.Create((ushort)0x00FF)).AsByte();
        Avx512Vbmi2.Compress(Vector512<byte>.Zero, kept, lanes).StoreUnsafe(ref destination);
        return BlockLength + BitOperations.PopCount(notAscii.ExtractMostSignificantBits());
    }

    // Writes half a block (16 chars, widened to 32-bit lanes) as UTF-8 at destination, which has room for 64 bytes;
    // returns how many bytes it took. next holds each char's successor, read only with surrogates: then every high
    // surrogate has its low surrogate next, and every low surrogate its high surrogate before it. A pair's code point
    // is in its high surrogate's lane, and its low surrogate's lane keeps nothing.
    //
    // Each lane holds the char's bytes at its end, in memory order: the last byte (10xxxxxx, or the ASCII byte) is the
    // lane's top byte, and the lead byte is as far before it as the char's length asks. So every byte but the lead is
    // where the same six bits of the code point go whatever its length, and only the lead's marker and the bytes kept
    // depend on the length, which ByLength gives by the code point's leading zeros. The compress keeps each lane's last
    // length bytes, in order.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeHalf(Vector512<uint> half, Vector512<uint> next, bool surrogates, ref byte destination)
    {
        Vector512<uint> value = half;
        if (surrogates)
        {
            Vector512<uint> kind = half & Vector512.Create(0xFC00u);
            Vector512<uint> pair = Vector512.Equals(kind, Vector512.Create(0xD800u));
            Vector512<uint> low = Vector512.Equals(kind, Vector512.Create(0xDC00u));

            // 0x10000 + (high - 0xD800) × 2^10 + (low - 0xDC00); a low surrogate's lane gets LowSurrogateMark, which
            // keeps no byte.
            value = Vector512.ConditionalSelect(pair, Vector512.ShiftLeft(half, 10) + next - Vector512.Create(0x35F_DC00u), half)
                | (low & Vector512.Create(LowSurrogateMark));
        }

        // The bytes kept (the last one, the last two, three or all four), and the markers: the lead byte's 110, 1110 or
        // 11110 and the 10 of each byte after it (ASCII takes the lane's char instead, below).
        Vector512<uint> leadingZeros = Avx512CD.LeadingZeroCount(value);
        Vector512<uint> kept = ByLength(leadingZeros, 0xFF00_0000, 0xFFFF_0000, 0xFFFF_FF00, 0xFFFF_FFFF);
        Vector512<uint> markers = ByLength(leadingZeros, 0, 0x80C0_0000, 0x8080_E000, 0x8080_80F0);

        // The code point's bits, six to a byte from the last byte back: the lead byte's bits are what is left above.
        Vector512<uint> last = Vector512.ShiftLeft(value, 24);
        Vector512<uint> bits = (last & Vector512.Create(0x3F00_0000u))
            | (Vector512.ShiftLeft(value, 10) & Vector512.Create(0x003F_0000u))
            | (Vector512.ShiftRightLogical(value, 4) & Vector512.Create(0x0000_3F00u))
            | Vector512.ShiftRightLogical(value, 18);
        Vector512<uint> lanes = Vector512.ConditionalSelect(
            Vector512.LessThan(value, Vector512.Create(0x80u)), last, bits | markers);

        ulong keptMask = kept.AsByte().ExtractMostSignificantBits();
        Avx512Vbmi2.Compress(Vector512<byte>.Zero, kept.AsByte(), lanes.AsByte()).StoreUnsafe(ref destination);
        return BitOperations.PopCount(keptMask);
    }

    // For each lane, by its leading zeros, the value given for the UTF-8 length of its char: one byte up to U+007F (25
    // to 31 leading zeros, and 32 for NUL, which the permute reads as 0), two up to U+07FF (21 to 24), three up to
    // U+FFFF (16 to 20), four past it (11 to 15); zero for a lane with LowSurrogateMark (1). A code point has 11
    // leading zeros at least, so 2 to 10 never come. The permute reads the low five bits of each index, across both
    // vectors.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<uint> ByLength(Vector512<uint> leadingZeros, uint one, uint two, uint three, uint four) =>
        Avx512F.PermuteVar16x32x2(
            Vector512.Create(one, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, four, four, four, four, four),
            leadingZeros,
            Vector512.Create(three, three, three, three, three, two, two, two, two, one, one, one, one, one, one, one));
}
