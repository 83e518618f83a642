using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;

namespace JsonStringify.Internals;

/// <summary>
/// The code units text is written in: UTF-16 chars, or UTF-8 bytes. ASCII, such as a number's text, is one unit per
/// char in both. A method generic over the unit is compiled once for chars and once for bytes, each test of the unit's
/// type folded away, so either copy runs only its own stores.
/// </summary>
internal static class TextUnit
{
    /// <summary>Whether <typeparamref name="TUnit"/> is a UTF-8 byte (otherwise it is a UTF-16 char).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool IsByte<TUnit>()
        where TUnit : unmanaged
    {
        Debug.Assert(typeof(TUnit) == typeof(byte) || typeof(TUnit) == typeof(char), "text is written in bytes or chars");
        return typeof(TUnit) == typeof(byte);
    }

    /// <summary>The unit of the ASCII char <paramref name="c"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TUnit Of<TUnit>(char c)
        where TUnit : unmanaged
    {
        Debug.Assert(char.IsAscii(c), "one unit in UTF-8 as in UTF-16");
        if (IsByte<TUnit>())
        {
            byte b = (byte)c;
            return Unsafe.As<byte, TUnit>(ref b);
        }

        return Unsafe.As<char, TUnit>(ref c);
    }

    /// <summary>The ASCII bytes of <paramref name="text"/>, the first in its lowest byte, as eight units from
    /// <paramref name="destination"/> on.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void StoreEight<TUnit>(ulong text, ref TUnit destination)
        where TUnit : unmanaged
    {
        if (IsByte<TUnit>())
        {
            Unsafe.WriteUnaligned(ref Unsafe.As<TUnit, byte>(ref destination), text);
            return;
        }

        Vector128.WidenLower(Vector128.CreateScalar(text).AsByte()).StoreUnsafe(ref Unsafe.As<TUnit, ushort>(ref destination));
    }

    /// <summary>The sixteen ASCII bytes of <paramref name="text"/> as sixteen units from <paramref name="destination"/>
    /// on.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void StoreSixteen<TUnit>(Vector128<byte> text, ref TUnit destination)
        where TUnit : unmanaged
    {
        if (IsByte<TUnit>())
        {
            text.StoreUnsafe(ref Unsafe.As<TUnit, byte>(ref destination));
            return;
        }

        ref ushort chars = ref Unsafe.As<TUnit, ushort>(ref destination);
        Vector128.WidenLower(text).StoreUnsafe(ref chars);
        Vector128.WidenUpper(text).StoreUnsafe(ref chars, (nuint)Vector128<ushort>.Count);
    }
}
