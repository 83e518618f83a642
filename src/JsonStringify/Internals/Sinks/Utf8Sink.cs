using System.Diagnostics;

namespace JsonStringify.Internals;

/// <summary>
/// Where the UTF-8 output's bytes go: a buffer writer, or the chunks of a stream or a channel. The
/// <see cref="Utf8Writer"/> writes in a buffer the sink gives it (<see cref="NextBuffer"/>): the destination's own
/// memory where it can, so that the bytes are written once, where they stay; otherwise the writer's own buffer, which
/// the sink copies into the destination. When the buffer is full, and at the end of the walk, the writer commits what it
/// wrote (<see cref="Commit"/>). The bytes are whole JSON text already; a sink only places them.
/// </summary>
internal abstract class Utf8Sink
{
    /// <summary>The least room of a buffer the writer writes in, and the room of its own.</summary>
    public const int BufferLength = 16 * 1024;

    /// <summary>How many chars of output have been written to the sink in this call (docs/limits.md counts
    /// chars).</summary>
    public long Length { get; private set; }

    /// <summary>
    /// The buffer the writer writes its next bytes in, from <paramref name="start"/> up to <paramref name="end"/>: the
    /// destination's memory, at least <see cref="BufferLength"/> bytes and as much as it gives (<paramref name="sizeHint"/>
    /// where it can), or <paramref name="own"/> (the writer's buffer, of <see cref="BufferLength"/> bytes) whole.
    /// </summary>
    public abstract byte[] NextBuffer(byte[] own, int sizeHint, out int start, out int end);

    /// <summary>
    /// The writer wrote <paramref name="count"/> bytes, <paramref name="chars"/> chars of output, at
    /// <paramref name="start"/> in the buffer the last <see cref="NextBuffer"/> gave it.
    /// </summary>
    public void Commit(byte[] buffer, int start, int count, int chars)
    {
        Debug.Assert(chars <= count && count <= 3 * (long)chars, "UTF-8 takes one to three bytes a char");
        CommitCore(buffer, start, count);
        Length += chars;
    }

    /// <summary>The walk is over and succeeded: write out whatever the sink still holds.</summary>
    public virtual void Complete()
    {
    }

    /// <summary>Drops the destination and any rented buffer, whether or not the walk succeeded.</summary>
    public virtual void Release() => Length = 0;

    /// <summary>Places the <paramref name="count"/> bytes at <paramref name="start"/> in the buffer the last
    /// <see cref="NextBuffer"/> gave.</summary>
    protected abstract void CommitCore(byte[] buffer, int start, int count);
}
