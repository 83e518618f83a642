namespace JsonStringify.Internals;

/// <summary>
/// Where the text output's chars go: the <see cref="JsonWriter"/> hands its char buffer to the call's sink when it
/// fills up, and at the end of the walk: the chunks of a string, or a text writer. The writer knows a sink only through
/// this class. (UTF-8 destinations take bytes from a writer of their own, through <see cref="Utf8Sink"/>.)
/// </summary>
internal abstract class TextSink
{
    /// <summary>How many chars have been written to the sink in this call.</summary>
    public long Length { get; protected set; }

    public void Write(ReadOnlySpan<char> chars)
    {
        WriteCore(chars);
        Length += chars.Length;
    }

    /// <summary>
    /// Takes the writer's chars <paramref name="buffer"/>[<paramref name="start"/>..<paramref name="end"/>] (perhaps
    /// none), then a whole string of output, <paramref name="text"/>, which the writer has not copied; returns where in
    /// the buffer the writer goes on. By default the chars and the string are written out and the writer goes on from
    /// <paramref name="start"/>; a sink that keeps the writer's chars where they are (a string result) returns
    /// <paramref name="end"/>, and the writer writes nothing before it in that buffer again.
    /// </summary>
    public virtual int WriteWhole(char[] buffer, int start, int end, string text)
    {
        if (end > start)
        {
            Write(buffer.AsSpan(start, end - start));
        }

        Write(text);
        return start;
    }

    /// <summary>Writes the last chars of the output (perhaps none).</summary>
    public void WriteLast(ReadOnlySpan<char> chars)
    {
        WriteLastCore(chars);
        Length += chars.Length;
    }

    /// <summary>
    /// Takes the writer's buffer, whose chars from <paramref name="start"/> to <paramref name="end"/> are output not
    /// yet taken (those before <paramref name="start"/> were taken by <see cref="WriteWhole"/>), and returns the buffer
    /// the writer goes on in from its start, at least as long. By default the chars are written out and the same buffer
    /// comes back.
    /// </summary>
    public virtual char[] TakeBuffer(char[] buffer, int start, int end)
    {
        Write(buffer.AsSpan(start, end - start));
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
