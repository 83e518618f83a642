using System.Buffers;
using System.Diagnostics;
using System.Text;

namespace JsonStringify.Internals;

/// <summary>
/// The UTF-8 sinks' shared part: the transcoding, which keeps a high surrogate that ends one span for the low one that
/// starts the next, so that a pair cut between two spans is still encoded as one code point. The output has no unpaired
/// surrogates (QuoteJSONString escapes them), so the UTF-8 is valid; only raw text a host put in (JSON.rawJSON,
/// SerializeToJson) could carry one, and it becomes U+FFFD, as an encoder's replacement fallback would write it.
/// </summary>
internal abstract class Utf8Sink : TextSink
{
    // The longest UTF-8 sequence: a code point past U+FFFF, which is a surrogate pair in UTF-16.
    private const int MaxBytesPerRune = 4;

    // The room the transcoder asks for: three bytes per char at most (four per pair, which is two chars), between a
    // few code points' worth and 64 KB.
    private const int MinTranscodeRoom = 16;
    private const int MaxTranscodeRoom = 1 << 16;

    // The high surrogate that ended the last span, waiting for the next span's first char; '\0' when there is none.
    private char _pendingHigh;

    public sealed override bool TakesUtf8 => true;

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

    // Past the transcoder: it must hold no half of a surrogate pair then, so that nothing comes out of order. The
    // writer flushes its chars first, and they never end in a high surrogate.
    public sealed override Span<byte> GetUtf8Span(int sizeHint, int minimum)
    {
        Debug.Assert(_pendingHigh == '\0', "no half of a pair waits in the transcoder");
        return Room(sizeHint, minimum);
    }

    public sealed override void AdvanceUtf8(int bytes, int chars)
    {
        Debug.Assert(chars <= bytes && bytes <= 3 * chars, "UTF-8 takes one to three bytes a char");
        Advance(bytes);
        Length += chars;
    }

    /// <summary>
    /// Room for <paramref name="sizeHint"/> bytes, or for at least <paramref name="minimum"/> (what the caller needs to
    /// move on) where the destination gives less than it was asked for; less than that is an
    /// <see cref="InvalidOperationException"/>, never a shorter span.
    /// </summary>
    protected abstract Span<byte> GetSpan(int sizeHint, int minimum);

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
            // Any room that holds a code point lets the transcoder move on.
            Span<byte> destination = Room(Math.Max(MinTranscodeRoom, Math.Min(chars.Length * 3, MaxTranscodeRoom)), MaxBytesPerRune);
            OperationStatus status = Utf8Transcoder.FromUtf16(chars, destination, out int read, out int written);
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

            // The room holds a code point or more, so every pass moves on.
            Debug.Assert(status == OperationStatus.DestinationTooSmall, "invalid sequences are replaced");
            Debug.Assert(read != 0, "the transcoder moved on");
        }
    }

    private void WriteRune(Rune rune)
    {
        Span<byte> destination = Room(MaxBytesPerRune, MaxBytesPerRune);
        Advance(rune.EncodeToUtf8(destination));
    }

    private Span<byte> Room(int sizeHint, int minimum)
    {
        Debug.Assert(minimum <= sizeHint, "the room needed is at most the room asked for");
        Span<byte> room = GetSpan(sizeHint, minimum);
        Debug.Assert(room.Length >= minimum, "a sink gives the room needed, or throws");
        return room;
    }
}
