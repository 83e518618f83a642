using System.Buffers;
using System.Diagnostics;
using System.Numerics;

namespace JsonStringify.Internals;

/// <summary>
/// The default <see cref="JsonSerializerOptions.CharPool"/>: the chunks that long string results are built in, kept on
/// the pinned object heap. <see cref="ArrayPool{T}.Shared"/> would keep its arrays of 85 KB and more on the large
/// object heap, where each long result string is made too; with chunks living there from call to call, a new result
/// string landed in freshly committed memory more often, and writing it cost more page faults.
/// </summary>
/// <remarks>
/// Arrays are kept per power-of-two length from <see cref="StringSink.MinChunkLength"/> to
/// <see cref="StringSink.MaxChunkLength"/> chars, at most <see cref="MaxKeptPerLength"/> of each, so at most 16M chars
/// (32 MB) in all, and only once results that long have been made. A longer array, which string results never ask
/// for, is made for its caller and dropped.
/// </remarks>
internal sealed class ResultChunkPool : ArrayPool<char>
{
    /// <summary>How many idle arrays of one length are kept.</summary>
    public const int MaxKeptPerLength = 8;

    private static readonly int s_minShift = BitOperations.Log2(StringSink.MinChunkLength);

    private readonly Bucket[] _buckets;

    public ResultChunkPool()
    {
        _buckets = new Bucket[BitOperations.Log2(StringSink.MaxChunkLength) - s_minShift + 1];
        for (int i = 0; i < _buckets.Length; i++)
        {
            _buckets[i] = new Bucket();
        }
    }

    /// <summary>The pool that <see cref="JsonSerializerOptions.Default"/> and options that set none use.</summary>
    public static ResultChunkPool Instance { get; } = new();

    public override char[] Rent(int minimumLength)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(minimumLength);
        if (minimumLength == 0)
        {
            return [];
        }

        if (minimumLength > StringSink.MaxChunkLength)
        {
            return GC.AllocateUninitializedArray<char>(minimumLength);
        }

        int length = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Max(minimumLength, StringSink.MinChunkLength));
        return BucketFor(length).TryTake() ?? GC.AllocateUninitializedArray<char>(length, pinned: true);
    }

    public override void Return(char[] array, bool clearArray = false)
    {
        ArgumentNullException.ThrowIfNull(array);
        int length = array.Length;
        if (length < StringSink.MinChunkLength || length > StringSink.MaxChunkLength || !BitOperations.IsPow2(length))
        {
            // Not one of the lengths kept: an empty array, or a long one made for a single call.
            return;
        }

        if (clearArray)
        {
            Array.Clear(array);
        }

        BucketFor(length).TryKeep(array);
    }

    private Bucket BucketFor(int length)
    {
        Debug.Assert(BitOperations.IsPow2(length) && length >= StringSink.MinChunkLength && length <= StringSink.MaxChunkLength, "a kept length");
        return _buckets[BitOperations.Log2((uint)length) - s_minShift];
    }

    // The idle arrays of one length, under a lock: a call takes a handful of chunks, so the lock is taken a handful of
    // times per long result.
    private sealed class Bucket
    {
        private readonly char[]?[] _kept = new char[MaxKeptPerLength][];
        private int _count;

        public char[]? TryTake()
        {
            lock (_kept)
            {
                if (_count == 0)
                {
                    return null;
                }

                char[]? array = _kept[--_count];
                _kept[_count] = null;
                return array;
            }
        }

        public void TryKeep(char[] array)
        {
            lock (_kept)
            {
                if (_count < _kept.Length)
                {
                    _kept[_count++] = array;
                }
            }
        }
    }
}
