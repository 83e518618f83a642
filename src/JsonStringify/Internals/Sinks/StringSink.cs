using System.Buffers;
using System.Diagnostics;

namespace JsonStringify.Internals;

/// <summary>
/// Builds the result of the string-returning overloads with one copy of the text: the writer's full buffers are kept
/// as they are, in order, and the writer goes on in a fresh chunk from the call's <see cref="ArrayPool{T}"/>, each
/// about as long as all the text kept in chunks before it. A long string that needs no escaping is kept as it is, the
/// string itself, and the writer goes on in the same buffer after the chars before it
/// (<see cref="TextSink.WriteWhole"/>). At the end the chunks and strings are copied once into the result. Output that
/// never left the writer's own buffer becomes the string straight from it, and rents nothing.
/// </summary>
internal sealed class StringSink : TextSink
{
    /// <summary>
    /// The shortest chunk rented: the writer may ask for up to its own buffer's length of room at once.
    /// </summary>
    public const int MinChunkLength = 8 * 1024;

    /// <summary>
    /// The longest chunk rented for the writer: a huge result is built from chunks of 1M chars (2 MB), so no chunk is
    /// far longer than the text in it.
    /// </summary>
    public const int MaxChunkLength = 1024 * 1024;

    // The text so far, in order: chars of a chunk (a char[]) from a start, or a whole string. A chunk may give several
    // parts, split by whole strings. The writer's own buffer is the first chunk whenever the writer wrote in it before
    // handing it over; it is not ours to give back. Every other chunk was rented here.
    private readonly List<(object Part, int Start, int Count)> _filled = [];

    // How many chars of the text are in chunks: what the next chunk's length follows.
    private long _chunked;

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

    public override char[] TakeBuffer(char[] buffer, int start, int end)
    {
        Keep(buffer, start, end);
        Length += end - start;
        return Rent((int)Math.Clamp(_chunked, MinChunkLength, MaxChunkLength));
    }

    // The string is the caller's, and never changes: kept as it is until the result is made. The chars before it stay
    // where they are, and the writer goes on after them.
    public override int WriteWhole(char[] buffer, int start, int end, string text)
    {
        Keep(buffer, start, end);
        _filled.Add((text, 0, text.Length));
        Length += end - start + text.Length;
        return end;
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
            _chunked = 0;
            _pool = null;
            _result = null;
        }
    }

    // The writer hands a string result its buffers (TakeBuffer) and whole strings (WriteWhole), never loose chars: a
    // chunk rented for a few chars would stay out, mostly empty, until the call ends.
    protected override void WriteCore(ReadOnlySpan<char> chars) =>
        throw new NotSupportedException("A string result takes the writer's buffers and whole strings only.");

    protected override void WriteLastCore(ReadOnlySpan<char> chars)
    {
        if (_filled.Count == 0)
        {
            _result = new string(chars);
            return;
        }

        _result = string.Create(checked((int)(Length + chars.Length)), new Parts(_filled, chars), static (destination, parts) =>
        {
            foreach ((object part, int start, int count) in parts.Filled)
            {
                ReadOnlySpan<char> text = part is string whole ? whole : ((char[])part).AsSpan(start, count);
                text.CopyTo(destination);
                destination = destination[count..];
            }

            Debug.Assert(destination.Length == parts.Last.Length, "the chunks and the last chars make up the length");
            parts.Last.CopyTo(destination);
        });
    }

    // Keeps chunk[start..end] as the next part of the text, if it holds any (the caller counts it in Length).
    private void Keep(char[] chunk, int start, int end)
    {
        if (end > start)
        {
            _filled.Add((chunk, start, end - start));
            _chunked += end - start;
        }
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
    private readonly ref struct Parts(List<(object Part, int Start, int Count)> filled, ReadOnlySpan<char> last)
    {
        public List<(object Part, int Start, int Count)> Filled { get; } = filled;

        public ReadOnlySpan<char> Last { get; } = last;
    }
}
