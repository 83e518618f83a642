using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace JsonStringify.Internals;

/// <summary>ECMA-262 QuoteJSONString: scan for what needs escaping, copy clean runs in bulk, escape the rest.</summary>
internal static class StringEscaper
{
    // Exactly what JSON.stringify escapes: '"', '\', controls below U+0020 (this set, all ASCII, which keeps the
    // vectorised search on its fastest path), and unpaired surrogates (searched for as a range).
    private static readonly SearchValues<char> s_asciiSpecial = SearchValues.Create(BuildAsciiSpecialChars());

    // Strings up to this length are checked and copied in one pass, 8 chars at a time; most JSON strings are this
    // short, and for them the two searches and the copy of the long path cost more than the chars themselves.
    private const int MaxShortLength = 64;

    /// <summary>
    /// Writes the escaped contents of <paramref name="value"/>, without quotes, into <paramref name="destination"/>,
    /// which must hold <see cref="JsonConstants.MaxEscapedCharLength"/> chars per char of the value. A high surrogate
    /// at the very end is escaped as unpaired, so callers cut long strings between the two halves of a pair.
    /// </summary>
    /// <returns>The number of chars written.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Escape(ReadOnlySpan<char> value, Span<char> destination)
    {
        int i;
        if (value.Length <= MaxShortLength)
        {
            i = CopyUntilSpecial(value, destination);
            if (i < 0)
            {
                return value.Length;
            }
        }
        else
        {
            i = IndexOfSpecial(value);
            if (i < 0)
            {
                value.CopyTo(destination);
                return value.Length;
            }
        }

        return EscapeFrom(value, destination, i);
    }

    /// <summary>The quoted JSON string for <paramref name="value"/>, followed by <paramref name="suffix"/>.</summary>
    public static string Quote(string value, string suffix)
    {
        var buffer = new char[(value.Length * JsonConstants.MaxEscapedCharLength) + 2 + suffix.Length];
        buffer[0] = '"';
        int w = 1 + Escape(value, buffer.AsSpan(1));
        buffer[w++] = '"';
        suffix.CopyTo(buffer.AsSpan(w));
        return new string(buffer, 0, w + suffix.Length);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static int IndexOfSpecial(ReadOnlySpan<char> value)
    {
        int ascii = value.IndexOfAny(s_asciiSpecial);
        int surrogate = (ascii < 0 ? value : value[..ascii]).IndexOfAnyInRange('\uD800', '\uDFFF');
        return surrogate >= 0 ? surrogate : ascii;
    }

    // Copies value into destination up to its first char that needs escaping, and returns that char's index (-1 when
    // there is none). Whole vectors are copied before they are checked, so chars from the special one on may have been
    // copied too; EscapeFrom writes over them.
    private static int CopyUntilSpecial(ReadOnlySpan<char> value, Span<char> destination)
    {
        if (destination.Length < value.Length)
        {
            throw new ArgumentException("The destination is too short.", nameof(destination));
        }

        ref ushort source = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(value));
        ref ushort target = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(destination));
        int length = value.Length;
        if (!Vector128.IsHardwareAccelerated || length < Vector128<ushort>.Count)
        {
            for (int k = 0; k < length; k++)
            {
                ushort c = Unsafe.Add(ref source, k);
                if (IsSpecial(c))
                {
                    return k;
                }

                Unsafe.Add(ref target, k) = c;
            }

            return -1;
        }

        int i = 0;
        int last = length - Vector128<ushort>.Count;
        while (true)
        {
            // The last vector ends at the end of the value and may overlap the one before: the chars they share were
            // found clean, so a special char found in it is the first.
            int at = Math.Min(i, last);
            Vector128<ushort> chars = Vector128.LoadUnsafe(ref source, (nuint)at);
            chars.StoreUnsafe(ref target, (nuint)at);
            Vector128<ushort> special =
                Vector128.LessThan(chars, Vector128.Create((ushort)' '))
                | Vector128.Equals(chars, Vector128.Create((ushort)'"'))
                | Vector128.Equals(chars, Vector128.Create((ushort)'\\'))
                | Vector128.LessThan(chars - Vector128.Create((ushort)0xD800), Vector128.Create((ushort)0x800));
            if (special != Vector128<ushort>.Zero)
            {
                return at + (int)uint.TrailingZeroCount(special.ExtractMostSignificantBits());
            }

            if (at == last)
            {
                return -1;
            }

            i += Vector128<ushort>.Count;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsSpecial(ushort c) => c < ' ' || c == '"' || c == '\\' || (uint)(c - 0xD800) < 0x800;

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int EscapeFrom(ReadOnlySpan<char> value, Span<char> destination, int i)
    {
        int w = 0;
        while (true)
        {
            value[..i].CopyTo(destination[w..]);
            w += i;
            char c = value[i];
            int consumed = 1;
            switch (c)
            {
                case '"':
                    w += WritePair(destination, w, '"');
                    break;
                case '\\':
                    w += WritePair(destination, w, '\\');
                    break;
                case '\b':
                    w += WritePair(destination, w, 'b');
                    break;
                case '\f':
                    w += WritePair(destination, w, 'f');
                    break;
                case '\n':
                    w += WritePair(destination, w, 'n');
                    break;
                case '\r':
                    w += WritePair(destination, w, 'r');
                    break;
                case '\t':
                    w += WritePair(destination, w, 't');
                    break;
                default:
                    if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
                    {
                        destination[w++] = c;
                        destination[w++] = value[i + 1];
                        consumed = 2;
                    }
                    else
                    {
                        w += WriteUnicodeEscape(destination, w, c);
                    }

                    break;
            }

            value = value[(i + consumed)..];
            i = IndexOfSpecial(value);
            if (i < 0)
            {
                value.CopyTo(destination[w..]);
                return w + value.Length;
            }
        }
    }

    private static int WritePair(Span<char> destination, int at, char escaped)
    {
        destination[at] = '\\';
        destination[at + 1] = escaped;
        return 2;
    }

    // \uXXXX with lowercase hex, as the spec's UnicodeEscape writes it.
    private static int WriteUnicodeEscape(Span<char> destination, int at, char c)
    {
        destination[at] = '\\';
        destination[at + 1] = 'u';
        ((int)c).TryFormat(destination.Slice(at + 2, 4), out _, "x4", null);
        return JsonConstants.MaxEscapedCharLength;
    }

    private static string BuildAsciiSpecialChars()
    {
        var chars = new char[' ' + 2];
        for (int c = 0; c < ' '; c++)
        {
            chars[c] = (char)c;
        }

        chars[' '] = '"';
        chars[' ' + 1] = '\\';
        return new string(chars);
    }
}
