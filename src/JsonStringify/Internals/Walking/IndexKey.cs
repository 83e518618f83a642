using System.Globalization;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// Array indices as property keys: ToString(index) where one is needed as a string, and the test for one.
/// </summary>
internal static class IndexKey
{
    private static readonly JsString[] s_small = CreateSmall(1024);

    public static JsString Create(ulong index) =>
        index < (ulong)s_small.Length ? s_small[index] : new JsString(index.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// Whether <paramref name="name"/> is an array index: the canonical decimal form (no sign, no leading zero) of an
    /// integer below 2^32 - 1.
    /// </summary>
    public static bool IsArrayIndex(string name, out uint index)
    {
        index = 0;
        if (name.Length is 0 or > 10 || (name[0] == '0' && name.Length > 1))
        {
            return false;
        }

        ulong value = 0;
        foreach (char c in name)
        {
            uint digit = (uint)(c - '0');
            if (digit > 9)
            {
                return false;
            }

            value = (value * 10) + digit;
        }

        if (value >= uint.MaxValue)
        {
            return false;
        }

        index = (uint)value;
        return true;
    }

    private static JsString[] CreateSmall(int count)
    {
        var keys = new JsString[count];
        for (int i = 0; i < keys.Length; i++)
        {
            keys[i] = new JsString(i.ToString(CultureInfo.InvariantCulture));
        }

        return keys;
    }
}
