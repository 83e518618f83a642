using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace JsonStringify.Internals;

/// <summary>
/// The text output's writer: JSON tokens, separators and indentation as chars. Tokens go into a char buffer with a
/// local index, which is handed to the call's <see cref="TextSink"/> when full: a text writer takes its chars and gives
/// it back, the string sink keeps it as a chunk of the result and gives a longer one. Number digits are formatted
/// straight into it. It never asks the engine for anything: the walker hands it strings and doubles. (UTF-8
/// destinations have a writer of their own, <see cref="Utf8Writer"/>.)
/// </summary>
internal sealed partial class JsonWriter
{
    // 8 KB: large enough that hand-offs to the sink are few, small enough to stay in L1.
    private const int BufferLength = 4096;

    // The longest string escaped straight into the buffer in one piece (6 chars per char, plus the quotes); longer
    // strings go through in slices of this length.
    private const int MaxInlineString = (BufferLength - 2) / JsonConstants.MaxEscapedCharLength;

    // JSON.stringify breaks lines with a line feed (SerializeJSONObject and SerializeJSONArray: ',', LINE FEED,
    // indent).
    private const string LineBreak = "\n";

    // Longer fixed texts (quoted keys, raw JSON) skip the buffer and go to the sink whole; longer indentation lines go
    // through the buffer in pieces (WriteLongLine).
    private const int MaxBufferedText = BufferLength / 2;

    // A long string's slice into chars goes into the buffer it is in while this much room is left, escaped.
    private const int MinCharSliceRoom = 64 * JsonConstants.MaxEscapedCharLength;

    // Property names up to this length (quoted, with the colon) are copied without a call to the BCL's memmove.
    private const int MaxInlineCopy = 16;

    // Indented output: lines (the line break and indentation) and quoted names up to this length are copied without a
    // call to the BCL's memmove; a two-space gap stays within it down to depth 15.
    private const int MaxInlineLine = 2 * MaxInlineCopy;

    // The writer's own buffer, and the one it writes in: its own, or one its sink handed it (see TextSink.TakeBuffer),
    // which is never shorter. Only the sink's release may take a handed buffer back, after Reset.
    private readonly char[] _ownBuffer = new char[BufferLength];
    private char[] _buffer;

    // The line break, then indentation enough for the deepest line so far: a prefix of it starts each line.
    private char[] _newLine = [];
    private int _pos;

    // The chars at the start of _buffer that the sink has already taken, where they are (TextSink.WriteWhole): the
    // writer never writes before this again, and hands the sink only the chars from here to _pos. Zero but after a
    // whole string into a string result; at most _pos.
    private int _handed;

    // The sink's Length less _handed, as of the writer's last call to the sink (SinkChanged): Length adds _pos to it,
    // one load on the path of every value's length check where reading the sink's own took two.
    private long _sinkLength;

    private TextSink? _sink;
    private string _gap = string.Empty;

    // Whether _gap is not empty: asked at every name and separator, where reading the gap's length took one load
    // more on the critical path of each property.
    private bool _indented;
    private int _depth;
    private long _maxLength;

    /// <summary>How many containers are open: the indentation level of the current line.</summary>
    public int Depth => _depth;

    /// <summary>How many chars have been written in this call.</summary>
    public long Length
    {
        get
        {
            Debug.Assert(_sinkLength == _sink!.Length - _handed, "SinkChanged ran after every call that wrote to the sink");
            return _sinkLength + _pos;
        }
    }

    /// <summary>True once the output has grown past the longest the result may be.</summary>
    public bool IsOverLimit => Length > _maxLength;

    public JsonWriter() => _buffer = _ownBuffer;

    /// <summary>The sink of this call, once <see cref="SetSink"/> chose it; null after <see cref="Reset"/>.</summary>
    public TextSink? Sink => _sink;

    /// <summary>Chooses where this call's text goes: a sink its output has started on the destination.</summary>
    public void SetSink(TextSink sink)
    {
        Debug.Assert(_sink is null, "one sink per call");
        _sink = sink;
    }

    public void Start(string gap, long maxLength)
    {
        Debug.Assert(_sink is not null, "the output chose a sink before the walk");
        _buffer = _ownBuffer;
        if (gap != _gap)
        {
            _newLine = [];
        }

        _gap = gap;
        _indented = gap.Length != 0;
        _depth = 0;
        _pos = 0;
        _handed = 0;
        _sinkLength = 0;
        _maxLength = maxLength;
    }

    /// <summary>
    /// Hands what is still buffered to the sink as the end of the output, and has the sink write out what it holds;
    /// call once the walk is done.
    /// </summary>
    public void Complete()
    {
        Debug.Assert(_handed <= _pos, "the sink took only chars already written");
        _sink!.WriteLast(_buffer.AsSpan(_handed, _pos - _handed));
        _pos = 0;
        _handed = 0;
        _sink.Complete();
        SinkChanged();
    }

    /// <summary>Hands what is buffered to the sink, and goes on from the start of the buffer it hands back.</summary>
    public void Flush()
    {
        if (_pos != 0)
        {
            Debug.Assert(_handed <= _pos, "the sink took only chars already written");
            _buffer = _sink!.TakeBuffer(_buffer, _handed, _pos);
            _pos = 0;
            _handed = 0;
            SinkChanged();
        }
    }

    /// <summary>Drops every reference taken for the call, so that a pooled writer pins nothing.</summary>
    public void Reset()
    {
        _sink = null;
        _buffer = _ownBuffer;
        _pos = 0;
        _handed = 0;
        _sinkLength = 0;
        _depth = 0;
    }

    // null, true, false, [] and {} as one store of eight chars each: the token, then chars past it that the next write
    // overwrites. A literal's token is read from a table by its value, without a branch on which it is.
    public void WriteLiteral(JsonLiteral literal)
    {
        Debug.Assert(literal is JsonLiteral.Null or JsonLiteral.True or JsonLiteral.False, "one of the three");
        // The room first: a token loaded before it would be kept in memory across the flush that Reserve may call.
        ref ushort room = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(Reserve(Vector128<ushort>.Count)));
        ref ushort tokens = ref MemoryMarshal.GetReference(LiteralTokens);
        Vector128.LoadUnsafe(ref tokens, (nuint)literal * (nuint)Vector128<ushort>.Count).StoreUnsafe(ref room);
        _pos += 4 + ((int)literal >> 1);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteToken(Vector128<ushort> token, int length)
    {
        // CopyTo checks the room, which Reserve makes at least eight chars.
        token.CopyTo(MemoryMarshal.Cast<char, ushort>(Reserve(Vector128<ushort>.Count)));
        _pos += length;
    }

    // null, true and false, eight chars each, in the order of JsonLiteral.
    private static ReadOnlySpan<ushort> LiteralTokens =>
    [
        'n', 'u', 'l', 'l', 0, 0, 0, 0,
        't', 'r', 'u', 'e', 0, 0, 0, 0,
        'f', 'a', 'l', 's', 'e', 0, 0, 0,
    ];

    private static Vector128<ushort> EmptyArrayToken => Vector128.Create('[', ']', 0, 0, 0, 0, 0, 0);

    private static Vector128<ushort> EmptyObjectToken => Vector128.Create('{', '}', 0, 0, 0, 0, 0, 0);

    public void WriteRaw(string text) => WriteText(text);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteNumber(double value)
    {
        // A whole number from 0 to 2^32 - 1 (or -0, written as 0) equals its truncation; no other number does. This
        // test comes before the one on the size so that every number that fails it (a fraction, a negative number)
        // leaves at one branch whatever its sign. A size test first would send a small positive fraction (truncated
        // below 10,000) and a negative number (whose truncation wraps far above it) opposite ways, a branch that goes
        // either way at random in arrays of doubles of random sign.
        uint whole = NumberFormatter.Truncate(value);
        if (whole == value)
        {
            // Below 10,000, the most common in documents: written here, inline in the walker whatever its profile
            // says.
            if (whole < NumberFormatter.SmallIntegerLimit)
            {
                // Reserve may flush, which moves _pos: it runs before _pos is read.
                Span<char> room = Reserve(NumberFormatter.SmallIntegerDigits);
                _pos += NumberFormatter.FormatSmallInteger(whole, room);
                return;
            }

            // Ids, counts, sizes, prices in cents, timestamps in seconds: from 10,000 to 2^32 - 1, out of line but
            // apart from the other numbers, so that they skip the checks those need (finite, zero, whole, sign) and
            // the larger call.
            WriteWholeNumber(whole);
            return;
        }

        WriteOtherNumber(value);
    }

    /// <summary>
    /// A number of an array whose numbers change sign and length at random (the walker samples an array before it
    /// calls this): the text <see cref="WriteNumber"/> writes, with whole numbers from 1 to 10^8 - 1 in magnitude
    /// written without a branch on their sign or length (<see cref="NumberFormatter.FormatSignedWholeNumber"/>).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteErraticNumber(double value)
    {
        double magnitude = Math.Abs(value);
        uint whole = NumberFormatter.Truncate(magnitude);

        // From 1 to 10^8 - 1 in magnitude: zero and -0 wrap to the largest uint; NaN equals nothing.
        if (whole == magnitude && whole - 1 < NumberFormatter.SignedWholeNumberLimit - 1)
        {
            // Reserve may flush, which moves _pos: it runs before _pos is read.
            Span<char> room = Reserve(NumberFormatter.SignedWholeNumberDigits);
            _pos += NumberFormatter.FormatSignedWholeNumber(value, whole, room);
            return;
        }

        WriteNumber(value);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteWholeNumber(uint value)
    {
        Span<char> room = Reserve(NumberFormatter.WholeNumberDigits);
        _pos += NumberFormatter.FormatWholeNumber(value, room);
    }

    // Every number but the positive whole ones below 2^32 (negative, not whole, not finite, or larger), whose text the
    // formatter chooses (NumberFormatter.FormatOther): kept out of line as WriteEscapedString is. The room comes first,
    // and a flush goes through a method of its own: where no vector register is kept across a call (x64 on Linux and
    // macOS), a double live across Flush here would be stored and read back on every number's way to the formatter.
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
        // Most values are short and need no escaping: quoted here without the call to the escaper.
        if (IsInlined(value) && TryQuoteInline(value, Reserve(StringEscaper.MaxMediumLength + 2)))
        {
            _pos += value.Length + 2;
            return;
        }

        WriteEscapedString(value);
    }

    // The rest of WriteString: a value that needs escaping, or is too short or too long to be quoted inline. Kept out
    // of line so that the callers, where WriteString is inlined, carry only the common case: without a profile (at
    // first calls, under DOTNET_TieredPGO=0) the JIT otherwise left all of WriteString a call.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteEscapedString(string value)
    {
        if (value.Length > MaxInlineString)
        {
            WriteLongString(value);
            return;
        }

        Span<char> destination = Reserve(StringEscaper.RoomFor(value.Length) + 2);
        destination[0] = '"';

        // The empty string, and one char that needs no escaping (a flag, a phase, a unit): quoted here, without the
        // escaper's call. A lone surrogate has no other half, so the escaper takes it.
        if (value.Length == 0)
        {
            destination[1] = '"';
            _pos += 2;
            return;
        }

        if (value.Length == 1 && !StringEscaper.IsEscapedAlone(value[0]))
        {
            destination[1] = value[0];
            destination[2] = '"';
            _pos += 3;
            return;
        }

        int written = StringEscaper.Escape(value, destination[1..]);
        destination[written + 1] = '"';
        _pos += written + 2;
    }

    public void StartObject()
    {
        WriteChar('{');
        _depth++;
    }

    public void WritePropertyName(string name, bool first)
    {
        // Compact output and a short name that needs no escaping, the common case for table objects, whose names are
        // not quoted ahead: the comma, the quoted name and the colon in one reservation.
        if (!_indented && IsShort(name))
        {
            Span<char> room = Reserve(StringEscaper.MaxShortLength + 4);
            int at = first ? 0 : 1;
            room[0] = ',';
            Span<char> quoted = AfterSeparator(room, at);
            if (TryQuoteInline(name, quoted))
            {
                quoted[name.Length + 2] = ':';
                _pos += at + name.Length + 3;
                return;
            }
        }

        if (_indented)
        {
            WriteIndentedPropertyName(name, first);
            return;
        }

        WriteSeparator(first);
        WriteString(name);
        WriteChar(':');
    }

    // The indented case of WritePropertyName, kept out of line so that the compact case stays small enough to inline.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteIndentedPropertyName(string name, bool first)
    {
        // A name of up to 128 chars on a short line: the name's line started, then the name quoted inline after it, as
        // WriteString quotes a value.
        if (IsInlined(name) && TryStartShortLine(first, StringEscaper.MaxMediumLength + 4, out Span<char> rest))
        {
            if (TryQuoteInline(name, rest))
            {
                rest[name.Length + 2] = ':';
                rest[name.Length + 3] = ' ';
                _pos += name.Length + 4;
                return;
            }
        }
        else
        {
            WriteSeparator(first);
        }

        WriteString(name);
        WriteAscii(": ");
    }

    /// <summary>Like <see cref="WritePropertyName"/>, for a name already quoted and followed by ':'.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WriteQuotedPropertyName(string quotedWithColon, bool first)
    {
        // Compact output, the common case: the comma and the name in one reservation, a short name copied inline.
        if (!_indented && quotedWithColon.Length <= MaxInlineCopy)
        {
            Span<char> destination = Reserve(MaxInlineCopy + 1);
            int at = first ? 0 : 1;
            destination[0] = ',';
            CopyShort(quotedWithColon, AfterSeparator(destination, at));
            _pos += at + quotedWithColon.Length;
            return;
        }

        WriteLongOrIndentedPropertyName(quotedWithColon, first);
    }

    // The rest of WriteQuotedPropertyName, kept out of line as WriteEscapedString is.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongOrIndentedPropertyName(string quotedWithColon, bool first)
    {
        // Indented, a short name on a short line, as most are: the comma, the line break and indentation, the name and
        // the space after its colon in one reservation.
        if (_indented && quotedWithColon.Length < MaxInlineLine && TryStartShortLine(first, MaxInlineLine, out Span<char> rest))
        {
            CopyMedium(quotedWithColon, rest);
            rest[quotedWithColon.Length] = ' ';
            _pos += quotedWithColon.Length + 1;
            return;
        }

        WriteSeparator(first);
        WriteText(quotedWithColon);
        if (_indented)
        {
            WriteChar(' ');
        }
    }

    public void EndObject(bool empty)
    {
        _depth--;
        if (!empty && _indented)
        {
            WriteOnNewLine('}');
            return;
        }

        WriteChar('}');
    }

    public void WriteEmptyArray() => WriteToken(EmptyArrayToken, 2);

    public void WriteEmptyObject() => WriteToken(EmptyObjectToken, 2);

    public void StartArray()
    {
        WriteChar('[');
        _depth++;
    }

    /// <summary>
    /// Before an element or a property: a comma unless it is the first, then the line break and indentation.
    /// </summary>
    public void WriteSeparator(bool first)
    {
        if (_indented)
        {
            WriteIndentedSeparator(first);
            return;
        }

        if (!first)
        {
            WriteChar(',');
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteIndentedSeparator(bool first)
    {
        if (TryStartShortLine(first, 0, out _))
        {
            return;
        }

        if (!first)
        {
            WriteChar(',');
        }

        WriteNewLine();
    }

    // A closing bracket on a line of its own.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteOnNewLine(char bracket)
    {
        if (TryStartShortLine(true, 1, out Span<char> rest))
        {
            rest[0] = bracket;
            _pos++;
            return;
        }

        WriteNewLine();
        WriteChar(bracket);
    }

    // On a line of at most MaxInlineLine chars: a comma unless first, then the line break and indentation, in one
    // reservation that leaves at least roomAfter chars after them for the caller to write into (and add to _pos).
    // False, with nothing written, on a longer line or one _newLine is not yet long enough for: WriteNewLine writes
    // those.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool TryStartShortLine(bool first, int roomAfter, out Span<char> rest)
    {
        Debug.Assert(_indented, "only indented output breaks lines");
        int length = LineLength;
        if (length > MaxInlineLine || length > _newLine.Length)
        {
            rest = default;
            return false;
        }

        Span<char> room = Reserve(1 + MaxInlineLine + roomAfter);
        room[0] = ',';
        int at = first ? 0 : 1;
        CopyMedium(_newLine.AsSpan(0, length), AfterSeparator(room, at));
        at += length;
        _pos += at;
        rest = room[at..];
        return true;
    }

    public void EndArray(bool empty)
    {
        _depth--;
        if (!empty && _indented)
        {
            WriteOnNewLine(']');
            return;
        }

        WriteChar(']');
    }

    // Room for count chars (at most BufferLength) at _pos, flushing first if needed: a span of exactly count chars.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<char> Reserve(int count)
    {
        if (!HasRoom(count))
        {
            Flush();
        }

        return Room(count);
    }

    // Whether the buffer has room for count chars after _pos: Reserve's test, also made alone by WriteOtherNumber,
    // which flushes by a path of its own.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool HasRoom(int count)
    {
        Debug.Assert((uint)count <= BufferLength, "every buffer the writer is in holds at least BufferLength chars");
        return _pos + count <= _buffer.Length;
    }

    // The count chars after _pos, where HasRoom (or the flush after it) has made room for them. Made from the buffer's
    // reference without the range check of AsSpan, which the room makes true; its length a constant at most callers,
    // so that the JIT drops their own checks on it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private Span<char> Room(int count)
    {
        char[] buffer = _buffer;
        Debug.Assert((uint)_pos <= (uint)buffer.Length && count <= buffer.Length - _pos, "the room is within the buffer");
        return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buffer), _pos), count);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteChar(char c)
    {
        if (_pos == _buffer.Length)
        {
            Flush();
        }

        _buffer[_pos++] = c;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteAscii(string token)
    {
        token.CopyTo(Reserve(token.Length));
        _pos += token.Length;
    }

    // The room after a comma that room starts with, from its first char (at 0, the comma is written over) or its
    // second (at 1): one char shorter than room whatever at is. Made without the range check of slicing at a start
    // that the JIT cannot bound, so that the callee's checks on the length fold away.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Span<char> AfterSeparator(Span<char> room, int at)
    {
        Debug.Assert(at is 0 or 1 && room.Length >= 1, "a comma is one char");
        return MemoryMarshal.CreateSpan(ref Unsafe.Add(ref MemoryMarshal.GetReference(room), at), room.Length - 1);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsShort(string value) =>
        (uint)(value.Length - StringEscaper.MinShortLength) <= StringEscaper.MaxShortLength - StringEscaper.MinShortLength;

    // Values of 2 to 128 chars: checked and copied inline, with no call to the escaper unless one needs escaping.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsInlined(string value) =>
        (uint)(value.Length - StringEscaper.MinShortLength) <= StringEscaper.MaxMediumLength - StringEscaper.MinShortLength;

    // A value that IsInlined accepts quoted into room, which has space for the longest one that may come (a short one
    // where the caller asked IsShort): false, with room to be written over, when one of its chars needs escaping.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryQuoteInline(string value, Span<char> room)
    {
        room[0] = '"';
        bool copied = value.Length <= StringEscaper.MaxShortLength
            ? StringEscaper.TryCopyShort(value, room[1..])
            : StringEscaper.TryCopyMedium(value, room[1..]);
        if (!copied)
        {
            return false;
        }

        room[value.Length + 1] = '"';
        return true;
    }

    // Copies a text of at most MaxInlineCopy chars into a destination with room for MaxInlineCopy chars: two
    // overlapping moves of a power-of-two size cover every length without a loop or a call.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void CopyShort(ReadOnlySpan<char> text, Span<char> destination)
    {
        Debug.Assert(text.Length <= MaxInlineCopy, "a short text");
        if (destination.Length < MaxInlineCopy)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        ref byte source = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(text));
        ref byte target = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(destination));
        nuint bytes = (nuint)text.Length * sizeof(char);
        if (bytes >= 16)
        {
            Vector128.LoadUnsafe(ref source).StoreUnsafe(ref target);
            Vector128.LoadUnsafe(ref source, bytes - 16).StoreUnsafe(ref target, bytes - 16);
        }
        else if (bytes >= 8)
        {
            Unsafe.WriteUnaligned(ref target, Unsafe.ReadUnaligned<ulong>(ref source));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, bytes - 8), Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref source, bytes - 8)));
        }
        else if (bytes >= 4)
        {
            Unsafe.WriteUnaligned(ref target, Unsafe.ReadUnaligned<uint>(ref source));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, bytes - 4), Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref source, bytes - 4)));
        }
        else if (bytes != 0)
        {
            Unsafe.WriteUnaligned(ref target, Unsafe.ReadUnaligned<ushort>(ref source));
        }
    }

    // Like CopyShort, for a text of at most MaxInlineLine chars into a destination with room for MaxInlineLine chars.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void CopyMedium(ReadOnlySpan<char> text, Span<char> destination)
    {
        Debug.Assert(text.Length <= MaxInlineLine, "a medium text");
        if (text.Length <= MaxInlineCopy)
        {
            CopyShort(text, destination);
            return;
        }

        if (destination.Length < MaxInlineLine)
        {
            Throw.DestinationTooShort(nameof(destination));
        }

        // 17 to 32 chars: its first 16 chars and its last 16, which overlap them, each in two moves of 16 bytes.
        ref byte source = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(text));
        ref byte target = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(destination));
        nuint bytes = (nuint)text.Length * sizeof(char);
        Vector128.LoadUnsafe(ref source).StoreUnsafe(ref target);
        Vector128.LoadUnsafe(ref source, 16).StoreUnsafe(ref target, 16);
        Vector128.LoadUnsafe(ref source, bytes - 32).StoreUnsafe(ref target, bytes - 32);
        Vector128.LoadUnsafe(ref source, bytes - 16).StoreUnsafe(ref target, bytes - 16);
    }

    private void WriteText(string text)
    {
        if (text.Length > MaxBufferedText)
        {
            WriteWhole(text);
            return;
        }

        text.CopyTo(Reserve(text.Length));
        _pos += text.Length;
    }

    // Output the writer does not copy: the chars before it and the text go to the sink, which says where in the buffer
    // the writer goes on.
    private void WriteWhole(string text)
    {
        Debug.Assert(_handed <= _pos, "the sink took only chars already written");
        _pos = _handed = _sink!.WriteWhole(_buffer, _handed, _pos, text);
        SinkChanged();
    }

    // Called after every call that writes to the sink, so that Length stays the sink's and the buffer's.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void SinkChanged() => _sinkLength = _sink!.Length - _handed;

    // The length of a new line at the current depth: the line break and the indentation.
    private int LineLength => Indentation.Length(LineBreak, _gap, _depth);

    // A newline and the indentation of the current depth, copied from a prefix of _newLine: the lines that
    // TryStartShortLine leaves, longer ones or the first as long as they are.
    private void WriteNewLine()
    {
        int length = LineLength;
        if (length > _newLine.Length)
        {
            GrowNewLine(length);
        }

        if (length > MaxBufferedText)
        {
            WriteLongLine(length);
            return;
        }

        _newLine.AsSpan(0, length).CopyTo(Reserve(length));
        _pos += length;
    }

    // A line longer than half the buffer (deep output, a wide gap): through the buffer as any other text, filling it
    // and handing it on as often as the line needs. Handed straight to the sink after a flush, each such line would
    // cost a string result a new chunk for the few chars written since the line before, and one more for the line.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongLine(int length)
    {
        ReadOnlySpan<char> rest = _newLine.AsSpan(0, length);
        while (!rest.IsEmpty)
        {
            if (_pos == _buffer.Length)
            {
                Flush();
            }

            int take = Math.Min(rest.Length, _buffer.Length - _pos);
            rest[..take].CopyTo(_buffer.AsSpan(_pos));
            _pos += take;
            rest = rest[take..];
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void GrowNewLine(int length)
    {
        Debug.Assert(_indented, "only indented output breaks lines");
        var newLine = new char[Math.Max(length, _newLine.Length * 2)];
        Indentation.Write(newLine, LineBreak, _gap, (newLine.Length - LineBreak.Length) / _gap.Length);
        _newLine = newLine;
    }

    // A long string goes through in slices, never cutting a surrogate pair, and stops early once the output is past
    // the limit, so that the limit is noticed before the output grows to an impossible size. A string that needs no
    // escaping and fits within the limit goes to the sink whole, uncopied (TextSink.WriteWhole).
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void WriteLongString(string value)
    {
        WriteChar('"');
        if (Length + value.Length <= _maxLength && !StringEscaper.NeedsEscaping(value))
        {
            WriteWhole(value);
            WriteChar('"');
            return;
        }

        ReadOnlySpan<char> rest = value;
        while (!rest.IsEmpty && !IsOverLimit)
        {
            // As long a slice as the buffer's room holds escaped, so that a buffer goes to the sink nearly full (a
            // string sink keeps it as a chunk of the result); when the room is short, the next buffer's.
            if (_buffer.Length - _pos < MinCharSliceRoom)
            {
                Flush();
            }

            int take = StringEscaper.SliceLength(rest, (_buffer.Length - _pos) / JsonConstants.MaxEscapedCharLength);
            _pos += StringEscaper.Escape(rest[..take], _buffer.AsSpan(_pos));
            rest = rest[take..];
        }

        WriteChar('"');
    }
}
