using System.Buffers;
using System.Runtime.InteropServices;

namespace JsonStringify.Internals;

/// <summary>UTF-8 into an <see cref="IBufferWriter{T}"/> that the caller owns.</summary>
internal sealed class BufferWriterSink : Utf8Sink
{
    // The least room a writer may give: one code point's bytes. A writer of segments at least this long (less than
    // IBufferWriter's contract says) is used as it is; one that gives less (an empty span, a few bytes where a 4-byte
    // sequence is next) fails the call at once rather than have the sink ask again and again.
    private const int MinRoom = 4;

    private IBufferWriter<byte>? _writer;

    // Whether the last NextBuffer handed out the writer's own buffer, which CommitCore then copies.
    private bool _copies;

    public BufferWriterSink Start(IBufferWriter<byte> writer)
    {
        _writer = writer;
        return this;
    }

    public override void Release()
    {
        base.Release();
        _writer = null;
        _copies = false;
    }

    // Where the writer's memory is an array with at least a buffer's room (ArrayBufferWriter's, a pipe's, a pooled
    // writer's), the bytes are written there, in place, as far as it reaches; otherwise into the writer's own buffer,
    // copied at the commit.
    public override byte[] NextBuffer(byte[] own, int sizeHint, out int start, out int end)
    {
        Memory<byte> memory = _writer!.GetMemory(sizeHint);
        if (memory.Length < MinRoom)
        {
            Throw.BufferWriterTooShort(_writer, memory.Length, nameof(IBufferWriter<byte>.GetMemory), sizeHint);
        }

        if (memory.Length >= BufferLength && MemoryMarshal.TryGetArray<byte>(memory, out ArraySegment<byte> segment))
        {
            _copies = false;
            start = segment.Offset;
            end = segment.Offset + segment.Count;
            return segment.Array!;
        }

        _copies = true;
        start = 0;
        end = own.Length;
        return own;
    }

    protected override void CommitCore(byte[] buffer, int start, int count)
    {
        if (!_copies)
        {
            _writer!.Advance(count);
            return;
        }

        ReadOnlySpan<byte> bytes = buffer.AsSpan(start, count);
        while (!bytes.IsEmpty)
        {
            Span<byte> room = _writer!.GetSpan(bytes.Length);
            if (room.Length < MinRoom)
            {
                Throw.BufferWriterTooShort(_writer, room.Length, nameof(IBufferWriter<byte>.GetSpan), bytes.Length);
            }

            int take = Math.Min(room.Length, bytes.Length);
            bytes[..take].CopyTo(room);
            _writer.Advance(take);
            bytes = bytes[take..];
        }
    }
}
