using System.Buffers;
using System.Diagnostics;
using System.Text;
using System.Text.Unicode;
using System.Threading.Channels;

namespace JsonStringify.Internals;

/// <summary>
/// Where the writer's char buffer goes when it fills up, and at the end of the walk: the chunks of a string, or UTF-8
/// (transcoded as it goes) into a buffer writer, a stream or a channel of chunks, or a text writer. A sink sees the
/// text in spans of a few thousand chars, so no destination ever holds the whole document in UTF-16 first.
/// </summary>
internal abstract class OutputSink
{
    /// <summary>How many chars have been written to the sink in this call.</summary>
    public long Length { get; protected set; }

    public void Write(ReadOnlySpan<char> chars)
    {
        WriteCore(chars);
        Length += chars.Length;
    }

    /// <summary>Writes the last chars of the output (perhaps none).</summary>
    public void WriteLast(ReadOnlySpan<char> chars)
    {
        WriteLastCore(chars);
        Length += chars.Length;
    }

    /// <summary>
    /// Takes the writer's buffer, whose first <paramref name="count"/> chars are output, and returns the buffer the
    /// writer goes on in, at least as long. By default the chars are written out and the same buffer comes back.
    /// </summary>
    public virtual char[] TakeBuffer(char[] buffer, int count)
    {
        Write(buffer.AsSpan(0, count));
        return buffer;
    }

    /// <summary>The walk is over and succeeded: write out whatever the sink still holds.</summary>
    public virtual void Complete()
    {
    }

    /// <summary>Drops the destination and any rented buffer, whether or not the walk succeeded.</summary>
    public virtual void Release() => Length = 0;

    protected abstract void WriteCore(ReadOnlySpan<char> chars);

    protected virtual void WriteLastCore(ReadOnlySpan<char> chars)
    {
        if (!chars.IsEmpty)
        {
            WriteCore(chars);
        }
    }
}

/// <summary>
/// Builds the result of the string-returning overloads with one copy of the text: the writer's full buffers are kept
/// as they are, in order, and the writer goes on in a fresh chunk from the call's <see cref="ArrayPool{T}"/>, each
/// about as long as all the text before it. At the end the chunks are copied once into the result. Output that never
/// left the writer's own buffer becomes the string straight from it, and rents nothing.
/// </summary>
internal sealed class StringSink : OutputSink
{
    /// <summary>The shortest chunk rented: the writer may ask for up to its own buffer's length of room at once.</summary>
    public const int MinChunkLength = 8 * 1024;

    /// <summary>
    /// The longest chunk rented for the writer: a huge result is built from chunks of 1M chars (2 MB), so no chunk is
    /// far longer than the text in it. (A long text that skips the writer's buffer gets a chunk of its own length.)
    /// </summary>
    public const int MaxChunkLength = 1024 * 1024;

    // The text so far, in order: a chunk and how many of its chars are text. The writer's own buffer is the first
    // whenever the writer filled it; it is not ours to give back. Every other chunk was rented here.
    private readonly List<(char[] Chars, int Count)> _filled = [];

    // Every chunk rented in this call, the one the writer is in included, for the release to give back.
    private readonly List<char[]> _rented = [];

    private ArrayPool<char>? _pool;
    private string? _result;

    /// <summary>The output, once the walk succeeded.</summary>
    public string Result => _result!;

    public StringSink Start(ArrayPool<char> pool)
    {
        Debug.Assert(_rented.Count == 0 && _filled.Count == 0, "the last call was released");
        _pool = pool;
        return this;
    }

    public override char[] TakeBuffer(char[] buffer, int count)
    {
        _filled.Add((buffer, count));
        Length += count;
        return Rent((int)Math.Clamp(Length, MinChunkLength, MaxChunkLength));
    }

    public override void Release()
    {
        base.Release();
        try
        {
            foreach (char[] chunk in _rented)
            {
                _pool!.Return(chunk);
            }
        }
        finally
        {
            // Even when a host's pool throws, the next call starts clean.
            _rented.Clear();
            _filled.Clear();
            _pool = null;
            _result = null;
        }
    }

    // A long text that skips the writer's buffer (the writer flushed first): into a chunk of its own.
    protected override void WriteCore(ReadOnlySpan<char> chars)
    {
        char[] chunk = Rent(chars.Length);
        chars.CopyTo(chunk);
        _filled.Add((chunk, chars.Length));
    }

    protected override void WriteLastCore(ReadOnlySpan<char> chars)
    {
        if (_filled.Count == 0)
        {
            _result = new string(chars);
            return;
        }

        _result = string.Create(checked((int)(Length + chars.Length)), new Parts(_filled, chars), static (destination, parts) =>
        {
            foreach ((char[] chunk, int count) in parts.Filled)
            {
                chunk.AsSpan(0, count).CopyTo(destination);
                destination = destination[count..];
            }

            Debug.Assert(destination.Length == parts.Last.Length, "the chunks and the last chars make up the length");
            parts.Last.CopyTo(destination);
        });
    }

    private char[] Rent(int length)
    {
        char[] chunk = _pool!.Rent(length);
        _rented.Add(chunk);
        if (chunk.Length < length)
        {
            // The writer would run past the end of it; a pool that breaks ArrayPool's contract is a host bug.
            throw new InvalidOperationException($"JsonSerializerOptions.CharPool returned an array of {chunk.Length} chars when asked for at least {length}.");
        }

        return chunk;
    }

    // What the result is copied from: the filled chunks, then the writer's last chars.
    private readonly ref struct Parts(List<(char[] Chars, int Count)> filled, ReadOnlySpan<char> last)
    {
        public List<(char[] Chars, int Count)> Filled { get; } = filled;

        public ReadOnlySpan<char> Last { get; } = last;
    }
}

/// <summary>Writes to a <see cref="TextWriter"/> as chars.</summary>
internal sealed class TextWriterSink : OutputSink
{
    private TextWriter? _writer;

    public TextWriterSink Start(TextWriter writer)
    {
        _writer = writer;
        return this;
    }

    public override void Release()
    {
        base.Release();
        _writer = null;
    }

    protected override void WriteCore(ReadOnlySpan<char> chars) => _writer!.Write(chars);
}

/// <summary>
/// The UTF-8 sinks' shared part: the transcoding, which keeps a high surrogate that ends one span for the low one that
/// starts the next, so that a pair cut between two spans is still encoded as one code point. The output has no unpaired
/// surrogates (QuoteJSONString escapes them), so the UTF-8 is valid; only raw text a host put in (JSON.rawJSON,
/// SerializeToJson) could carry one, and it becomes U+FFFD, as an encoder's replacement fallback would write it.
/// </summary>
internal abstract class Utf8Sink : OutputSink
{
    // The high surrogate that ended the last span, waiting for the next span's first char; '\0' when there is none.
    private char _pendingHigh;

    public override void Complete()
    {
        if (_pendingHigh != '\0')
        {
            // The output ended in half a pair.
            WriteRune(Rune.ReplacementChar);
            _pendingHigh = '\0';
        }
    }

    public override void Release()
    {
        base.Release();
        _pendingHigh = '\0';
    }

    /// <summary>
    /// Room for <paramref name="count"/> bytes of ASCII that the writer makes itself (escaped text) straight into the
    /// destination, past the transcoder. The transcoder must hold no half of a surrogate pair then, so that nothing
    /// comes out of order: the writer flushes its chars first, and they never end in a high surrogate.
    /// </summary>
    public Span<byte> GetAsciiSpan(int count)
    {
        Debug.Assert(_pendingHigh == '\0', "no half of a pair waits in the transcoder");
        return GetSpan(count);
    }

    /// <summary>The first <paramref name="count"/> bytes of the last span are written: as many chars of output.</summary>
    public void AdvanceAscii(int count)
    {
        Advance(count);
        Length += count;
    }

    /// <summary>Room for at least <paramref name="sizeHint"/> bytes.</summary>
    protected abstract Span<byte> GetSpan(int sizeHint);

    /// <summary>The first <paramref name="count"/> bytes of the last span are written.</summary>
    protected abstract void Advance(int count);

    protected override void WriteCore(ReadOnlySpan<char> chars)
    {
        if (chars.IsEmpty)
        {
            // Nothing to encode, and nothing yet to pair a waiting high surrogate with.
            return;
        }

        if (_pendingHigh != '\0')
        {
            // The pair the last span began, or U+FFFD for a high surrogate that no low one follows.
            bool paired = char.IsLowSurrogate(chars[0]);
            WriteRune(paired ? new Rune(_pendingHigh, chars[0]) : Rune.ReplacementChar);
            _pendingHigh = '\0';
            chars = paired ? chars[1..] : chars;
        }

        while (true)
        {
            // Three bytes per char at most; four per surrogate pair, which is two chars.
            Span<byte> destination = GetSpan(Math.Max(16, Math.Min(chars.Length * 3, 1 << 16)));
            OperationStatus status = Utf8.FromUtf16(chars, destination, out int read, out int written, replaceInvalidSequences: true, isFinalBlock: false);
            Advance(written);
            chars = chars[read..];
            if (status == OperationStatus.Done)
            {
                return;
            }

            if (status == OperationStatus.NeedMoreData)
            {
                // Not a final block, so a high surrogate at the very end is left for the next span.
                Debug.Assert(chars.Length == 1 && char.IsHighSurrogate(chars[0]), "only half a pair is left");
                _pendingHigh = chars[0];
                return;
            }

            Debug.Assert(status == OperationStatus.DestinationTooSmall, "invalid sequences are replaced");
        }
    }

    private void WriteRune(Rune rune)
    {
        Span<byte> destination = GetSpan(4);
        Advance(rune.EncodeToUtf8(destination));
    }
}

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

    protected override Span<byte> GetSpan(int sizeHint) => _writer!.GetSpan(sizeHint);

    protected override void Advance(int count) => _writer!.Advance(count);
}

/// <summary>
/// UTF-8 in chunks of a rented buffer: handed to a <see cref="Stream"/> as each fills up, or, for the asynchronous
/// overload, to a bounded channel whose reader writes them to the stream.
/// </summary>
internal sealed class ChunkSink : Utf8Sink
{
    // 16 KB chunks: a flushed char buffer (4K chars) encodes to at most 12 KB.
    private const int ChunkLength = 16 * 1024;

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

    protected override Span<byte> GetSpan(int sizeHint)
    {
        if (_chunk is not null && _chunk.Length - _used < sizeHint)
        {
            Send();
        }

        // A chunk sent to the channel belongs to its reader, which returns it to the pool; so a new one is rented.
        _chunk ??= ArrayPool<byte>.Shared.Rent(Math.Max(ChunkLength, sizeHint));
        return _chunk.AsSpan(_used);
    }

    protected override void Advance(int count) => _used += count;

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
