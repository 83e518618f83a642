using System.Globalization;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>ToString(index) as a property key, for the few places that need an array index as a string.</summary>
internal static class IndexKey
{
    private static readonly JsString[] s_small = CreateSmall(1024);

    public static JsString Create(ulong index) =>
        index < (ulong)s_small.Length ? s_small[index] : new JsString(index.ToString(CultureInfo.InvariantCulture));

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
