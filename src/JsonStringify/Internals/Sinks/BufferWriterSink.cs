using System.Buffers;

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

    public override void Release()
    {
        base.Release();
        _writer = null;
    }

    // IBufferWriter<T>.GetSpan must return at least sizeHint bytes. A writer that returns less but enough to move on
    // (segments of a fixed size, say) is used as it is; one that returns less than that (an empty span, a few bytes
    // where a 4-byte sequence is next) fails the call here rather than have the transcoder ask again and again.
    protected override Span<byte> GetSpan(int sizeHint, int minimum)
    {
        Span<byte> span = _writer!.GetSpan(sizeHint);
        if (span.Length < minimum)
        {
            Throw.BufferWriterTooShort(_writer, span.Length, sizeHint);
        }

        return span;
    }

    protected override void Advance(int count) => _writer!.Advance(count);
}
