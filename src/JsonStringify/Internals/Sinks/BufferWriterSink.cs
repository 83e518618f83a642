using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace JsonStringify.Internals;

/// <summary>UTF-8 into an <see cref="IBufferWriter{T}"/> that the caller owns.</summary>
internal sealed class BufferWriterSink : Utf8Sink
{
    private IBufferWriter<byte>? _writer;

    public BufferWriterSink Start(IBufferWriter<byte> writer)
    {
        _writer = writer;
        return this;
    }

    /// <summary>
    /// Where the output stands, to go back to with <see cref="Rewind"/>: only over a <see cref="PooledBufferWriter"/>
    /// (a buffer of ours, which the caller never sees), and only where the transcoder holds nothing (after a flush of
    /// chars that did not end in half a surrogate pair).
    /// </summary>
    public SinkMark Mark()
    {
        Debug.Assert(_writer is PooledBufferWriter, "only a buffer of ours can be rewound");
        return new SinkMark(Length, Unsafe.As<PooledBufferWriter>(_writer)!.WrittenSpan.Length);
    }

    /// <summary>Drops everything written since <paramref name="mark"/>.</summary>
    public void Rewind(SinkMark mark)
    {
        Unsafe.As<PooledBufferWriter>(_writer)!.Truncate(mark.Bytes);
        Length = mark.Length;
    }

    public override void Release()
    {
        base.Release();
        _writer = null;
    }

    // IBufferWriter<T>.GetSpan must return at least sizeHint bytes. The transcoder and the writer's escaped slices make
    // progress only in the room they asked for, so a writer that returns less (an empty span, a few bytes where a
    // 4-byte sequence is next) fails the call here rather than have them ask again and again.
    protected override Span<byte> GetSpan(int sizeHint)
    {
        Span<byte> span = _writer!.GetSpan(sizeHint);
        if (span.Length < sizeHint)
        {
            Throw.BufferWriterTooShort(_writer, span.Length, sizeHint);
        }

        return span;
    }

    protected override void Advance(int count) => _writer!.Advance(count);
}
