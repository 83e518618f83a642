using System.Runtime.CompilerServices;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// The property names of a hidden class, each already quoted and followed by ':', made once per class and kept as
/// long as the class lives. Rows of a table share their class, so each key is escaped once, not once per row.
/// </summary>
internal static class QuotedKeys
{
    private static readonly ConditionalWeakTable<JsValue[], string[]> s_cache = new();

    /// <summary>The quoted names for a hidden class's memoised key array (see <see cref="ValueReader.TryGetShape"/>).</summary>
    public static string[] For(JsValue[] keys) =>
        s_cache.TryGetValue(keys, out string[]? quoted) ? quoted : s_cache.GetValue(keys, Create);

    private static string[] Create(JsValue[] keys)
    {
        var quoted = new string[keys.Length];
        for (int i = 0; i < keys.Length; i++)
        {
            quoted[i] = StringEscaper.Quote(keys[i].ToString(), ":");
        }

        return quoted;
    }
}
