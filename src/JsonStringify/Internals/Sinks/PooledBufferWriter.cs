using System.Buffers;

namespace JsonStringify.Internals;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> of bytes over arrays rented from <see cref="ArrayPool{T}.Shared"/>, for output
/// that is read once and dropped (ToJsonElement's UTF-8, which JsonElement.ParseValue copies). Each thread keeps one
/// instance; a nested call finds the slot empty and makes its own.
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>
{
    private const int InitialLength = 4096;

    [ThreadStatic]
    private static PooledBufferWriter? s_thread;

    private byte[] _buffer = [];
    private int _written;

    /// <summary>The bytes written so far.</summary>
    public ReadOnlySpan<byte> WrittenSpan => _buffer.AsSpan(0, _written);

    public static PooledBufferWriter Rent()
    {
        PooledBufferWriter? writer = s_thread;
        s_thread = null;
        return writer ?? new PooledBufferWriter();
    }

    /// <summary>Gives the array back to the pool, on every path, and keeps the instance for this thread.</summary>
    public static void Return(PooledBufferWriter writer)
    {
        if (writer._buffer.Length != 0)
        {
            ArrayPool<byte>.Shared.Return(writer._buffer);
        }

        writer._buffer = [];
        writer._written = 0;
        s_thread = writer;
    }

    public void Advance(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(count, _buffer.Length - _written);
        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsSpan(_written);
    }

    // Room for sizeHint bytes (at least one) after what is written.
    private void Reserve(int sizeHint)
    {
        int needed = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written < needed)
        {
            Grow(needed);
        }
    }

    private void Grow(int needed)
    {
        int length = (int)Math.Min(Array.MaxLength, Math.Max((long)_written + needed, Math.Max(InitialLength, 2L * _buffer.Length)));
        if (length - _written < needed)
        {
            throw new InsufficientMemoryException("The JSON text is too long for one buffer.");
        }

        byte[] grown = ArrayPool<byte>.Shared.Rent(length);
        _buffer.AsSpan(0, _written).CopyTo(grown);
        if (_buffer.Length != 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }

        _buffer = grown;
    }
}
