using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using System.Text;

namespace JsonStringify.Internals;

/// <summary>
/// The UTF-8 output's writer: JSON tokens, separators and indentation written as UTF-8 bytes, with no UTF-16 text in
/// between. Tokens go into a byte buffer with a local index, which the call's <see cref="Utf8Sink"/> gives: the
/// destination's own memory where it can (<see cref="Utf8Sink.NextBuffer"/>), and it takes what was written when the
/// buffer is full. Numbers are formatted straight into it. Strings are checked and narrowed inline when they are ASCII
/// and need no escaping; other strings are encoded block by block where the processor has the 512-bit blocks, escaped
/// and encoded in one pass where it has the UTF-8 escaper's blocks (<see cref="StringEscaper.EscapeUtf8"/>), and
/// otherwise escaped into chars and transcoded. It never asks the engine for anything: the walker hands it strings and
/// doubles.
/// </summary>
/// <remarks>
/// Limits count chars of output, as the text output's do (docs/limits.md): <see cref="Length"/> is the bytes written
/// less every byte beyond the first of a char's UTF-8 (a pair's four bytes are two chars).
/// </remarks>
internal sealed class Utf8Writer
{
    // The least room of a buffer the writer writes in (Utf8Sink.BufferLength): every reservation fits in one.
    private const int BufferLength = Utf8Sink.BufferLength;

    // The longest string escaped straight into the buffer in one piece (its chars escaped into the char scratch, at
    // most 6 each, make at most 6 bytes each too); longer strings go through in slices.
    private const int MaxInlineString = 682;

    // The char scratch that escapes go through where the blocks do not take a string: a whole inline string's worth.
    private const int ScratchLength = MaxInlineString * JsonConstants.MaxEscapedCharLength;

    // The room a string of MaxInlineString chars may take: 6 bytes a char, the quotes, and the room past them that a
    // block's stores (and StringEscaper.EscapeUtf8's) need.
    private const int MaxStringRoom = ScratchLength + 2 + StringEscaper.MinUtf8Room;

    // Fixed texts (raw JSON, names that are not ASCII, indentation lines) longer than this go through the buffer in
    // pieces.
    private const int MaxTextPiece = BufferLength / 4;

    // The longest slice of a long string: at most this many chars go past the limit before it is noticed.
    private const int MaxSlice = 16 * 1024;

    // Quoted names up to this length (with the quotes and the colon) are narrowed inline.
    private const int MaxInlineName = 32;

    // JSON.stringify breaks lines with a line feed (SerializeJSONObject and SerializeJSONArray: ',', LINE FEED, indent).
    private const string LineBreak = "\n";

    // U+FFFD, which a surrogate without its other half in raw text or a gap becomes, as an encoder's replacement
    // fallback writes it.
    private static ReadOnlySpan<byte> ReplacementChar => [0xEF, 0xBF, 0xBD];

    // The writer's own buffer, which a sink hands back where its destination has no memory to write in.
    private readonly byte[] _ownBuffer = new byte[BufferLength];
    private readonly char[] _scratch = new char[ScratchLength];

    // The buffer the writer writes in, as the sink gave it: its bytes from _start to _pos are this call's, not yet
    // committed; it writes nothing at or past _end (at least BufferLength past _start). The own buffer when no call is
    // running.
    private byte[] _buffer;
    private int _start;
    private int _end;
    private int _pos;

    // The bytes from _start to _pos beyond one per char of output: what Length takes off, and what the sink is told at
    // a commit. Grows with every char that is not ASCII.
    private int _extra;

    // The sink's Length less _start and _extra: Length adds _pos to it, one load on the path of every value's length
    // check.
    private long _sinkLength;

    private Utf8Sink? _sink;
    private string _gap = string.Empty;

    // Whether _gap is not empty: asked at every name and separator.
    private bool _indented;

    // Whether _gap has a surrogate: its lines are then transcoded whole each time, so that a pair that two repetitions
    // of the gap make (or a half that none does) comes out as the string result's UTF-8 has it. Otherwise each char of
    // the gap has its own bytes, and a line is a prefix of _newLine.
    private bool _gapHasSurrogates;

    // The line break, then the gap's UTF-8 as many times as the deepest line so far needs (a regular gap's lines).
    private byte[] _newLine = [];

    // The gap's UTF-8 length, and the line break and gap as chars (an irregular gap's lines).
    private int _gapBytes;
    private char[] _newLineChars = [];

    private int _depth;
    private long _maxLength;

    public Utf8Writer() => _buffer = _ownBuffer;

    /// <summary>How many containers are open: the indentation level of the current line.</summary>
    public int Depth => _depth;

    /// <summary>How many chars of output have been written in this call.</summary>
    public long Length
    {
        get
        {
            Debug.Assert(_sinkLength == _sink!.Length - _start - _extra, "every write of extra bytes moved _sinkLength");
            return _sinkLength + _pos;
        }
    }

    /// <summary>True once the output has grown past the longest the result may be.</summary>
    public bool IsOverLimit => Length > _maxLength;

    /// <summary>The sink of this call, once <see cref="SetSink"/> chose it; null after <see cref="Reset"/>.</summary>
    public Utf8Sink? Sink => _sink;

    /// <summary>Chooses where this call's bytes go: a sink its output has started on the destination.</summary>
    public void SetSink(Utf8Sink sink)
    {
        Debug.Assert(_sink is null, "one sink per call");
        _sink = sink;
    }

    public void Start(string gap, long maxLength)
    {
        Debug.Assert(_sink is not null, "the output chose a sink before the walk");
        if (gap != _gap)
        {
            _gap = gap;
            _gapHasSurrogates = gap.AsSpan().IndexOfAnyInRange('\uD800', '\uDFFF') >= 0;
            _gapBytes = Encoding.UTF8.GetByteCount(gap);
            _newLine = [];
            _newLineChars = [];
        }

        _indented = gap.Length != 0;
        _depth = 0;
        _maxLength = maxLength;
        NextBuffer(BufferLength);
    }

    /// <summary>Commits what is still buffered to the sink, and has the sink write out what it holds; call once the walk
    /// is done.</summary>
    public void Complete()
    {
        Commit();
        _sink!.Complete();
    }

    // Commits what is buffered to the sink, and goes on in the next buffer it gives.
    private void Flush() => Flush(BufferLength);

    // Flush, asking the sink for sizeHint bytes of room.
    private void Flush(int sizeHint)
    {
        if (_pos != _start)
        {
            Commit();
            NextBuffer(sizeHint);
        }
    }

    /// <summary>Drops every reference taken for the call, so that a pooled writer pins nothing.</summary>
    public void Reset()
    {
        _sink = null;
        _buffer = _ownBuffer;
        _start = 0;
        _end = 0;
        _pos = 0;
        _extra = 0;
        _sinkLength = 0;
        _depth = 0;
    }

    private void Commit()
    {
        Debug.Assert(_start <= _pos && _pos <= _end, "the writer wrote within its buffer");
        _sink!.Commit(_buffer, _start, _pos - _start, _pos - _start - _extra);
    }

    private void NextBuffer(int sizeHint)
    {
        _buffer = _sink!.NextBuffer(_ownBuffer, sizeHint, out _start, out _end);
        Debug.Assert(_end - _start >= BufferLength && _end <= _buffer.Length, "a buffer has a whole buffer's room");
        _pos = _start;
        _extra = 0;
        _sinkLength = _sink.Length - _start;
    }

    // null, true and false as one store of eight bytes each: the token, then bytes past it that the next write
    // overwrites. A literal's token is read from a table by its value, without a branch on which it is.
    public void WriteLiteral(JsonLiteral literal)
    {
        Debug.Assert(literal is JsonLiteral.Null or JsonLiteral.True or JsonLiteral.False, "one of the three");
        ref byte room = ref MemoryMarshal.GetReference(Reserve(sizeof(ulong)));
        ulong token = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref MemoryMarshal.GetReference(LiteralTokens), (int)literal * sizeof(ulong)));
        Unsafe.WriteUnaligned(ref room, token);
        _pos += 4 + ((int)literal >> 1);
    }

    // null, true and false, eight bytes each, in the order of JsonLiteral.
    private static ReadOnlySpan<byte> LiteralTokens =>
    [
        (byte)'n', (byte)'u', (byte)'l', (byte)'l', 0, 0, 0, 0,
        (byte)'t', (byte)'r', (byte)'u', (byte)'e', 0, 0, 0, 0,
        (byte)'f', (byte)'a', (byte)'l', (byte)'s', (byte)'e', 0, 0, 0,
    ];

    public void WriteEmptyArray() => WriteTwo((byte)'[', (byte)']');

    public void WriteEmptyObject() => WriteTwo((byte)'{', (byte)'}');

    public void WriteRaw(string text) => WriteText(text);

    // The number paths are JsonWriter's, with bytes for chars: see there for why each is shaped as it is.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNumber(double value)
    {
        uint whole = NumberFormatter.Truncate(value);
        if (whole == value)
        {
            if (whole < NumberFormatter.SmallIntegerLimit)
            {
                // Reserve may flush, which moves _pos: it runs before _pos is read.
                Span<byte> room = Reserve(NumberFormatter.SmallIntegerDigits);
                _pos += NumberFormatter.FormatSmallInteger(whole, room);
                return;
            }

            WriteWholeNumber(whole);
            return;
        }

        WriteOtherNumber(value);
    }

    /// <summary>The bytes <see cref="WriteNumber"/> writes, by <see cref="JsonWriter.WriteErraticNumber"/>'s
    /// path.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteErraticNumber(double value)
    {
        double magnitude = Math.Abs(value);
        uint whole = NumberFormatter.Truncate(magnitude);
        if (whole == magnitude && whole - 1 < NumberFormatter.SignedWholeNumberLimit - 1)
        {
            Span<byte> room = Reserve(NumberFormatter.SignedWholeNumberDigits);
            _pos += NumberFormatter.FormatSignedWholeNumber(value, whole, room);
            return;
        }

        WriteNumber(value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteWholeNumber(uint value)
    {
        Span<byte> room = Reserve(NumberFormatter.WholeNumberDigits);
        _pos += NumberFormatter.FormatWholeNumber(value, room);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteOtherNumber(double value)
    {
        if (!HasRoom(JsonConstants.NumberBufferLength))
        {
            FlushThenWriteOtherNumber(value);
            return;
        }

        _pos += NumberFormatter.FormatOther(value, Room(JsonConstants.NumberBufferLength));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void FlushThenWriteOtherNumber(double value)
    {
        Flush();
        WriteOtherNumber(value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteString(string value)
    {
        // Most values are short, ASCII, and need no escaping: checked and narrowed here, without a call. A value that
        // starts with a char that is not ASCII goes to the block encoder at once.
        if (IsInlined(value))
        {
            if (value[0] >= 0x80)
            {
                WriteNonAsciiString(value);
                return;
            }

            if (TryQuoteInline(value, Reserve(StringEscaper.MaxMediumLength + 2)))
            {
                _pos += value.Length + 2;
                return;
            }
        }

        WriteEscapedString(value);
    }

    // WriteString's value of 2 to 128 chars that starts with a char that is not ASCII. Such a value of one block (up
    // to 32 chars where the 512-bit blocks are, 16 where AVX2 is) that needs no escaping and whose surrogates are in
    // pairs, the common string in another script (a name, a word, a title), is encoded here, in this one call; the
    // rest of WriteEscapedString's path makes several (the encoder, its block loop).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteNonAsciiString(string value)
    {
        Debug.Assert(IsInlined(value) && value[0] >= 0x80, "a string of 2 to 128 chars that starts with a char that is not ASCII");
        if (!TryWriteOneBlock(value))
        {
            WriteEscapedString(value);
        }
    }

    // Writes value, of one block, quoted, when its block needs no escaping and its surrogates are in pairs; false,
    // having written nothing that counts, when it does not (or when the processor has neither kind of block). The
    // blocks of EncodeEscaped, which go no further than such a block, once.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryWriteOneBlock(string value)
    {
        int read;
        int written;
        Span<byte> room;
        if (Utf8Transcoder.HasWideBlocks && value.Length <= Utf8Transcoder.BlockLength)
        {
            room = Reserve(Utf8Transcoder.BlockRoom + 2);
            (read, written) = EncodeBlocks(value, room[1..]);
        }
        else if (!Utf8Transcoder.HasWideBlocks && Utf8Transcoder.HasSixteenCharBlocks && value.Length <= Utf8Transcoder.SixteenChars)
        {
            room = Reserve(Utf8Transcoder.SixteenCharRoom + 2);
            (read, written) = EncodeSixteenCharBlocks(value, room[1..]);
        }
        else
        {
            return false;
        }

        if (read < value.Length)
        {
            return false;
        }

        room[0] = (byte)'"';
        room[written + 1] = (byte)'"';
        AddExtra(written - read);
        _pos += written + 2;
        return true;
    }

    // The rest of WriteString, kept out of line as JsonWriter's is.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteEscapedString(string value)
    {
        if (value.Length > MaxInlineString)
        {
            WriteLongString(value);
            return;
        }

        // The empty string, and one ASCII char that needs no escaping: quoted here, without the encoder.
        if (value.Length == 0)
        {
            WriteTwo((byte)'"', (byte)'"');
            return;
        }

        if (value.Length == 1 && value[0] < 0x80 && !StringEscaper.IsEscapedAlone(value[0]))
        {
            Span<byte> token = Reserve(3);
            token[0] = (byte)'"';
            token[1] = (byte)value[0];
            token[2] = (byte)'"';
            _pos += 3;
            return;
        }

        Span<byte> room = Reserve(MaxStringRoom);
        room[0] = (byte)'"';
        int written = 1 + EncodeEscaped(value, room[1..]);
        room[written] = (byte)'"';
        _pos += written + 1;
    }

    // QuoteJSONString's contents of value (at most MaxInlineString chars) as UTF-8 into room; returns the bytes
    // written, and counts the extra ones. Where the 512-bit blocks are missing, a string that is all ASCII is escaped
    // into the char scratch and narrowed, which costs such short strings less than StringEscaper.EscapeUtf8's 16-char
    // blocks. Any other string goes block by block while a block needs no escaping and its surrogates are in pairs:
    // blocks of 32 chars where the 512-bit blocks are, of 16 where AVX2 is. The rest goes through
    // StringEscaper.EscapeUtf8 where the processor has its blocks, and what it leaves (and everything where it has
    // neither) is escaped into the char scratch and transcoded.
    private int EncodeEscaped(ReadOnlySpan<char> value, Span<byte> room)
    {
        Debug.Assert(value.Length <= MaxInlineString && room.Length >= MaxStringRoom - 1, "an inline string, and room for it");
        int i = 0;
        int w = 0;
        if (Utf8Transcoder.HasWideBlocks)
        {
            (i, w) = EncodeBlocks(value, room);
            AddExtra(w - i);
        }
        else if (value[0] < 0x80 && Ascii.IsValid(value))
        {
            // ASCII with chars to escape (source lines ending in \n, quoted text): escaped into the scratch, whose
            // escapes are ASCII too, and narrowed.
            int length = StringEscaper.Escape(value, _scratch);
            NarrowAscii(_scratch.AsSpan(0, length), room);
            return length;
        }
        else if (Utf8Transcoder.HasSixteenCharBlocks)
        {
            (i, w) = EncodeSixteenCharBlocks(value, room);
            AddExtra(w - i);
        }

        // The rest (from the first block the blocks left, or the whole string without them): escaped and encoded in
        // one pass where the processor can, as a long string's text is. Without the 512-bit blocks, a stretch of ASCII
        // with at most a few other chars among it goes through the narrowing escaper, as in a long string: EscapeUtf8's
        // blocks of 16 would take its ASCII through the two-byte encoder, and each block with another char by itself.
        while (i < value.Length && StringEscaper.CanEscapeUtf8)
        {
            int consumed;
            int chars;
            int written = !Utf8Transcoder.HasWideBlocks && StringEscaper.SuitsEscapeAscii(value[i..])
                ? StringEscaper.EscapeAscii(value[i..], room[w..], out consumed, out chars)
                : StringEscaper.EscapeUtf8(value[i..], room[w..], out consumed, out chars);
            if (consumed == 0)
            {
                break;
            }

            AddExtra(written - chars);
            i += consumed;
            w += written;
        }

        if (i == value.Length)
        {
            return w;
        }

        int escaped = StringEscaper.Escape(value[i..], _scratch);
        OperationStatus status = Utf8Transcoder.FromUtf16(_scratch.AsSpan(0, escaped), room[w..], out int read, out int bytes);
        Debug.Assert(status == OperationStatus.Done && read == escaped, "escaped text has no half pairs, and the room holds it");
        AddExtra(bytes - escaped);
        return w + bytes;
    }

    // Narrows text that is all ASCII into destination, which holds it: blocks of 16 chars, the last one reaching back
    // over bytes already written, or two overlapping pieces of eight or four for shorter text, so that a short text
    // costs no loop and no call.
    private static void NarrowAscii(ReadOnlySpan<char> text, Span<byte> destination)
    {
        Debug.Assert(Ascii.IsValid(text), "ASCII text");
        if (destination.Length < text.Length)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(text));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = text.Length;
        if (length >= 16)
        {
            for (int i = 0; i < length - 16; i += 16)
            {
                Vector128.Narrow(Vector128.LoadUnsafe(ref source, (nuint)i), Vector128.LoadUnsafe(ref source, (nuint)i + 8))
                    .StoreUnsafe(ref target, (nuint)i);
            }

            nuint last = (nuint)(length - 16);
            Vector128.Narrow(Vector128.LoadUnsafe(ref source, last), Vector128.LoadUnsafe(ref source, last + 8)).StoreUnsafe(ref target, last);
            return;
        }

        if (length >= 8)
        {
            nuint last = (nuint)(length - 8);
            Vector128<ushort> head = Vector128.LoadUnsafe(ref source);
            Vector128<ushort> tail = Vector128.LoadUnsafe(ref source, last);
            Unsafe.WriteUnaligned(ref target, Vector128.Narrow(head, head).AsUInt64().ToScalar());
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, last), Vector128.Narrow(tail, tail).AsUInt64().ToScalar());
            return;
        }

        for (int i = 0; i < length; i++)
        {
            Unsafe.Add(ref target, i) = (byte)Unsafe.Add(ref source, i);
        }
    }

    // The blocks of EncodeEscaped: from the start of value, up to its first block with a char to escape or a surrogate
    // without its other half (or to its end); returns the chars read and the bytes written. A block's stores reach up to
    // Utf8Transcoder.BlockRoom past what it keeps.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (int Read, int Written) EncodeBlocks(ReadOnlySpan<char> value, Span<byte> room)
    {
        Debug.Assert(Utf8Transcoder.HasWideBlocks, "only where the 512-bit blocks are");
        const int Lanes = Utf8Transcoder.BlockLength;
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref byte target = ref MemoryMarshal.GetReference(room);
        int length = value.Length;
        int i = 0;
        int w = 0;
        while (i < length)
        {
            Debug.Assert(room.Length - w >= Utf8Transcoder.BlockRoom, "the room holds a block's stores");

            // A last block of fewer chars has spaces past them: one byte each, not kept.
            int count = Math.Min(Lanes, length - i);
            Vector512<ushort> block = count == Lanes
                ? Vector512.LoadUnsafe(ref source, (nuint)i)
                : Utf8Transcoder.LoadFirstLanes(ref Unsafe.Add(ref source, i), count, ' ');
            Vector512<ushort> escaped = Vector512.LessThan(block, Vector512.Create((ushort)' '))
                | Vector512.Equals(block, Vector512.Create((ushort)'"'))
                | Vector512.Equals(block, Vector512.Create((ushort)'\\'));
            if (escaped != Vector512<ushort>.Zero)
            {
                break;
            }

            Vector512<ushort> kind = block & Vector512.Create((ushort)0xFC00);
            Vector512<ushort> highLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xD800));
            Vector512<ushort> lowLanes = Vector512.Equals(kind, Vector512.Create((ushort)0xDC00));
            ulong high = highLanes.ExtractMostSignificantBits();
            ulong low = lowLanes.ExtractMostSignificantBits();
            int take = count;
            const ulong LastLane = 1UL << (Lanes - 1);
            if ((high & LastLane) != 0 && count == Lanes)
            {
                // A high surrogate in the last lane waits for the next block, which starts with it; its lane becomes a
                // space, not kept.
                Vector512<ushort> last = Vector512.Equals(Vector512<ushort>.Indices, Vector512.Create((ushort)(Lanes - 1)));
                block = Vector512.ConditionalSelect(last, Vector512.Create((ushort)' '), block);
                highLanes = Vector512.AndNot(highLanes, last);
                high &= ~LastLane;
                take = Lanes - 1;
            }

            // Every high surrogate has a low one next, and every low one a high one before it.
            if (high << 1 != low)
            {
                break;
            }

            int encoded = Utf8Transcoder.EncodeBlock(block, highLanes, lowLanes, high != 0, ref Unsafe.Add(ref target, w));
            w += encoded - (Lanes - take);
            i += take;
        }

        return (i, w);
    }

    // EncodeBlocks in blocks of sixteen chars, for processors with AVX2 but not the 512-bit blocks. The last block of
    // fewer chars has spaces past them, one byte each, not kept; a high surrogate in the last lane waits for the next
    // block, so that every block's pairs are whole.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (int Read, int Written) EncodeSixteenCharBlocks(ReadOnlySpan<char> value, Span<byte> room)
    {
        Debug.Assert(Utf8Transcoder.HasSixteenCharBlocks, "only where AVX2 is");
        const int Lanes = Utf8Transcoder.SixteenChars;
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref byte target = ref MemoryMarshal.GetReference(room);
        int length = value.Length;
        int i = 0;
        int w = 0;
        while (i < length)
        {
            Debug.Assert(room.Length - w >= Utf8Transcoder.SixteenCharRoom, "the room holds a block's stores");
            int count = Math.Min(Lanes, length - i);
            Vector256<ushort> block = count == Lanes
                ? Vector256.LoadUnsafe(ref source, (nuint)i)
                : Utf8Transcoder.LoadFirstOfSixteen(ref Unsafe.Add(ref source, i), count);
            Vector256<ushort> escaped = Vector256.LessThan(block, Vector256.Create((ushort)' '))
                | Vector256.Equals(block, Vector256.Create((ushort)'"'))
                | Vector256.Equals(block, Vector256.Create((ushort)'\\'));
            if (escaped != Vector256<ushort>.Zero)
            {
                break;
            }

            // The surrogates' lanes, and as masks of two bits per lane (bits 2k and 2k + 1 for lane k).
            Vector256<ushort> kind = block & Vector256.Create((ushort)0xFC00);
            Vector256<ushort> highLanes = Vector256.Equals(kind, Vector256.Create((ushort)0xD800));
            Vector256<ushort> lowLanes = Vector256.Equals(kind, Vector256.Create((ushort)0xDC00));
            uint high = highLanes.AsByte().ExtractMostSignificantBits();
            uint low = lowLanes.AsByte().ExtractMostSignificantBits();
            int take = count;
            const uint LastLane = 0b11u << (2 * (Lanes - 1));
            if ((high & LastLane) != 0 && count == Lanes)
            {
                // The next block starts with it; its lane becomes a space, not kept.
                Vector256<ushort> last = Vector256.Equals(Vector256<ushort>.Indices, Vector256.Create((ushort)(Lanes - 1)));
                block = Vector256.ConditionalSelect(last, Vector256.Create((ushort)' '), block);
                highLanes = Vector256.AndNot(highLanes, last);
                high &= ~LastLane;
                take = Lanes - 1;
            }

            // Every high surrogate has a low one next, and every low one a high one before it.
            if (high << 2 != low)
            {
                break;
            }

            w += Utf8Transcoder.EncodeSixteenChars(block, highLanes, lowLanes, ref Unsafe.Add(ref target, w)) - (Lanes - take);
            i += take;
        }

        return (i, w);
    }

    public void StartObject()
    {
        WriteByte((byte)'{');
        _depth++;
    }

    public void WritePropertyName(string name, bool first)
    {
        // Compact output and a short ASCII name that needs no escaping: the comma, the quoted name and the colon in one
        // reservation.
        if (!_indented && IsShort(name))
        {
            Span<byte> room = Reserve(StringEscaper.MaxShortLength + 4);
            int at = first ? 0 : 1;
            room[0] = (byte)',';
            Span<byte> quoted = AfterSeparator(room, at);
            if (TryQuoteInline(name, quoted))
            {
                quoted[name.Length + 2] = (byte)':';
                _pos += at + name.Length + 3;
                return;
            }
        }

        WriteSeparator(first);
        WriteString(name);
        WriteNameEnd();
    }

    /// <summary>Like <see cref="WritePropertyName"/>, for a name already quoted and followed by ':'.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, bool first)
    {
        // Compact output and a short ASCII name, the common case: the comma and the name in one reservation.
        if (!_indented && quotedWithColon.Length <= MaxInlineName)
        {
            Span<byte> room = Reserve(MaxInlineName + 1);
            int at = first ? 0 : 1;
            room[0] = (byte)',';
            if (TryNarrowAscii(quotedWithColon, AfterSeparator(room, at)))
            {
                _pos += at + quotedWithColon.Length;
                return;
            }
        }

        WriteLongOrIndentedPropertyName(quotedWithColon, first);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongOrIndentedPropertyName(string quotedWithColon, bool first)
    {
        WriteSeparator(first);
        WriteText(quotedWithColon);
        if (_indented)
        {
            WriteByte((byte)' ');
        }
    }

    // After a name's closing quote: the colon, and a space where the output is indented.
    private void WriteNameEnd()
    {
        WriteByte((byte)':');
        if (_indented)
        {
            WriteByte((byte)' ');
        }
    }

    public void EndObject(bool empty) => EndContainer((byte)'}', empty);

    public void StartArray()
    {
        WriteByte((byte)'[');
        _depth++;
    }

    /// <summary>Before an element or a property: a comma unless it is the first, then the line break and
    /// indentation.</summary>
    public void WriteSeparator(bool first)
    {
        if (!first)
        {
            WriteByte((byte)',');
        }

        if (_indented)
        {
            WriteNewLine();
        }
    }

    public void EndArray(bool empty) => EndContainer((byte)']', empty);

    private void EndContainer(byte bracket, bool empty)
    {
        _depth--;
        if (!empty && _indented)
        {
            WriteNewLine();
        }

        WriteByte(bracket);
    }

    // Room for count bytes (at most BufferLength) at _pos, flushing first if needed: a span of exactly count bytes.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Reserve(int count)
    {
        if (!HasRoom(count))
        {
            Flush();
        }

        return Room(count);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool HasRoom(int count)
    {
        Debug.Assert((uint)count <= BufferLength, "the buffer holds BufferLength bytes");
        return _pos + count <= _end;
    }

    // The count bytes after _pos, where HasRoom (or the flush after it) has made room for them, made without the range
    // check of AsSpan, which the room makes true.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<byte> Room(int count)
    {
        Debug.Assert(_pos >= _start && count <= _end - _pos && _end <= _buffer.Length, "the room is within the buffer");
        return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_buffer), _pos), count);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteByte(byte b)
    {
        if (_pos == _end)
        {
            Flush();
        }

        _buffer[_pos++] = b;
    }

    private void WriteTwo(byte first, byte second)
    {
        Span<byte> room = Reserve(2);
        room[0] = first;
        room[1] = second;
        _pos += 2;
    }

    // Bytes written beyond one per char of output: Length leaves them out.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void AddExtra(int bytes)
    {
        Debug.Assert(bytes >= 0, "a char takes one byte or more");
        _extra += bytes;
        _sinkLength -= bytes;
    }

    // The room after a comma that room starts with, from its first byte (at 0, the comma is written over) or its second
    // (at 1): one byte shorter than room whatever at is.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Span<byte> AfterSeparator(Span<byte> room, int at)
    {
        Debug.Assert(at is 0 or 1 && room.Length >= 1, "a comma is one byte");
        return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref MemoryMarshal.GetReference(room), at), room.Length - 1);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShort(string value) =>
        (uint)(value.Length - StringEscaper.MinShortLength) <= StringEscaper.MaxShortLength - StringEscaper.MinShortLength;

    // Values of 2 to 128 chars: checked and narrowed inline.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsInlined(string value) =>
        (uint)(value.Length - StringEscaper.MinShortLength) <= StringEscaper.MaxMediumLength - StringEscaper.MinShortLength;

    // A value that IsInlined accepts quoted into room, which has space for the longest one that may come (a short one,
    // and a block's stores past it, where the caller asked IsShort): false, with room to be written over, when one of
    // its chars needs escaping or is not ASCII.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryQuoteInline(string value, Span<byte> room)
    {
        room[0] = (byte)'"';
        bool narrowed = value.Length <= StringEscaper.MaxShortLength
            ? StringEscaper.TryNarrowShort(value, room[1..])
            : StringEscaper.TryNarrowMedium(value, room[1..]);
        if (!narrowed)
        {
            return false;
        }

        room[value.Length + 1] = (byte)'"';
        return true;
    }

    // Narrows text of 1 to MaxInlineName chars into destination, which has room for MaxInlineName bytes, when it is all
    // ASCII: one masked block where the 512-bit blocks are; otherwise pieces of eight chars, the last reaching back
    // over bytes already written, or two overlapping pieces of four for a text of four to seven, or char by char. False when a char is not ASCII, with destination to be written over.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryNarrowAscii(string text, Span<byte> destination)
    {
        Debug.Assert(text.Length is > 0 and <= MaxInlineName, "a short text");
        if (destination.Length < MaxInlineName)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(text.AsSpan()));
        ref byte target = ref MemoryMarshal.GetReference(destination);
        int length = text.Length;
        if (Utf8Transcoder.HasWideBlocks)
        {
            // One block of 32 lanes, loaded masked to the text's chars, checked and narrowed at once.
            Vector512<ushort> block = length == Utf8Transcoder.BlockLength
                ? Vector512.LoadUnsafe(ref source)
                : Utf8Transcoder.LoadFirstLanes(ref source, length);
            Avx512BW.ConvertToVector256Byte(block).StoreUnsafe(ref target);
            return (block & Vector512.Create((ushort)0xFF80)) == Vector512<ushort>.Zero;
        }

        Vector128<ushort> notAscii = Vector128.Create((ushort)0xFF80);
        if (length >= 8)
        {
            Vector128<ushort> seen = Vector128<ushort>.Zero;
            for (int i = 0; i < length - 8; i += 8)
            {
                Vector128<ushort> piece = Vector128.LoadUnsafe(ref source, (nuint)i);
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, i), Vector128.Narrow(piece, piece).AsUInt64().ToScalar());
                seen |= piece;
            }

            Vector128<ushort> last = Vector128.LoadUnsafe(ref source, (nuint)(length - 8));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, length - 8), Vector128.Narrow(last, last).AsUInt64().ToScalar());
            return ((seen | last) & notAscii) == Vector128<ushort>.Zero;
        }

        if (length >= 4)
        {
            ulong head = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref source));
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref source, length - 4)));
            Vector128<ushort> pieces = Vector128.Create(head, tail).AsUInt16();
            Vector128<byte> bytes = Vector128.Narrow(pieces, pieces);
            Unsafe.WriteUnaligned(ref target, bytes.AsUInt32().ToScalar());
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, length - 4), bytes.AsUInt32().GetElement(1));
            return (pieces & notAscii) == Vector128<ushort>.Zero;
        }

        for (int i = 0; i < length; i++)
        {
            ushort c = Unsafe.Add(ref source, i);
            if (c >= 0x80)
            {
                return false;
            }

            Unsafe.Add(ref target, i) = (byte)c;
        }

        return true;
    }

    // Text that is written as it is (raw JSON, a quoted name that is not ASCII, an irregular gap's line), encoded
    // through the buffer in pieces that never cut a pair; a surrogate without its other half becomes U+FFFD.
    private void WriteText(ReadOnlySpan<char> text)
    {
        while (!text.IsEmpty)
        {
            int take = StringEscaper.SliceLength(text, MaxTextPiece);
            Span<byte> room = Reserve((3 * take) + Utf8Transcoder.BlockRoom);
            OperationStatus status = Utf8Transcoder.FromUtf16(text[..take], room, out int read, out int written);
            Debug.Assert(status is OperationStatus.Done or OperationStatus.NeedMoreData, "the room holds the piece");
            _pos += written;
            AddExtra(written - read);
            text = text[read..];
            if (status == OperationStatus.NeedMoreData)
            {
                // A high surrogate that ends the text: no low one follows it.
                Debug.Assert(text.Length == 1 && char.IsHighSurrogate(text[0]), "only half a pair is left");
                ReplacementChar.CopyTo(Reserve(ReplacementChar.Length));
                _pos += ReplacementChar.Length;
                AddExtra(ReplacementChar.Length - 1);
                return;
            }
        }
    }

    // A newline and the indentation of the current depth.
    private void WriteNewLine()
    {
        Debug.Assert(_indented, "only indented output breaks lines");
        if (_gapHasSurrogates)
        {
            int chars = Indentation.Length(LineBreak, _gap, _depth);
            if (chars > _newLineChars.Length)
            {
                _newLineChars = new char[Math.Max(chars, _newLineChars.Length * 2)];
                Indentation.Write(_newLineChars, LineBreak, _gap, (_newLineChars.Length - LineBreak.Length) / _gap.Length);
            }

            WriteText(_newLineChars.AsSpan(0, chars));
            return;
        }

        int length = LineBreak.Length + (_depth * _gapBytes);
        if (length > _newLine.Length)
        {
            GrowNewLine(length);
        }

        ReadOnlySpan<byte> rest = _newLine.AsSpan(0, length);
        while (!rest.IsEmpty)
        {
            int take = Math.Min(rest.Length, MaxTextPiece);
            rest[..take].CopyTo(Reserve(take));
            _pos += take;
            rest = rest[take..];
        }

        AddExtra(_depth * (_gapBytes - _gap.Length));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GrowNewLine(int length)
    {
        int levels = (Math.Max(length, _newLine.Length * 2) - LineBreak.Length) / _gapBytes;
        var newLine = new byte[LineBreak.Length + (levels * _gapBytes)];
        newLine[0] = (byte)'\n';
        Span<byte> gap = newLine.AsSpan(LineBreak.Length, _gapBytes);
        Encoding.UTF8.GetBytes(_gap, gap);
        for (int at = LineBreak.Length + _gapBytes; at < newLine.Length; at += _gapBytes)
        {
            gap.CopyTo(newLine.AsSpan(at));
        }

        _newLine = newLine;
    }

    // A long string goes through in slices, never cutting a surrogate pair, and stops early once the output is past
    // the limit, so that the limit is noticed before the output grows to an impossible size. A slice whose next chars
    // are ASCII goes through StringEscaper.EscapeAscii (the few chars among it that are not ASCII encoded in place),
    // other text through StringEscaper.EscapeUtf8, where the processor has its blocks; what those leave (text dense
    // with chars from U+0800 on, surrogates) is escaped into the char scratch and transcoded, a scratch's worth at a
    // time.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongString(string value)
    {
        WriteByte((byte)'"');
        ReadOnlySpan<char> rest = value;

        // How many more chars go through the scratch before the UTF-8 escaper is tried again, after it left text to it.
        int charsFirst = 0;
        while (!rest.IsEmpty && !IsOverLimit)
        {
            // Room for a whole slice, escaped, from the sink where the buffer has less: the destination's memory goes on
            // where the buffer ends, or a chunk as long as the slice, so that the slices are as long as MaxSlice (the
            // longer, the less the calls around each cost). The writer's own buffer holds shorter ones.
            int wanted = (Math.Min(rest.Length, MaxSlice) * JsonConstants.MaxEscapedCharLength) + StringEscaper.MinUtf8Room;
            if (_end - _pos < wanted)
            {
                Flush(wanted);
            }

            Span<byte> room = _buffer.AsSpan(_pos, _end - _pos);
            int maxTake = Math.Min(MaxSlice, (room.Length - StringEscaper.MinUtf8Room) / JsonConstants.MaxEscapedCharLength);
            int take = StringEscaper.SliceLength(rest, maxTake);
            int consumed = 0;
            int written = 0;
            int chars = 0;
            if (StringEscaper.SuitsEscapeAscii(rest))
            {
                written = StringEscaper.EscapeAscii(rest[..take], room, out consumed, out chars);
            }
            else if (StringEscaper.CanEscapeUtf8 && charsFirst <= 0)
            {
                written = StringEscaper.EscapeUtf8(rest[..take], room, out consumed, out chars);
                if (consumed == 0)
                {
                    charsFirst = ScratchLength;
                }
            }

            if (consumed == 0)
            {
                // Through the scratch: as long a slice as it holds escaped.
                take = StringEscaper.SliceLength(rest, Math.Min(maxTake, MaxInlineString));
                int escaped = StringEscaper.Escape(rest[..take], _scratch);
                OperationStatus status = Utf8Transcoder.FromUtf16(_scratch.AsSpan(0, escaped), room, out int read, out written);
                Debug.Assert(status == OperationStatus.Done && read == escaped, "escaped text has no half pairs, and the room holds it");
                consumed = take;
                chars = escaped;
                charsFirst -= take;
            }

            _pos += written;
            AddExtra(written - chars);
            rest = rest[consumed..];
        }

        WriteByte((byte)'"');
    }
}
