using System.Buffers;
using System.Diagnostics;
using System.Threading.Channels;

namespace JsonStringify.Internals;

/// <summary>
/// UTF-8 in chunks of a rented buffer: handed to a <see cref="Stream"/> as each fills up, or, for the asynchronous
/// overload, to a bounded channel whose reader writes them to the stream.
/// </summary>
internal sealed class ChunkSink : Utf8Sink
{
    // Chunks of one buffer's room, or longer where the writer asks for more (a long string's slices).
    private const int ChunkLength = BufferLength;

    private byte[]? _chunk;
    private int _used;
    private Stream? _stream;
    private ChannelWriter<ReadOnlyMemory<byte>>? _channel;
    private CancellationToken _cancellationToken;

    public ChunkSink Start(Stream stream)
    {
        _stream = stream;
        _chunk = ArrayPool<byte>.Shared.Rent(ChunkLength);
        return this;
    }

    public ChunkSink Start(ChannelWriter<ReadOnlyMemory<byte>> channel, CancellationToken cancellationToken)
    {
        _channel = channel;
        _cancellationToken = cancellationToken;
        return this;
    }

    public override void Complete()
    {
        base.Complete();
        Send();
    }

    public override void Release()
    {
        base.Release();
        if (_chunk is not null)
        {
            ArrayPool<byte>.Shared.Return(_chunk);
        }

        _chunk = null;
        _used = 0;
        _stream = null;
        _channel = null;
        _cancellationToken = default;
    }

    // The writer writes in the chunk itself, from where its bytes end; the chunk is sent first when it has less room
    // than the writer asks for, and one shorter than that makes way for a longer one.
    public override byte[] NextBuffer(byte[] own, int sizeHint, out int start, out int end)
    {
        if (_chunk is not null && _chunk.Length - _used < sizeHint)
        {
            Send();
            if (_chunk is not null && _chunk.Length < sizeHint)
            {
                ArrayPool<byte>.Shared.Return(_chunk);
                _chunk = null;
            }
        }

        // A chunk sent to the channel belongs to its reader, which returns it to the pool; so a new one is rented.
        _chunk ??= ArrayPool<byte>.Shared.Rent(Math.Max(ChunkLength, sizeHint));
        start = _used;
        end = _chunk.Length;
        return _chunk;
    }

    protected override void CommitCore(byte[] buffer, int start, int count)
    {
        Debug.Assert(buffer == _chunk && start == _used, "the writer wrote where NextBuffer told it");
        _used += count;
    }

    private void Send()
    {
        if (_used == 0)
        {
            return;
        }

        if (_stream is not null)
        {
            _stream.Write(_chunk!, 0, _used);
        }
        else
        {
            // The walk runs on its own thread, so it may wait here for the reader to catch up: that is what keeps
            // the memory bounded.
            _channel!.WriteAsync(new ReadOnlyMemory<byte>(_chunk, 0, _used), _cancellationToken).AsTask().GetAwaiter().GetResult();
            _chunk = null;
        }

        _used = 0;
    }
}
