using System.Buffers;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

/// <summary>ECMA-262 QuoteJSONString: scan for what needs escaping, copy clean runs in bulk, escape the rest.</summary>
internal static partial class StringEscaper
{
    // Chars are checked and copied in blocks of this many: one 256-bit vector, or two 128-bit ones.
    private const int BlockLength = 16;

    // A value shorter than a block is checked with two overlapping 128-bit vectors when it has this many chars, and
    // with two overlapping 64-bit or 32-bit moves when shorter.
    private const int HalfBlockLength = BlockLength / 2;

    // EscapeAscii's runs: four blocks, whose stops fill a 64-bit mask.
    private const int RunLength = 4 * BlockLength;

    // A mask with a bit for each char of a block.
    private const uint BlockMask = (1u << BlockLength) - 1;

    /// <summary>The shortest value <see cref="TryCopyShort"/> takes.</summary>
    public const int MinShortLength = 2;

    /// <summary>The longest value <see cref="TryCopyShort"/> takes: one char short of a block.</summary>
    public const int MaxShortLength = BlockLength - 1;

    /// <summary>The longest value <see cref="TryCopyMedium"/> takes: eight blocks.</summary>
    public const int MaxMediumLength = 8 * BlockLength;

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, into <paramref name="destination"/>,
    /// which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char of the value. A high surrogate
    /// at the very end is escaped as unpaired, so callers cut long strings between the two halves of a pair.
    /// </summary>
    /// <remarks>
    /// One pass, in blocks of 32 chars where AVX-512 VBMI2 is (their short escapes written with the block), otherwise
    /// of 16 (with AVX2, a block of two short escapes or more written whole): each block of chars is loaded once,
    /// stored at its place in the output, then checked; a char that needs escaping is written over where it was stored,
    /// and the copy goes on from the next char. The output runs ahead of the input by what the escapes so far have
    /// added. A destination shorter than <see cref="RoomFor"/> the value's length is enough, but may leave the last
    /// blocks to the slower way.
    /// </remarks>
    /// <returns>The number of chars written.</returns>
    public static int Escape(ReadOnlySpan<char> value, Span<char> destination)
    {
        if ((long)destination.Length < (long)value.Length * JsonConstants.MaxEscapedCharLength)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        if (Utf8Transcoder.HasWideBlocks)
        {
            int written = EscapeIn32CharBlocks(value, destination);
            Debug.Assert(IsEscapedInBlocksOf16(value, destination[..written]), "the wide blocks write what the 16-char blocks write");
            return written;
        }

        return EscapeInBlocksOf16(value, destination);
    }

    // Escape in blocks of 16 chars, in 256-bit or 128-bit vectors, for a destination already checked.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeInBlocksOf16(ReadOnlySpan<char> value, Span<char> destination)
    {
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref ushort target = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination));
        int length = value.Length;
        if (length < BlockLength)
        {
            if (length < MinShortLength)
            {
                return EscapeRest(ref source, length, ref target, 0, 0);
            }

            uint special = CopyShort(ref source, length, ref target);
            if (special == 0)
            {
                return length;
            }

            int clean = BitOperations.TrailingZeroCount(special);
            return EscapeRest(ref source, length, ref target, clean, clean);
        }

        int w = EscapeBlocks<CharTarget, ushort>(ref source, length, ref target, out int i, out int sameDistanceFrom);
        int lastBlock = length - BlockLength;

        // The chars after the last whole block: one more block that ends at the value's end, reaching back over chars
        // already stored, which it may do only if they were stored at the current distance (none escaped among them).
        if (i < length && sameDistanceFrom <= lastBlock)
        {
            int back = i - lastBlock;
            uint special = CopyBlock(ref Unsafe.Add(ref source, lastBlock), ref Unsafe.Add(ref target, w - back)) >> back;
            if (special == 0)
            {
                return w + length - i;
            }

            // With two stops or more, the block written again whole, escapes and all: the chars it reaches back over
            // have no escape, so it writes them as they were.
            if ((special & (special - 1)) != 0
                && TryEscapeBlockOfShortEscapes(ref Unsafe.Add(ref source, lastBlock), ref Unsafe.Add(ref target, w - back), out int written))
            {
                return w - back + written;
            }

            int clean = BitOperations.TrailingZeroCount(special);
            i += clean;
            w += clean;
        }

        return EscapeRest(ref source, length, ref target, i, w);
    }

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, as UTF-8 into
    /// <paramref name="destination"/> (which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> bytes per
    /// char), for as long as its text is ASCII with at most a few other chars among it: a char from U+0080 on that is
    /// not a surrogate (a curly quote, a dash, an accented letter) is encoded in place, two or three bytes, where at
    /// most <see cref="MaxOthersPerBlock"/> of the 16 chars from it on are not ASCII; in the last chars, fewer than
    /// 16, every such char is. It stops before a surrogate and before such a char with more after it, which the caller
    /// writes another way (text in another script goes faster through <see cref="EscapeUtf8"/>). For a UTF-8
    /// destination this is the escape and the transcoding in one pass.
    /// </summary>
    /// <param name="value">The chars to escape.</param>
    /// <param name="destination">Where the UTF-8 goes.</param>
    /// <param name="consumed">How many chars of <paramref name="value"/> were written: all of them, or up to the first
    /// char it leaves to the caller.</param>
    /// <param name="chars">How many chars of output they are: the bytes written, less the bytes beyond the first of
    /// each char that is not ASCII.</param>
    /// <returns>The number of bytes written.</returns>
    /// <remarks>
    /// Optimised from its first call: only long strings come here, and a process may first meet them late, when tiered
    /// code would run it unoptimised for hundreds of calls.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static int EscapeAscii(ReadOnlySpan<char> value, Span<byte> destination, out int consumed, out int chars)
    {
        if ((long)destination.Length < (long)value.Length * JsonConstants.MaxEscapedCharLength)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = value.Length;
        int i = 0;
        int w = 0;

        // The bytes written beyond the first for a char that is not ASCII: the bytes that are not chars of output.
        int extraBytes = 0;

        // Runs of four blocks first, checked together: in prose, a curly quote or a dash every few blocks costs a
        // mispredicted branch for each char that stops the check, where block by block it costs one for each block that
        // has one. Each stop is written over where its block stored it, and the run's chars after it are stored again
        // behind it (RunLength of them, which may reach into the next run, stored again there). That reads up to a run
        // past the run, so runs go on while two are left; the blocks below take the rest, making the same choices.
        while (i <= length - (2 * RunLength))
        {
            ref ushort run = ref Unsafe.Add(ref source, i);
            ref byte output = ref Unsafe.Add(ref target, w);
            ulong stops = NarrowRun(ref run, ref output);

            // How many bytes the run's output has grown past its chars, so far.
            int grown = 0;
            for (; stops != 0; stops &= stops - 1)
            {
                int at = BitOperations.TrailingZeroCount(stops);
                ushort c = Unsafe.Add(ref run, at);
                if (c < 0x80)
                {
                    grown += EscapeAsciiOne(c, ref Unsafe.Add(ref output, at + grown)) - 1;
                }
                else if (!TakesInPlace(ref Unsafe.Add(ref run, at)))
                {
                    // Left to the caller, as the blocks below leave it.
                    consumed = i + at;
                    chars = w + at + grown - extraBytes;
                    return w + at + grown;
                }
                else
                {
                    int extra = EncodeOtherOver(c, ref Unsafe.Add(ref output, at + grown));
                    grown += extra;
                    extraBytes += extra;
                }

                StoreRun(ref Unsafe.Add(ref run, at + 1), ref Unsafe.Add(ref output, at + 1 + grown));
            }

            i += RunLength;
            w += RunLength + grown;
        }

        while (true)
        {
            // The blocks stop at a char that is not ASCII; one with a block's worth of chars from it on goes on here.
            w += EscapeBlocks<AsciiTarget, byte>(
                ref Unsafe.Add(ref source, i), length - i, ref Unsafe.Add(ref target, w), out int read, out _);
            i += read;
            if (i > length - BlockLength)
            {
                break;
            }

            ushort c = Unsafe.Add(ref source, i);
            Debug.Assert(c >= 0x80, "the blocks write every ASCII char");
            if (!TakesInPlace(ref Unsafe.Add(ref source, i)))
            {
                consumed = i;
                chars = w - extraBytes;
                return w;
            }

            int extra = EncodeOtherOver(c, ref Unsafe.Add(ref target, w));
            w += 1 + extra;
            extraBytes += extra;
            i++;
        }

        // The last chars, fewer than a block: every char that is not ASCII among them is written, but a surrogate.
        while (i < length)
        {
            ushort c = Unsafe.Add(ref source, i);
            if (c >= 0x80)
            {
                if (char.IsSurrogate((char)c))
                {
                    break;
                }

                int extra = EncodeOtherOver(c, ref Unsafe.Add(ref target, w));
                w += 1 + extra;
                extraBytes += extra;
            }
            else if (IsSpecial(c))
            {
                w += EscapeAsciiOne(c, ref Unsafe.Add(ref target, w));
            }
            else
            {
                Unsafe.Add(ref target, w++) = (byte)c;
            }

            i++;
        }

        consumed = i;
        chars = w - extraBytes;
        return w;
    }

    /// <summary>
    /// Copies <paramref name="value"/>, of <see cref="MinShortLength"/> to <see cref="MaxShortLength"/> chars, into
    /// <paramref name="destination"/> when none of its chars needs escaping, which is then its escaped form; false when
    /// one does (the destination then holds a partial copy, to be written over). Inlined into the writer, it spares the
    /// names and short values of a document the call to <see cref="Escape"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryCopyShort(string value, Span<char> destination)
    {
        Debug.Assert(value.Length is >= MinShortLength and <= MaxShortLength, "a short value");
        if (destination.Length < value.Length)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        return CopyShort(
            ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value.AsSpan())),
            value.Length,
            ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination))) == 0;
    }

    /// <summary>
    /// Like <see cref="TryCopyShort"/>, for a value of <see cref="MaxShortLength"/> + 1 to
    /// <see cref="MaxMediumLength"/> chars: whole blocks, the last one reaching back over chars already copied. Inlined
    /// into the writer, it spares the clean values of that length (names, identifiers, URLs) the call to
    /// <see cref="Escape"/>, which the JIT inlines or not depending on the profile of the documents it saw first.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryCopyMedium(string value, Span<char> destination)
    {
        Debug.Assert(value.Length is > MaxShortLength and <= MaxMediumLength, "a medium value");
        if (destination.Length < value.Length)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value.AsSpan()));
        ref ushort target = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination));
        int lastBlock = value.Length - BlockLength;

        // The last block first, and a stop at the first block with a char to escape: a value that needs escaping
        // mostly has it at its end (a line break), and is then copied only that far before the escaper takes it.
        if (CopyBlock(ref Unsafe.Add(ref source, lastBlock), ref Unsafe.Add(ref target, lastBlock)) != 0)
        {
            return false;
        }

        for (int i = 0; i < lastBlock; i += BlockLength)
        {
            if (CopyBlock(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, i)) != 0)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// Whether <paramref name="value"/> has a char that JSON.stringify escapes: a control char, '"', '\\', or a
    /// surrogate that is not half of a well-formed pair. A value without one is its own escaped form.
    /// </summary>
    public static bool NeedsEscaping(ReadOnlySpan<char> value)
    {
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        int length = value.Length;

        // 1 when the char before the current one is a high surrogate, which only a low surrogate may follow.
        uint pendingHigh = 0;
        int i = 0;
        for (; i <= length - BlockLength; i += BlockLength)
        {
            ref ushort block = ref Unsafe.Add(ref source, i);
            uint special = BlockSpecialMask(ref block);
            if (special == 0)
            {
                if (pendingHigh != 0)
                {
                    return true;
                }

                continue;
            }

            // Only surrogates may pass (a special char that is not one is always escaped), and only in pairs: each low
            // surrogate right after a high one (the lane before, or the last char of the block before), and each high
            // one right before a low one.
            (uint high, uint low) = BlockSurrogateMasks(ref block);
            if (special != (high | low) || low != (((high << 1) | pendingHigh) & BlockMask))
            {
                return true;
            }

            pendingHigh = high >> (BlockLength - 1);
        }

        for (; i < length; i++)
        {
            ushort c = Unsafe.Add(ref source, i);
            bool low = (c & 0xFC00) == 0xDC00;
            if (c < ' ' || c == '"' || c == '\\' || low != (pendingHigh != 0))
            {
                return true;
            }

            pendingHigh = (c & 0xFC00) == 0xD800 ? 1u : 0u;
        }

        return pendingHigh != 0;
    }

    /// <summary>The quoted JSON string for <paramref name="value"/>, followed by <paramref name="suffix"/>.</summary>
    public static string Quote(string value, string suffix)
    {
        if (value.Length > EscapeSliceLength)
        {
            return QuoteInSlices(value, suffix);
        }

        var buffer = new char[(value.Length * JsonConstants.MaxEscapedCharLength) + 2 + suffix.Length];
        buffer[0] = '"';
        int w = 1 + Escape(value, buffer.AsSpan(1));
        buffer[w++] = '"';
        suffix.CopyTo(buffer.AsSpan(w));
        return new string(buffer, 0, w + suffix.Length);
    }

    // Quote for a value longer than a slice, whose worst-case buffer could pass the longest array: escaped in slices,
    // once to count and again into the string. A quoted form longer than a string can be (a name of a hundred million
    // control chars and more) is an ArgumentException.
    private static string QuoteInSlices(string value, string suffix)
    {
        long length = 2 + EscapeInSlices(value, []) + suffix.Length;
        if (length > JsonConstants.MaxStringLength)
        {
            throw new ArgumentException(
                $"A name of {value.Length} chars quotes to {length} chars, more than a string holds.", nameof(value));
        }

        return string.Create((int)length, (value, suffix), static (text, parts) =>
        {
            text[0] = '"';
            int w = 1 + (int)EscapeInSlices(parts.value, text[1..]);
            text[w++] = '"';
            parts.suffix.CopyTo(text[w..]);
        });
    }

    /// <summary>
    /// The length of the next slice of a long string: at most <paramref name="maxLength"/> chars, one fewer where the
    /// slice would end between the two halves of a surrogate pair.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int SliceLength(ReadOnlySpan<char> rest, int maxLength)
    {
        Debug.Assert(maxLength >= 2, "a slice holds a pair");
        int take = Math.Min(maxLength, rest.Length);
        if (take < rest.Length && char.IsHighSurrogate(rest[take - 1]))
        {
            take--;
        }

        return take;
    }

    // The chars EscapeInSlices escapes at a time.
    private const int EscapeSliceLength = 1 << 16;

    /// <summary>
    /// Escapes <paramref name="value"/> a slice at a time (never between the two halves of a pair) and writes the
    /// escape into <paramref name="destination"/>, which holds it exactly or more; an empty destination only counts.
    /// For values too long for a buffer of <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char.
    /// </summary>
    /// <returns>The length of the escape.</returns>
    public static long EscapeInSlices(ReadOnlySpan<char> value, Span<char> destination)
    {
        char[] slice = ArrayPool<char>.Shared.Rent(EscapeSliceLength * JsonConstants.MaxEscapedCharLength);
        try
        {
            long length = 0;
            while (!value.IsEmpty)
            {
                int take = SliceLength(value, EscapeSliceLength);
                int escaped = Escape(value[..take], slice);
                if (!destination.IsEmpty)
                {
                    slice.AsSpan(0, escaped).CopyTo(destination[(int)length..]);
                }

                length += escaped;
                value = value[take..];
            }

            return length;
        }
        finally
        {
            ArrayPool<char>.Shared.Return(slice);
        }
    }

    // The one pass shared by Escape and EscapeAscii, over the value's whole blocks: each block is loaded once, stored
    // at its place in the output and checked; the chars that stopped the check are escaped one at a time, and after
    // each, the chars that follow are stored again at the new distance, unchecked (the block's mask already says which
    // of them stop), until the mask runs out. Returns the number of units written; `consumed` is how many chars were
    // read (at most one block short of the end, or up to a char the target cannot write), and `sameDistanceFrom` is the
    // char after the last escape, from which on the output has stood at its current distance from the input.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeBlocks<TTarget, TUnit>(ref ushort source, int length, ref TUnit target, out int consumed, out int sameDistanceFrom)
        where TTarget : struct, IEscapeTarget<TUnit>
    {
        int i = 0;
        int w = 0;
        int sameDistance = 0;
        int lastBlock = length - BlockLength;
        while (i <= lastBlock)
        {
            uint stops = TTarget.StoreBlock(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w));
            if (stops == 0)
            {
                i += BlockLength;
                w += BlockLength;
                continue;
            }

            int blockStart = i;
            int blockEnd = i + BlockLength;

            // A block with two stops or more, written whole where the target can (a char target's room, 6 chars a
            // char, holds its 32 chars of stores: the output so far is at most 6 a char, and a block or more is left);
            // one with a single stop costs less by the loop below.
            if ((stops & (stops - 1)) != 0
                && TTarget.TryEscapeShortOnly(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w), out int written))
            {
                i = blockEnd;
                w += written;
                sameDistance = i;
                continue;
            }

            while (true)
            {
                int next = blockStart + BitOperations.TrailingZeroCount(stops);
                w += next - i;
                i = next;
                if (!TTarget.Writes(Unsafe.Add(ref source, i)))
                {
                    goto Done;
                }

                w = TTarget.EscapeStop(ref source, length, i, ref target, w, out int read);
                i += read;
                sameDistance = i;
                if (i > lastBlock)
                {
                    goto Done;
                }

                TTarget.Store(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w));
                stops &= ~0u << (i - blockStart);
                if (stops == 0)
                {
                    break;
                }
            }

            // A surrogate pair at the block's last char may have carried i one past its end; with one char per stop, i
            // is at most the block's end, and the test folds away.
            if (TTarget.MaxCharsPerStop == 1 || i < blockEnd)
            {
                w += blockEnd - i;
                i = blockEnd;
            }
        }

    Done:
        consumed = i;
        sameDistanceFrom = sameDistance;
        return w;
    }

    // What EscapeBlocks writes into: its unit (char or byte), how a block is stored and checked, and how a char that
    // stopped the check is written. Implemented by structs, so that each target gets a loop compiled for it alone.
    private interface IEscapeTarget<TUnit>
    {
        // Stores BlockLength chars and returns the mask of those that stop the copy (bit k for the block's char k).
        static abstract uint StoreBlock(ref ushort source, ref TUnit target);

        // Stores BlockLength chars, unchecked.
        static abstract void Store(ref ushort source, ref TUnit target);

        // The most chars one EscapeStop reads.
        static abstract int MaxCharsPerStop { get; }

        // Whether this target writes the char c that stopped the copy; when it does not, the pass ends before it.
        static abstract bool Writes(ushort c);

        // Writes the char at i, which stopped the copy, at w; returns where the output goes on, and how many chars it
        // read (1 to MaxCharsPerStop).
        static abstract int EscapeStop(ref ushort source, int length, int i, ref TUnit target, int w, out int read);

        // Writes a block whose stops all have a short escape whole, with its escapes, where the target can; false,
        // with nothing written, where it cannot or a stop has none.
        static abstract bool TryEscapeShortOnly(ref ushort source, ref TUnit target, out int written);
    }

    // UTF-16 output: stops at every char JSON.stringify escapes, and writes each.
    private readonly struct CharTarget : IEscapeTarget<ushort>
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static uint StoreBlock(ref ushort source, ref ushort target) => CopyBlock(ref source, ref target);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void Store(ref ushort source, ref ushort target) => Copy(ref source, ref target);

        // A surrogate pair, written as it is.
        public static int MaxCharsPerStop => 2;

        public static bool Writes(ushort c) => true;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static int EscapeStop(ref ushort source, int length, int i, ref ushort target, int w, out int read) =>
            EscapeOne(ref source, length, i, ref target, w, out read);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static bool TryEscapeShortOnly(ref ushort source, ref ushort target, out int written) =>
            TryEscapeBlockOfShortEscapes(ref source, ref target, out written);
    }

    // UTF-8 output for ASCII chars: stops at the chars JSON.stringify escapes and at every char that is not ASCII, and
    // writes only the former.
    private readonly struct AsciiTarget : IEscapeTarget<byte>
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static uint StoreBlock(ref ushort source, ref byte target) => NarrowBlock(ref source, ref target);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void Store(ref ushort source, ref byte target) => Narrow(ref source, ref target);

        public static int MaxCharsPerStop => 1;

        public static bool Writes(ushort c) => c < 0x80;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static int EscapeStop(ref ushort source, int length, int i, ref byte target, int w, out int read)
        {
            read = 1;
            return w + EscapeAsciiOne(Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w));
        }

        // Its stops are mostly chars that are not ASCII, which it does not write.
        public static bool TryEscapeShortOnly(ref ushort source, ref byte target, out int written)
        {
            written = 0;
            return false;
        }
    }

    // Copies a value of MinShortLength to MaxShortLength chars and returns the mask of those that need escaping: two
    // pieces that meet or overlap cover the whole value (8 chars each, or 4, or 2, whichever fits); the chars they
    // share are stored twice, the same both times, as nothing has been escaped yet.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyShort(ref ushort source, int length, ref ushort target)
    {
        Debug.Assert(length is >= MinShortLength and <= MaxShortLength, "a short value");
        if (length >= HalfBlockLength)
        {
            return CopyHalfBlock(ref source, ref target) | (CopyHalfBlock(ref Unsafe.Add(ref source, length - HalfBlockLength), ref Unsafe.Add(ref target, length - HalfBlockLength)) << (length - HalfBlockLength));
        }

        if (length >= 4)
        {
            return CopyFour(ref source, ref target) | (CopyFour(ref Unsafe.Add(ref source, length - 4), ref Unsafe.Add(ref target, length - 4)) << (length - 4));
        }

        return CopyTwo(ref source, ref target) | (CopyTwo(ref Unsafe.Add(ref source, length - 2), ref Unsafe.Add(ref target, length - 2)) << (length - 2));
    }

    // Of the BlockLength chars at source, the masks (bit k for the block's char k) of the high surrogates and of the
    // low ones.
    private static (uint High, uint Low) BlockSurrogateMasks(ref ushort source)
    {
        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<ushort> kind = Vector256.LoadUnsafe(ref source) & Vector256.Create((ushort)0xFC00);
            return (
                Vector256.Equals(kind, Vector256.Create((ushort)0xD800)).ExtractMostSignificantBits(),
                Vector256.Equals(kind, Vector256.Create((ushort)0xDC00)).ExtractMostSignificantBits());
        }

        (uint high, uint low) = HalfBlockSurrogateMasks(Vector128.LoadUnsafe(ref source));
        (uint highAfter, uint lowAfter) = HalfBlockSurrogateMasks(Vector128.LoadUnsafe(ref source, HalfBlockLength));
        return (high | (highAfter << HalfBlockLength), low | (lowAfter << HalfBlockLength));
    }

    // BlockSurrogateMasks for half a block.
    private static (uint High, uint Low) HalfBlockSurrogateMasks(Vector128<ushort> chars)
    {
        Vector128<ushort> kind = chars & Vector128.Create((ushort)0xFC00);
        return (
            Vector128.Equals(kind, Vector128.Create((ushort)0xD800)).ExtractMostSignificantBits(),
            Vector128.Equals(kind, Vector128.Create((ushort)0xDC00)).ExtractMostSignificantBits());
    }

    // Copies BlockLength chars and returns a mask of those that need escaping (bit k for the block's char k).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyBlock(ref ushort source, ref ushort target)
    {
        if (Sse2.IsSupported)
        {
            if (Vector256.IsHardwareAccelerated)
            {
                Vector256<ushort> chars = Vector256.LoadUnsafe(ref source);
                chars.StoreUnsafe(ref target);
                return PackedSpecialMask(chars.GetLower(), chars.GetUpper());
            }

            Vector128<ushort> lower = Vector128.LoadUnsafe(ref source);
            Vector128<ushort> upper = Vector128.LoadUnsafe(ref source, HalfBlockLength);
            lower.StoreUnsafe(ref target);
            upper.StoreUnsafe(ref target, HalfBlockLength);
            return PackedSpecialMask(lower, upper);
        }

        return CopyHalfBlock(ref source, ref target)
            | (CopyHalfBlock(ref Unsafe.Add(ref source, HalfBlockLength), ref Unsafe.Add(ref target, HalfBlockLength)) << HalfBlockLength);
    }

    // The mask of the BlockLength chars at source that need escaping, as CopyBlock returns it, without a copy.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint BlockSpecialMask(ref ushort source)
    {
        if (Sse2.IsSupported)
        {
            return PackedSpecialMask(Vector128.LoadUnsafe(ref source), Vector128.LoadUnsafe(ref source, HalfBlockLength));
        }

        return SpecialMask(Vector128.LoadUnsafe(ref source)) | (SpecialMask(Vector128.LoadUnsafe(ref source, HalfBlockLength)) << HalfBlockLength);
    }

    // With AVX2, writes the BlockLength chars at source escaped at target, which has room for 2 × BlockLength chars,
    // where every char to escape among them has a short escape (\b, \t, \n, \f, \r, \" or \\): written is how many
    // chars that took. False, with nothing written, where the block has a control without a short escape or a
    // surrogate, or the processor lacks AVX2. Each char is laid out in two 16-bit lanes, the char (or the escape's
    // backslash) and then the escape's letter, four chars to a 128-bit vector, which a byte shuffle packs, leaving out
    // the second lane of each char without an escape.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryEscapeBlockOfShortEscapes(ref ushort source, ref ushort target, out int written)
    {
        written = 0;
        if (!Avx2.IsSupported)
        {
            return false;
        }

        Vector256<ushort> block = Vector256.LoadUnsafe(ref source);
        Vector256<ushort> controls = Vector256.LessThan(block, Vector256.Create((ushort)' '));
        Vector256<ushort> escaped = controls
            | Vector256.Equals(block, Vector256.Create((ushort)'"'))
            | Vector256.Equals(block, Vector256.Create((ushort)'\\'));
        Vector256<ushort> surrogates = Vector256.Equals(block & Vector256.Create((ushort)0xF800), Vector256.Create((ushort)0xD800));
        if (surrogates != Vector256<ushort>.Zero || !ControlsHaveShortEscapes(block, controls, out Vector256<ushort> letters))
        {
            return false;
        }

        Vector256<ushort> first = Vector256.ConditionalSelect(escaped, Vector256.Create((ushort)'\\'), block);
        Vector256<ushort> second = escaped & Vector256.ConditionalSelect(controls, letters, block);

        // Chars 0-3 and 8-11 in the low unpack's halves, 4-7 and 12-15 in the high one's.
        Vector256<ushort> lowPairs = Avx2.UnpackLow(first, second);
        Vector256<ushort> highPairs = Avx2.UnpackHigh(first, second);
        uint escapes = escaped.ExtractMostSignificantBits();
        int w = StoreFourPairs(lowPairs.GetLower(), escapes, ref target, 0);
        w = StoreFourPairs(highPairs.GetLower(), escapes >> 4, ref target, w);
        w = StoreFourPairs(lowPairs.GetUpper(), escapes >> 8, ref target, w);
        written = StoreFourPairs(highPairs.GetUpper(), escapes >> 12, ref target, w);
        return true;
    }

    // Stores four chars' pairs of lanes at w, each char's second lane only where its bit of escapes (the low four) is
    // set; returns where the output goes on. The store is eight chars wide, past what it keeps.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int StoreFourPairs(Vector128<ushort> pairs, uint escapes, ref ushort target, int w)
    {
        uint kept = escapes & 0xF;
        Vector128<byte> shuffle = Vector128.LoadUnsafe(ref MemoryMarshal.GetReference(FourPairShuffles), kept * 16);
        Ssse3.Shuffle(pairs.AsByte(), shuffle).AsUInt16().StoreUnsafe(ref target, (nuint)w);
        return w + 4 + BitOperations.PopCount(kept);
    }

    // For each set of the four chars' escapes (bit k for char k), the byte shuffle that packs their pairs of lanes:
    // char k's first lane, then its second where bit k is set; 0x80 (a zero byte) past them.
    private static ReadOnlySpan<byte> FourPairShuffles =>
    [
        0, 1, 4, 5, 8, 9, 12, 13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 0x80, 0x80, 0x80, 0x80,
        0, 1, 4, 5, 8, 9, 10, 11, 12, 13, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 0x80, 0x80, 0x80, 0x80,
        0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0x80, 0x80,
        0, 1, 4, 5, 8, 9, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 8, 9, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
        0, 1, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 0x80, 0x80,
        0, 1, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80,
        0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0x80, 0x80,
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ];

    // Copies BlockLength chars, unchecked.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Copy(ref ushort source, ref ushort target)
    {
        if (Vector256.IsHardwareAccelerated)
        {
            Vector256.LoadUnsafe(ref source).StoreUnsafe(ref target);
            return;
        }

        Vector128.LoadUnsafe(ref source).StoreUnsafe(ref target);
        Vector128.LoadUnsafe(ref source, HalfBlockLength).StoreUnsafe(ref target, HalfBlockLength);
    }

    // Stores BlockLength chars as bytes, unchecked: the chars' low halves, or with SSE2 each char saturated to a byte,
    // the same for the ASCII chars that are all the caller keeps.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Narrow(ref ushort source, ref byte target)
    {
        if (Sse2.IsSupported)
        {
            NarrowSaturated(ref source).StoreUnsafe(ref target);
            return;
        }

        Vector128.Narrow(Vector128.LoadUnsafe(ref source), Vector128.LoadUnsafe(ref source, HalfBlockLength)).StoreUnsafe(ref target);
    }

    // Stores BlockLength chars as bytes, as Narrow does, and returns a mask of those that need escaping or are not
    // ASCII (bit k for the block's char k); the bytes from the first of them on are written over.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint NarrowBlock(ref ushort source, ref byte target)
    {
        if (Sse2.IsSupported)
        {
            // Saturated, a char that is not ASCII becomes a byte from 0x80 up, or 0 from U+8000 on (a negative 16-bit
            // lane): one signed compare below ' ' finds it with the control chars, and the mask comes from 16 bytes.
            Vector128<byte> bytes = NarrowSaturated(ref source);
            bytes.StoreUnsafe(ref target);
            uint stops = ByteStops(bytes.AsSByte());
            Debug.Assert(
                stops == (AsciiStopMask(Vector128.LoadUnsafe(ref source))
                    | (AsciiStopMask(Vector128.LoadUnsafe(ref source, HalfBlockLength)) << HalfBlockLength)),
                "as the 16-bit lanes give it");
            return stops;
        }

        Vector128<ushort> lower = Vector128.LoadUnsafe(ref source);
        Vector128<ushort> upper = Vector128.LoadUnsafe(ref source, HalfBlockLength);
        Vector128.Narrow(lower, upper).StoreUnsafe(ref target);
        return AsciiStopMask(lower) | (AsciiStopMask(upper) << HalfBlockLength);
    }

    // The BlockLength chars at source as bytes, each saturated: a char up to 0xFF as it is, one above as 0xFF, or as 0
    // from U+8000 on (SSE2 packs signed 16-bit lanes).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<byte> NarrowSaturated(ref ushort source) =>
        Sse2.PackUnsignedSaturate(
            Vector128.LoadUnsafe(ref source).AsInt16(), Vector128.LoadUnsafe(ref source, HalfBlockLength).AsInt16());

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint AsciiStopMask(Vector128<ushort> chars)
    {
        return (Vector128.LessThan(chars, Vector128.Create((ushort)' '))
            | Vector128.Equals(chars, Vector128.Create((ushort)'"'))
            | Vector128.Equals(chars, Vector128.Create((ushort)'\\'))
            | Vector128.GreaterThan(chars, Vector128.Create((ushort)0x7F))).ExtractMostSignificantBits();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyHalfBlock(ref ushort source, ref ushort target)
    {
        Vector128<ushort> chars = Vector128.LoadUnsafe(ref source);
        chars.StoreUnsafe(ref target);
        return SpecialMask(chars);
    }

    // SpecialMask of a block given as its two halves, with SSE2. The chars are packed into signed bytes with saturation
    // (one up to U+007F as it is, one from U+0080 to U+7FFF as 0x7F, one from U+8000 on, a negative 16-bit lane, as
    // -128), so that one compare below ' ' and two for '"' and '\\', on one vector of bytes, find the stops among the
    // chars below U+8000, and flag every char from U+8000 on; only where there is one do the 16-bit lanes tell which of
    // those are surrogates.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint PackedSpecialMask(Vector128<ushort> lower, Vector128<ushort> upper)
    {
        Vector128<sbyte> bytes = Sse2.PackSignedSaturate(lower.AsInt16(), upper.AsInt16());
        uint special = ByteStops(bytes);
        uint wide = bytes.ExtractMostSignificantBits();
        if (wide != 0)
        {
            Vector128<ushort> surrogateBits = Vector128.Create((ushort)0xF800);
            Vector128<ushort> surrogate = Vector128.Create((ushort)0xD800);
            special = (special & ~wide) | Sse2.PackSignedSaturate(
                Vector128.Equals(lower & surrogateBits, surrogate).AsInt16(),
                Vector128.Equals(upper & surrogateBits, surrogate).AsInt16()).ExtractMostSignificantBits();
        }

        Debug.Assert(
            special == (SpecialMask(lower) | (SpecialMask(upper) << HalfBlockLength)), "as the 16-bit lanes give it");
        return special;
    }

    // Bit k set when byte k of a saturated block (NarrowBlock's, PackedSpecialMask's) is below ' ' as a signed byte, or
    // is '"' or '\\': a control char or one the pack made 0, a char the pack made negative, a quote, a backslash.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint ByteStops(Vector128<sbyte> bytes) =>
        (Vector128.LessThan(bytes, Vector128.Create((sbyte)' '))
            | Vector128.Equals(bytes, Vector128.Create((sbyte)'"'))
            | Vector128.Equals(bytes, Vector128.Create((sbyte)'\\'))).ExtractMostSignificantBits();

    // Bit k set when lane k of chars needs escaping.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint SpecialMask(Vector128<ushort> chars)
    {
        return (Vector128.LessThan(chars, Vector128.Create((ushort)' '))
            | Vector128.Equals(chars, Vector128.Create((ushort)'"'))
            | Vector128.Equals(chars, Vector128.Create((ushort)'\\'))
            | Vector128.LessThan(chars - Vector128.Create((ushort)0xD800), Vector128.Create((ushort)0x800))).ExtractMostSignificantBits();
    }

    // Copies 4 chars (one 64-bit move) and returns the mask of those that need escaping, checked in a vector whose
    // other lanes are masked off.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyFour(ref ushort source, ref ushort target)
    {
        ulong chars = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref source));
        Unsafe.WriteUnaligned(ref Unsafe.As<ushort, byte>(ref target), chars);
        return SpecialMask(Vector128.CreateScalarUnsafe(chars).AsUInt16()) & 0b1111;
    }

    // Copies 2 chars (one 32-bit move); as CopyFour.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyTwo(ref ushort source, ref ushort target)
    {
        uint chars = Unsafe.ReadUnaligned<uint>(ref Unsafe.As<ushort, byte>(ref source));
        Unsafe.WriteUnaligned(ref Unsafe.As<ushort, byte>(ref target), chars);
        return SpecialMask(Vector128.CreateScalarUnsafe(chars).AsUInt16()) & 0b11;
    }

    // The chars from i on, one at a time: what is left of a value after its last whole block, or a short value.
    private static int EscapeRest(ref ushort source, int length, ref ushort target, int i, int w)
    {
        while (i < length)
        {
            ushort c = Unsafe.Add(ref source, i);
            if (IsSpecial(c))
            {
                w = EscapeOne(ref source, length, i, ref target, w, out int read);
                i += read;
            }
            else
            {
                Unsafe.Add(ref target, w++) = c;
                i++;
            }
        }

        return w;
    }

    /// <summary>
    /// Whether <paramref name="c"/>, as the only char of a string, is escaped: '"', '\\', a control below U+0020, or a
    /// surrogate (which has no other half there).
    /// </summary>
    public static bool IsEscapedAlone(char c) => IsSpecial(c);

    // Exactly what JSON.stringify escapes: '"', '\\', controls below U+0020, and every surrogate (EscapeOne lets a
    // well-formed pair through unescaped).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsSpecial(ushort c) => c < ' ' || c == '"' || c == '\\' || (uint)(c - 0xD800) < 0x800;

    // Writes the special char at i (with its low surrogate, for a well-formed pair) at w; returns where the output
    // goes on, and how many chars it read. The indexes are passed and returned by value, so that the caller's loop
    // keeps them in registers whether or not the JIT inlines this (a profile of documents without escapes leaves it a
    // call). Optimised from its first call: a document of many escapes met late in a process (after many calls whose
    // strings had none) would otherwise run it unoptimised for its first hundreds of calls, and plain arithmetic like
    // this gains nothing from a profile.
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static int EscapeOne(ref ushort source, int length, int i, ref ushort target, int w, out int read)
    {
        ushort c = Unsafe.Add(ref source, i);
        Debug.Assert(IsSpecial(c), "Only chars that need escaping come here.");
        byte shortForm = c < ShortEscapes.Length ? ShortEscapes[c] : (byte)0;
        if (shortForm != 0)
        {
            Unsafe.Add(ref target, w) = '\\';
            Unsafe.Add(ref target, w + 1) = shortForm;
            read = 1;
            return w + 2;
        }

        if (char.IsHighSurrogate((char)c) && i + 1 < length && char.IsLowSurrogate((char)Unsafe.Add(ref source, i + 1)))
        {
            Unsafe.Add(ref target, w) = c;
            Unsafe.Add(ref target, w + 1) = Unsafe.Add(ref source, i + 1);
            read = 2;
            return w + 2;
        }

        // \uXXXX with lowercase hex, as the spec's UnicodeEscape writes it.
        Unsafe.Add(ref target, w) = '\\';
        Unsafe.Add(ref target, w + 1) = 'u';
        Unsafe.Add(ref target, w + 2) = (ushort)HexDigits[c >> 12];
        Unsafe.Add(ref target, w + 3) = (ushort)HexDigits[(c >> 8) & 0xF];
        Unsafe.Add(ref target, w + 4) = (ushort)HexDigits[(c >> 4) & 0xF];
        Unsafe.Add(ref target, w + 5) = (ushort)HexDigits[c & 0xF];
        read = 1;
        return w + JsonConstants.MaxEscapedCharLength;
    }

    /// <summary>
    /// The most chars that are not ASCII among 16, from one of them on, for <see cref="EscapeAscii"/> to write that one
    /// in place: the curly quotes, apostrophes and dashes of English prose come one to four to 16 chars (a quoted word
    /// with an apostrophe in it, <c>“don’t”</c>, is three), the letters of another script many. Each is written by
    /// itself, a branch apiece, so denser text goes faster through <see cref="EscapeUtf8"/>'s blocks or the transcoder.
    /// </summary>
    public const int MaxOthersPerBlock = 4;

    /// <summary>
    /// Whether <see cref="EscapeAscii"/> suits the text at the start of <paramref name="value"/>: its first char is not
    /// a surrogate, and at most <see cref="MaxOthersPerBlock"/> of its first 16 chars (or of all, where it has fewer)
    /// are not ASCII. Then EscapeAscii writes at least that char, and goes on while the text stays as sparse; denser
    /// text goes faster through <see cref="EscapeUtf8"/>.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool SuitsEscapeAscii(ReadOnlySpan<char> value)
    {
        if (value.Length >= BlockLength)
        {
            return TakesInPlace(ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value)));
        }

        if (value.IsEmpty || char.IsSurrogate(value[0]))
        {
            return false;
        }

        int others = 0;
        foreach (char c in value)
        {
            others += c >= 0x80 ? 1 : 0;
        }

        return others <= MaxOthersPerBlock;
    }

    // Whether EscapeAscii writes the char at source, with a block's worth of chars from it on, in place: it is not a
    // surrogate, and at most MaxOthersPerBlock of the BlockLength chars from it on are not ASCII.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TakesInPlace(ref ushort source) =>
        !char.IsSurrogate((char)source) && OthersInBlock(ref source) <= MaxOthersPerBlock;

    // How many of the BlockLength chars at source are not ASCII.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int OthersInBlock(ref ushort source)
    {
        Vector128<ushort> notAscii = Vector128.Create((ushort)0xFF80);
        Vector128<ushort> lower = Vector128.Equals(Vector128.LoadUnsafe(ref source) & notAscii, Vector128<ushort>.Zero);
        Vector128<ushort> upper = Vector128.Equals(Vector128.LoadUnsafe(ref source, HalfBlockLength) & notAscii, Vector128<ushort>.Zero);
        uint ascii = lower.ExtractMostSignificantBits() | (upper.ExtractMostSignificantBits() << HalfBlockLength);
        return BlockLength - BitOperations.PopCount(ascii);
    }

    // Stores RunLength chars as bytes, as four NarrowBlock calls do, and returns the mask of those that need escaping
    // or are not ASCII (bit k for the run's char k).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong NarrowRun(ref ushort source, ref byte target) =>
        NarrowBlock(ref source, ref target)
        | ((ulong)NarrowBlock(ref Unsafe.Add(ref source, BlockLength), ref Unsafe.Add(ref target, BlockLength)) << BlockLength)
        | ((ulong)NarrowBlock(ref Unsafe.Add(ref source, 2 * BlockLength), ref Unsafe.Add(ref target, 2 * BlockLength)) << (2 * BlockLength))
        | ((ulong)NarrowBlock(ref Unsafe.Add(ref source, 3 * BlockLength), ref Unsafe.Add(ref target, 3 * BlockLength)) << (3 * BlockLength));

    // Stores RunLength chars as bytes, unchecked, as Narrow does.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void StoreRun(ref ushort source, ref byte target)
    {
        Narrow(ref source, ref target);
        Narrow(ref Unsafe.Add(ref source, BlockLength), ref Unsafe.Add(ref target, BlockLength));
        Narrow(ref Unsafe.Add(ref source, 2 * BlockLength), ref Unsafe.Add(ref target, 2 * BlockLength));
        Narrow(ref Unsafe.Add(ref source, 3 * BlockLength), ref Unsafe.Add(ref target, 3 * BlockLength));
    }

    // Writes c, a char from U+0080 on that is not a surrogate, as UTF-8 at target with one store: two bytes, or three
    // and a fourth that what follows writes over (or, after the value's last char, that lies past the output, in the
    // destination's room of MaxEscapedCharLength bytes per char). Returns the bytes beyond the first (1 or 2).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EncodeOtherOver(ushort c, ref byte target)
    {
        Debug.Assert(c >= 0x80 && !char.IsSurrogate((char)c), "a char of two or three bytes");
        Debug.Assert(BitConverter.IsLittleEndian, "the store's low byte goes first");
        uint code = c;
        if (code < 0x800)
        {
            Unsafe.WriteUnaligned(ref target, (ushort)(0x80C0 | (code >> 6) | ((code & 0x3F) << 8)));
            return 1;
        }

        Unsafe.WriteUnaligned(ref target, 0x8080E0 | (code >> 12) | (((code >> 6) & 0x3F) << 8) | ((code & 0x3F) << 16));
        return 2;
    }

    // Writes the escape of an ASCII char that needs one, as bytes at target, and returns how many (2 or 6). The
    // caller's write index stays its own (no ref to it), so that it can stay in a register in the caller's loop.
    // Inlined: EscapeAscii is compiled optimised at its first call, without a profile, and the JIT's own budget would
    // leave this out of its loops.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeAsciiOne(ushort c, ref byte target)
    {
        Debug.Assert(c < 0x80 && IsSpecial(c), "Only ASCII chars that need escaping come here.");
        byte shortForm = ShortEscapes[c];
        if (shortForm != 0)
        {
            target = (byte)'\\';
            Unsafe.Add(ref target, 1) = shortForm;
            return 2;
        }

        // A control char without a short form: \u00XX, lowercase hex.
        target = (byte)'\\';
        Unsafe.Add(ref target, 1) = (byte)'u';
        Unsafe.Add(ref target, 2) = (byte)'0';
        Unsafe.Add(ref target, 3) = (byte)'0';
        Unsafe.Add(ref target, 4) = HexDigits[c >> 4];
        Unsafe.Add(ref target, 5) = HexDigits[c & 0xF];
        return JsonConstants.MaxEscapedCharLength;
    }

    // The letter after the backslash for the chars the spec gives a short escape (its table of code points, in
    // QuoteJSONString), indexed by char; 0 for the others.
    private static ReadOnlySpan<byte> ShortEscapes =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, (byte)'b', (byte)'t', (byte)'n', 0, (byte)'f', (byte)'r', 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, (byte)'"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte)'\\',
    ];

    private static ReadOnlySpan<byte> HexDigits => "0123456789abcdef"u8;
}
