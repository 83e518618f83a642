using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

// QuoteJSONString into chars in blocks of 32 with AVX-512 VBMI2 (the transcoder's wide blocks): a block whose escapes
// all have a short form is written whole, however many escapes it has, without a branch per escape.
internal static partial class StringEscaper
{
    // The chars of a wide block: one 512-bit vector.
    private const int WideBlockLength = Utf8Transcoder.BlockLength;

    // The room a wide block's stores reach from where its output starts: two vectors of 32 chars, its chars and
    // escapes packed into the first and on into the second.
    private const int WideBlockRoom = 2 * WideBlockLength;

    /// <summary>
    /// The room <see cref="Escape"/> takes for a value of <paramref name="length"/> chars to go its fastest way:
    /// <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char, and, where it escapes in blocks of 32, at least
    /// a block's stores (less room is still enough, and its blocks go the slower way).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int RoomFor(int length) =>
        Utf8Transcoder.HasWideBlocks
            ? Math.Max(length * JsonConstants.MaxEscapedCharLength, WideBlockRoom)
            : length * JsonConstants.MaxEscapedCharLength;

    // Escape with AVX-512 VBMI2. Each block's chars are laid out two lanes apiece, the char (or the backslash of its
    // escape) and then the escape's letter or the escaped char itself, or NUL where the char is not escaped; a compress
    // drops the NULs and packs the rest in order, the block's first 16 chars into one vector and the others into a
    // second, stored where the first ends. No char that reaches this layout is NUL (a NUL is escaped as \u0000, which
    // goes the other way), so NUL marks only the lanes to drop. The 16-char blocks take the rest of the text from the
    // first block with a control that has no short form or a surrogate that is not half of a pair (both are written as
    // \uXXXX), or from where the room left is less than a block's stores.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeIn32CharBlocks(ReadOnlySpan<char> value, Span<char> destination)
    {
        Debug.Assert(Utf8Transcoder.HasWideBlocks, "only where the 512-bit blocks are");
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref ushort target = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination));
        int length = value.Length;
        int i = 0;
        int w = 0;
        while (i < length && destination.Length - w >= WideBlockRoom)
        {
            // The value's chars in this block: all its lanes, or at the value's end the first few, the others spaces
            // (nothing to escape; their stores land past the output, which w leaves out).
            int count = Math.Min(WideBlockLength, length - i);
            Vector512<ushort> block = count == WideBlockLength
                ? Vector512.LoadUnsafe(ref source, (nuint)i)
                : Utf8Transcoder.LoadFirstLanes(ref Unsafe.Add(ref source, i), count, filler: ' ');
            Vector512<ushort> controls = Vector512.LessThan(block, Vector512.Create((ushort)' '));
            Vector512<ushort> escaped = controls
                | Vector512.Equals(block, Vector512.Create((ushort)'"'))
                | Vector512.Equals(block, Vector512.Create((ushort)'\\'));
            Vector512<ushort> surrogates = Vector512.Equals(block & Vector512.Create((ushort)0xF800), Vector512.Create((ushort)0xD800));

            // The common block of a value that reaches the escaper: one that needs nothing escaped (the long value's
            // text before its escapes), stored as it is.
            if ((escaped | surrogates) == Vector512<ushort>.Zero)
            {
                block.StoreUnsafe(ref target, (nuint)w);
                i += count;
                w += count;
                continue;
            }

            // The chars this block writes: all of the value's, or all but a high surrogate last with chars after it,
            // whose low one comes next: the next block starts with it. So a low surrogate first in a block has no
            // high one before it.
            int take = count;
            ulong high = 0;
            ulong low = 0;
            if (surrogates != Vector512<ushort>.Zero)
            {
                Vector512<ushort> kind = block & Vector512.Create((ushort)0xFC00);
                high = Vector512.Equals(kind, Vector512.Create((ushort)0xD800)).ExtractMostSignificantBits();
                low = Vector512.Equals(kind, Vector512.Create((ushort)0xDC00)).ExtractMostSignificantBits();
                if ((high >> (count - 1) & 1) != 0 && i + count < length)
                {
                    take = count - 1;
                    high &= ~(1UL << take);
                }
            }

            // A surrogate without its other half, or a control without a short escape: the 16-char blocks write
            // this block and the rest.
            ulong unpaired = (high & ~(low >> 1)) | (low & ~(high << 1));
            if (unpaired != 0 || !ControlsHaveShortEscapes(block, controls, out Vector512<ushort> letters))
            {
                break;
            }

            // Lane k of the block's chars becomes lanes 2k and 2k + 1 of the pairs: the first 16 chars in the lower
            // vector, the others in the upper.
            Vector512<ushort> first = Vector512.ConditionalSelect(escaped, Vector512.Create((ushort)'\\'), block);
            Vector512<ushort> second = escaped & Vector512.ConditionalSelect(controls, letters, block);
            Vector512<ushort> lower = Avx512BW.PermuteVar32x16x2(first, InterleaveLower, second);
            Vector512<ushort> upper = Avx512BW.PermuteVar32x16x2(first, InterleaveUpper, second);
            uint escapes = (uint)escaped.ExtractMostSignificantBits();
            int lowerLength = (WideBlockLength / 2) + BitOperations.PopCount(escapes & 0xFFFF);
            Avx512Vbmi2.Compress(Vector512<ushort>.Zero, ~Vector512.Equals(lower, Vector512<ushort>.Zero), lower).StoreUnsafe(ref target, (nuint)w);
            Avx512Vbmi2.Compress(Vector512<ushort>.Zero, ~Vector512.Equals(upper, Vector512<ushort>.Zero), upper).StoreUnsafe(ref target, (nuint)(w + lowerLength));
            i += take;
            w += take + BitOperations.PopCount(escapes);
        }

        return i == length ? w : w + EscapeInBlocksOf16OutOfLine(value[i..], destination[w..]);
    }

    // The pairs' lanes for a block's first 16 chars: char k of the first vector, then char k of the second (indexes
    // from 32 on read the second vector).
    private static Vector512<ushort> InterleaveLower
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39, 8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47);
    }

    // The pairs' lanes for a block's last 16 chars.
    private static Vector512<ushort> InterleaveUpper
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => Vector512.Create(
            (ushort)16, 48, 17, 49, 18, 50, 19, 51, 20, 52, 21, 53, 22, 54, 23, 55, 24, 56, 25, 57, 26, 58, 27, 59, 28, 60, 29, 61, 30, 62, 31, 63);
    }

    // The 16-char blocks' escape, a call, for the text the wide blocks leave.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int EscapeInBlocksOf16OutOfLine(ReadOnlySpan<char> value, Span<char> destination) =>
        EscapeInBlocksOf16(value, destination);

    // Whether escaped is what the 16-char blocks write for value: the wide blocks' invariant, for Debug.Assert.
    private static bool IsEscapedInBlocksOf16(ReadOnlySpan<char> value, ReadOnlySpan<char> escaped)
    {
        char[] expected = new char[value.Length * JsonConstants.MaxEscapedCharLength];
        int written = EscapeInBlocksOf16(value, expected);
        return escaped.SequenceEqual(expected.AsSpan(0, written));
    }
}
