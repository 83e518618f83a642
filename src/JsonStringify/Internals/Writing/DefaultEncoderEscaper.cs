using System.Buffers;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text.Json;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// Escapes text as a <see cref="Utf8JsonWriter"/> whose encoder is the default one (<see langword="null"/> or
/// <c>JavaScriptEncoder.Default</c>) escapes strings and property names, so that text made here can go into such a
/// writer raw and read the same as the writer's own. Printable ASCII is written as it is, except what the encoder
/// keeps out of HTML and JavaScript (" &amp; ' + &lt; &gt; \ `); every other char is \uXXXX in upper-case hex, but for
/// the short escapes \b \t \n \f \r and \\; an unpaired surrogate becomes U+FFFD (\uFFFD), as the writer replaces it.
/// The output is ASCII.
/// </summary>
/// <remarks>
/// The escape of each ASCII char is asked of the writer itself at first use, and a few chars beyond ASCII are checked
/// against it; if any answer is not what this class writes, <see cref="IsAvailable"/> is false and the writer is
/// given its tokens one by one instead (see <see cref="EncodedTextOutput"/>).
/// </remarks>
internal static class DefaultEncoderEscaper
{
    // Chars are checked and copied in blocks of this many: one 256-bit vector, or two 128-bit ones.
    private const int BlockLength = 16;

    // Half a block: one 128-bit vector.
    private const int HalfBlockLength = BlockLength / 2;

    /// <summary>The shortest value <see cref="TryCopyShort"/> takes.</summary>
    public const int MinShortLength = 2;

    /// <summary>The longest value <see cref="TryCopyShort"/> takes: one char short of a block.</summary>
    public const int MaxShortLength = BlockLength - 1;

    // What the writer writes for each ASCII char: the char itself, or its escape of up to six chars; stored as two
    // moves, with its length.
    private static readonly AsciiEscape[] s_asciiOutput = new AsciiEscape[128];

    // A block with at least this many chars to escape (text beyond ASCII, mostly) is written char by char, rather
    // than escape by escape from its mask: twitter 1.17-1.20 of the IBufferWriter form's time against 1.24-1.32; at 3,
    // the notebook and the source map were 15% slower.
    private const int DenseEscapes = 8;

    // Each byte's two upper-case hex digits, as two chars and as two ASCII bytes.
    private static readonly HexPair[] s_hexPairs = new HexPair[256];

    /// <summary>Whether the writer escapes as this class does (see the remarks).</summary>
    public static bool IsAvailable { get; }

    static DefaultEncoderEscaper()
    {
        const string Hex = "0123456789ABCDEF";
        for (int b = 0; b < 256; b++)
        {
            s_hexPairs[b] = new HexPair(Hex[b >> 4], Hex[b & 0xF]);
        }

        // The 128 ASCII chars as one string value, and the writer's text for it cut into each char's output: the char
        // itself, a short escape (\n) or \uXXXX.
        string ascii = string.Create(128, 0, static (chars, _) =>
        {
            for (int c = 0; c < chars.Length; c++)
            {
                chars[c] = (char)c;
            }
        });
        string written = WriteWithWriter(ascii, propertyName: false);
        int at = 0;
        for (int c = 0; c < ascii.Length && at < written.Length; c++)
        {
            int length = written[at] != '\\' ? 1 : at + 1 < written.Length && written[at + 1] == 'u' ? JsonConstants.MaxEscapedCharLength : 2;
            s_asciiOutput[c] = AsciiEscape.Of(written.AsSpan(at, Math.Min(length, written.Length - at)));
            at += length;
        }

        IsAvailable = at == written.Length && SelfTest();
    }

    /// <summary>
    /// Copies <paramref name="value"/>, of <see cref="MinShortLength"/> to <see cref="MaxShortLength"/> chars, into
    /// <paramref name="destination"/> when the writer escapes none of its chars: its head and tail, overlapping, are
    /// checked as halves of a block (or quarters, or eighths) and stored as they are. False, with the destination to
    /// be written over, otherwise.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryCopyShort(string value, Span<char> destination)
    {
        Debug.Assert(value.Length is >= MinShortLength and <= MaxShortLength, "a short value");
        if (destination.Length < value.Length)
        {
            throw new ArgumentException("The destination is too short.", nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value.AsSpan()));
        ref byte target = ref Unsafe.As<char, byte>(ref MemoryMarshal.GetReference(destination));
        int length = value.Length;
        if (length >= HalfBlockLength)
        {
            Vector128<ushort> head = Vector128.LoadUnsafe(ref source);
            Vector128<ushort> tail = Vector128.LoadUnsafe(ref source, (nuint)(length - HalfBlockLength));
            if ((OutsidePrintable(head) | OutsidePrintable(tail) | HtmlOrQuote(Vector128.Narrow(head, tail))) != 0)
            {
                return false;
            }

            head.AsByte().StoreUnsafe(ref target);
            tail.AsByte().StoreUnsafe(ref target, (nuint)(length - HalfBlockLength) * sizeof(char));
            return true;
        }

        if (length >= 4)
        {
            ulong head = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref source));
            ulong tail = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref source, length - 4)));
            if (EscapeMask(Vector128.Create(head, tail).AsUInt16()) != 0)
            {
                return false;
            }

            Unsafe.WriteUnaligned(ref target, head);
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, (length - 4) * sizeof(char)), tail);
            return true;
        }

        // Two or three chars: the first two and the last two, the rest of the vector left out of the mask.
        uint first = Unsafe.ReadUnaligned<uint>(ref Unsafe.As<ushort, byte>(ref source));
        uint last = Unsafe.ReadUnaligned<uint>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref source, length - 2)));
        if ((EscapeMask(Vector128.Create(first | ((ulong)last << 32), 0UL).AsUInt16()) & 0xF) != 0)
        {
            return false;
        }

        Unsafe.WriteUnaligned(ref target, first);
        Unsafe.WriteUnaligned(ref Unsafe.Add(ref target, (length - 2) * sizeof(char)), last);
        return true;
    }

    /// <summary>
    /// The property names of <paramref name="keys"/> as the writer writes them, quoted and followed by ':', given
    /// them as JSON.stringify quotes them: the same string where the two agree (no char the writer escapes).
    /// </summary>
    public static string[] QuoteNames(IReadOnlyList<JsValue> keys, string[] quotedKeys)
    {
        var names = new string[quotedKeys.Length];
        for (int i = 0; i < names.Length; i++)
        {
            string name = keys[i].ToString();
            names[i] = NeedsEscaping(name) ? Quote(name) : quotedKeys[i];
        }

        return names;
    }

    // The name quoted, escaped as the writer escapes property names, and followed by ':'.
    private static string Quote(string name)
    {
        var chars = new char[(name.Length * JsonConstants.MaxEscapedCharLength) + 3];
        chars[0] = '"';
        int length = 1 + Escape(name, chars.AsSpan(1), stopAtUnpairedSurrogate: false);
        chars[length++] = '"';
        chars[length++] = ':';
        return new string(chars, 0, length);
    }

    // Whether the text has a char the writer escapes.
    private static bool NeedsEscaping(ReadOnlySpan<char> text)
    {
        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(text));
        int length = text.Length;
        if (length < HalfBlockLength)
        {
            for (int i = 0; i < length; i++)
            {
                if (!IsPlain(Unsafe.Add(ref source, i)))
                {
                    return true;
                }
            }

            return false;
        }

        // Halves of blocks, the last one overlapping the one before it.
        for (int i = 0; i < length; i += HalfBlockLength)
        {
            int at = Math.Min(i, length - HalfBlockLength);
            if (EscapeMask(Vector128.LoadUnsafe(ref source, (nuint)at)) != 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, into <paramref name="destination"/>,
    /// which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char of the value. A high surrogate
    /// at the very end is escaped as unpaired, so callers cut long strings between the two halves of a pair.
    /// </summary>
    /// <remarks>
    /// One pass, as <see cref="StringEscaper.Escape"/>: each block is stored as it is, then checked; each char to
    /// escape is written over where it was stored, and the chars after it are stored again at the new distance,
    /// unchecked, until the block's mask runs out.
    /// </remarks>
    /// <param name="value">The text.</param>
    /// <param name="destination">Where its escaped contents go.</param>
    /// <param name="stopAtUnpairedSurrogate">Stop at an unpaired surrogate (in a string value, which the caller writes
    /// as JSON.stringify does instead) rather than write U+FFFD in its place (in a property name, as the writer does).</param>
    /// <returns>The number of chars written, or -1 when stopped at an unpaired surrogate.</returns>
    public static int Escape(ReadOnlySpan<char> value, Span<char> destination, bool stopAtUnpairedSurrogate)
    {
        if ((long)destination.Length < (long)value.Length * JsonConstants.MaxEscapedCharLength)
        {
            throw new ArgumentException("The destination is too short.", nameof(destination));
        }

        return Escape(value, ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination)), stopAtUnpairedSurrogate);
    }

    /// <summary>
    /// Like <see cref="Escape(ReadOnlySpan{char}, Span{char}, bool)"/>, the escaped text (all ASCII) written as bytes,
    /// one per char, straight into UTF-8 output.
    /// </summary>
    /// <returns>The number of bytes written, or -1 when stopped at an unpaired surrogate.</returns>
    public static int EscapeToAscii(ReadOnlySpan<char> value, Span<byte> destination, bool stopAtUnpairedSurrogate)
    {
        if ((long)destination.Length < (long)value.Length * JsonConstants.MaxEscapedCharLength)
        {
            throw new ArgumentException("The destination is too short.", nameof(destination));
        }

        return Escape(value, ref MemoryMarshal.GetReference(destination), stopAtUnpairedSurrogate);
    }

    // The one escape loop, for output as chars (TUnit ushort) or as ASCII bytes (TUnit byte): every choice between
    // the two is on typeof(TUnit), which the JIT folds in each of the two compiled copies.
    private static int Escape<TUnit>(ReadOnlySpan<char> value, ref TUnit target, bool stopAtUnpairedSurrogate)
        where TUnit : unmanaged
    {
        Debug.Assert(typeof(TUnit) == typeof(ushort) || typeof(TUnit) == typeof(byte), "chars or bytes");

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        int length = value.Length;
        int i = 0;
        int w = 0;

        // Where the chars stored at the current distance between output and input begin: the char after the last
        // escape. The last block may reach back over chars already copied only if they were copied at that distance.
        int sameDistanceFrom = 0;
        int lastBlock = length - BlockLength;
        while (i <= lastBlock)
        {
            uint mask = CopyBlock(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w));
            if (mask == 0)
            {
                i += BlockLength;
                w += BlockLength;
                continue;
            }

            if (BitOperations.PopCount(mask) >= DenseEscapes)
            {
                int end = i + BlockLength;
                while (i < end)
                {
                    w = EscapeOne(ref source, length, i, ref target, w, stopAtUnpairedSurrogate, out int taken);
                    if (w < 0)
                    {
                        return -1;
                    }

                    i += taken;
                }

                sameDistanceFrom = i;
                continue;
            }

            int blockStart = i;
            while (true)
            {
                int next = blockStart + BitOperations.TrailingZeroCount(mask);
                w += next - i;
                i = next;
                w = EscapeOne(ref source, length, i, ref target, w, stopAtUnpairedSurrogate, out int read);
                if (w < 0)
                {
                    return -1;
                }

                i += read;
                sameDistanceFrom = i;
                if (i > lastBlock)
                {
                    goto Rest;
                }

                Copy(ref Unsafe.Add(ref source, i), ref Unsafe.Add(ref target, w));
                mask &= ~0u << (i - blockStart);
                if (mask == 0)
                {
                    break;
                }
            }

            int blockEnd = blockStart + BlockLength;
            if (i < blockEnd)
            {
                w += blockEnd - i;
                i = blockEnd;
            }
        }

    Rest:

        // The last chars: as the value's last block, reaching back over chars done, when they were copied at the
        // current distance; then one at a time from its first char to escape.
        if (i < length && lastBlock >= 0 && sameDistanceFrom <= lastBlock)
        {
            int back = i - lastBlock;
            uint mask = CopyBlock(ref Unsafe.Add(ref source, lastBlock), ref Unsafe.Add(ref target, w - back)) >> back;
            if (mask == 0)
            {
                return w + length - i;
            }

            int plain = BitOperations.TrailingZeroCount(mask);
            i += plain;
            w += plain;
        }

        while (i < length)
        {
            ushort c = Unsafe.Add(ref source, i);
            if (IsPlain(c))
            {
                if (typeof(TUnit) == typeof(byte))
                {
                    Unsafe.Add(ref Unsafe.As<TUnit, byte>(ref target), w++) = (byte)c;
                }
                else
                {
                    Unsafe.Add(ref Unsafe.As<TUnit, ushort>(ref target), w++) = c;
                }

                i++;
                continue;
            }

            w = EscapeOne(ref source, length, i, ref target, w, stopAtUnpairedSurrogate, out int read);
            if (w < 0)
            {
                return -1;
            }

            i += read;
        }

        return w;
    }

    // Whether the writer writes the char as it is.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsPlain(ushort c) => c < 128 && s_asciiOutput[c].Length == 1;

    // Copies a block (narrowed to bytes for ASCII output: a char that is not ASCII is escaped over its byte) and
    // returns a mask of the chars the writer escapes (bit k for the block's char k).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint CopyBlock<TUnit>(ref ushort source, ref TUnit target)
        where TUnit : unmanaged
    {
        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<ushort> chars = Vector256.LoadUnsafe(ref source);
            Vector128<byte> bytes = Vector128.Narrow(chars.GetLower(), chars.GetUpper());
            Store(chars, bytes, ref target);
            return OutsidePrintable(chars) | HtmlOrQuote(bytes);
        }

        Vector128<ushort> low = Vector128.LoadUnsafe(ref source);
        Vector128<ushort> high = Vector128.LoadUnsafe(ref source, HalfBlockLength);
        Vector128<byte> narrowed = Vector128.Narrow(low, high);
        Store(low, high, narrowed, ref target);
        return OutsidePrintable(low) | (OutsidePrintable(high) << HalfBlockLength) | HtmlOrQuote(narrowed);
    }

    // One bit per char that is not printable ASCII (below a space, or from DEL on).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint OutsidePrintable(Vector256<ushort> chars) =>
        Vector256.GreaterThanOrEqual(chars - Vector256.Create((ushort)0x20), Vector256.Create((ushort)0x5F)).ExtractMostSignificantBits();

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint OutsidePrintable(Vector128<ushort> chars) =>
        Vector128.GreaterThanOrEqual(chars - Vector128.Create((ushort)0x20), Vector128.Create((ushort)0x5F)).ExtractMostSignificantBits();

    // One bit per char of a block, given as its low bytes, that is one of " & ' + < > \ ` if it is printable ASCII
    // (a bit for a char that is not is of no matter: it is escaped anyway). Each byte's two nibbles index two tables,
    // whose entries share a bit only for those eight: a bit for each high nibble (2: " & ' +, 3: < >, 5: \, 6: `),
    // set in the low nibble's entry for the chars of that group.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint HtmlOrQuote(Vector128<byte> bytes)
    {
        Vector128<byte> lowNibbles = bytes & Vector128.Create((byte)0x0F);
        Vector128<byte> highNibbles = Vector128.ShiftRightLogical(bytes.AsUInt16(), 4).AsByte() & Vector128.Create((byte)0x0F);
        Vector128<byte> byLow = Vector128.ShuffleNative(Vector128.Create((byte)8, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 6, 0, 2, 0), lowNibbles);
        Vector128<byte> byHigh = Vector128.ShuffleNative(Vector128.Create((byte)0, 0, 1, 2, 0, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0), highNibbles);
        return ~Vector128.Equals(byLow & byHigh, Vector128<byte>.Zero).ExtractMostSignificantBits() & 0xFFFF;
    }

    // Copies a block, unchecked.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Copy<TUnit>(ref ushort source, ref TUnit target)
        where TUnit : unmanaged
    {
        if (Vector256.IsHardwareAccelerated)
        {
            Vector256<ushort> chars = Vector256.LoadUnsafe(ref source);
            Store(chars, typeof(TUnit) == typeof(byte) ? Vector128.Narrow(chars.GetLower(), chars.GetUpper()) : default, ref target);
            return;
        }

        Vector128<ushort> low = Vector128.LoadUnsafe(ref source);
        Vector128<ushort> high = Vector128.LoadUnsafe(ref source, HalfBlockLength);
        Store(low, high, typeof(TUnit) == typeof(byte) ? Vector128.Narrow(low, high) : default, ref target);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store<TUnit>(Vector256<ushort> chars, Vector128<byte> bytes, ref TUnit target)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(byte))
        {
            bytes.StoreUnsafe(ref Unsafe.As<TUnit, byte>(ref target));
        }
        else
        {
            chars.StoreUnsafe(ref Unsafe.As<TUnit, ushort>(ref target));
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store<TUnit>(Vector128<ushort> low, Vector128<ushort> high, Vector128<byte> bytes, ref TUnit target)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(byte))
        {
            bytes.StoreUnsafe(ref Unsafe.As<TUnit, byte>(ref target));
        }
        else
        {
            low.StoreUnsafe(ref Unsafe.As<TUnit, ushort>(ref target));
            high.StoreUnsafe(ref Unsafe.As<TUnit, ushort>(ref target), HalfBlockLength);
        }
    }

    // One bit per char of half a block that the writer escapes: not printable ASCII, or one of " & ' + < > \ ` (the
    // self-test checks this against the writer's answers).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint EscapeMask(Vector128<ushort> chars) =>
        OutsidePrintable(chars) | (HtmlOrQuote(Vector128.Narrow(chars, chars)) & 0xFF);

    // What the writer writes for the char at i (the char itself, if it is plain ASCII), and for the low surrogate after
    // it for a pair, written at w (which has room for six units per char left): the new w, with how many chars were
    // read; -1 when the caller stops at an unpaired surrogate.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int EscapeOne<TUnit>(ref ushort source, int length, int i, ref TUnit target, int w, bool stopAtUnpairedSurrogate, out int read)
        where TUnit : unmanaged
    {
        ushort c = Unsafe.Add(ref source, i);
        read = 1;
        if (c < 128)
        {
            AsciiEscape escape = s_asciiOutput[c];
            if (typeof(TUnit) == typeof(byte))
            {
                ref byte at = ref Unsafe.Add(ref Unsafe.As<TUnit, byte>(ref target), w);
                Unsafe.WriteUnaligned(ref at, escape.AsciiHead);
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref at, sizeof(uint)), escape.AsciiTail);
            }
            else
            {
                ref byte at = ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref Unsafe.As<TUnit, ushort>(ref target), w));
                Unsafe.WriteUnaligned(ref at, escape.Head);
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref at, sizeof(ulong)), escape.Tail);
            }

            return w + escape.Length;
        }

        if (!char.IsSurrogate((char)c))
        {
            return WriteHexEscape(c, ref target, w);
        }

        if (char.IsHighSurrogate((char)c) && i + 1 < length && char.IsLowSurrogate((char)Unsafe.Add(ref source, i + 1)))
        {
            read = 2;
            return WriteHexEscape(Unsafe.Add(ref source, i + 1), ref target, WriteHexEscape(c, ref target, w));
        }

        return stopAtUnpairedSurrogate ? -1 : WriteHexEscape('\uFFFD', ref target, w);
    }

    // \uXXXX, upper-case hex, as the writer writes it: one move for the backslash and the u, one for the digits.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int WriteHexEscape<TUnit>(ushort c, ref TUnit target, int w)
        where TUnit : unmanaged
    {
        if (typeof(TUnit) == typeof(byte))
        {
            ref byte at = ref Unsafe.Add(ref Unsafe.As<TUnit, byte>(ref target), w);
            Unsafe.WriteUnaligned(ref at, (ushort)('\\' | ('u' << 8)));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref at, sizeof(ushort)), (uint)s_hexPairs[c >> 8].Ascii | ((uint)s_hexPairs[c & 0xFF].Ascii << 16));
        }
        else
        {
            ref byte at = ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref Unsafe.As<TUnit, ushort>(ref target), w));
            Unsafe.WriteUnaligned(ref at, '\\' | ((uint)'u' << 16));
            Unsafe.WriteUnaligned(ref Unsafe.Add(ref at, sizeof(uint)), s_hexPairs[c >> 8].Chars | ((ulong)s_hexPairs[c & 0xFF].Chars << 32));
        }

        return w + JsonConstants.MaxEscapedCharLength;
    }

    // The masks against the writer's answer for every ASCII char; then chars beyond ASCII (Latin-1, a line separator,
    // a byte order mark, the last BMP char, pairs, unpaired surrogates in a name, a run of Cyrillic), alone and among
    // plain chars in whole blocks and tails, escaped here as chars and as bytes, and by the writer as a value and as
    // a name. One text for all, so that the check makes few calls at first use.
    private static bool SelfTest()
    {
        Span<ushort> block = stackalloc ushort[BlockLength];
        Span<ushort> copied = stackalloc ushort[BlockLength];
        for (int c = 0; c < 128; c++)
        {
            block.Fill((ushort)c);
            bool writerEscapes = !IsPlain((ushort)c);
            if ((EscapeMask(Vector128.Create((ushort)c)) != 0) != writerEscapes
                || CopyBlock(ref MemoryMarshal.GetReference(block), ref MemoryMarshal.GetReference(copied)) != (writerEscapes ? 0xFFFFu : 0))
            {
                return false;
            }
        }

        // The samples in one text, apart (no two of them make a pair), each going through blocks, tails or both.
        const string Samples = "é\u00A0|\u2028Ж€|\uFEFF\uFFFF|a😀b|x\uD800y\uDC00|<'+&>\"\\`\u007F\n\u001F|"
            + "abcdefgh\u0080ijklmnop😀q\uDBFFrstuvwxyz0123456789<>|0123456789abcdefghijklmnopqrstu\"|"
            + "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
        Span<char> escaped = stackalloc char[Samples.Length * JsonConstants.MaxEscapedCharLength];
        Span<byte> ascii = stackalloc byte[Samples.Length * JsonConstants.MaxEscapedCharLength];
        string ours = escaped[..Escape(Samples, escaped, stopAtUnpairedSurrogate: false)].ToString();
        string oursAscii = System.Text.Encoding.ASCII.GetString(ascii[..EscapeToAscii(Samples, ascii, stopAtUnpairedSurrogate: false)]);
        return ours == oursAscii && ours == WriteWithWriter(Samples, propertyName: false) && ours == WriteWithWriter(Samples, propertyName: true);
    }

    // What a compact writer with the default encoder writes for text as a string value or as a property name, quotes
    // (and the name's colon) taken off.
    private static string WriteWithWriter(string text, bool propertyName)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { SkipValidation = true }))
        {
            if (propertyName)
            {
                writer.WritePropertyName(text);
            }
            else
            {
                writer.WriteStringValue(text);
            }
        }

        string written = System.Text.Encoding.UTF8.GetString(buffer.WrittenSpan);
        Debug.Assert(written.Length >= 2 && written[0] == '"', "a quoted string");
        int end = written.LastIndexOf('"');
        return written[1..end];
    }

    // What the writer writes for one ASCII char, six chars at most: as the two moves that store them as chars (64 and
    // 32 bits) and as bytes (32 and 16 bits), and how many there are.
    private readonly struct AsciiEscape
    {
        public readonly ulong Head;
        public readonly uint Tail;
        public readonly uint AsciiHead;
        public readonly ushort AsciiTail;
        public readonly int Length;

        private AsciiEscape(ReadOnlySpan<char> chars, int length)
        {
            Head = chars[0] | ((ulong)chars[1] << 16) | ((ulong)chars[2] << 32) | ((ulong)chars[3] << 48);
            Tail = chars[4] | ((uint)chars[5] << 16);
            AsciiHead = (byte)chars[0] | ((uint)(byte)chars[1] << 8) | ((uint)(byte)chars[2] << 16) | ((uint)(byte)chars[3] << 24);
            AsciiTail = (ushort)((byte)chars[4] | ((byte)chars[5] << 8));
            Length = length;
        }

        public static AsciiEscape Of(ReadOnlySpan<char> escape)
        {
            Debug.Assert(escape.Length is > 0 and <= JsonConstants.MaxEscapedCharLength, "one char, or an escape of up to six");
            Span<char> chars = stackalloc char[JsonConstants.MaxEscapedCharLength];
            chars.Clear();
            escape.CopyTo(chars);
            return new(chars, escape.Length);
        }
    }

    // A byte's two hex digits, as two chars in 32 bits and as two ASCII bytes in 16.
    private readonly struct HexPair(char high, char low)
    {
        public readonly uint Chars = high | ((uint)low << 16);
        public readonly ushort Ascii = (ushort)((byte)high | ((byte)low << 8));
    }
}
