using System.Runtime.CompilerServices;
using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// What the walk needs to know about a hidden class, worked out once per class and kept as long as its key array
/// lives: the keys in slot order, each name already quoted and followed by ':', and whether one of them is toJSON.
/// Rows of a table share their class, so each key is escaped once, not once per row.
/// </summary>
internal sealed class ShapeLayout
{
    private static readonly ConditionalWeakTable<JsValue[], ShapeLayout> s_cache = new();

    private ShapeLayout(JsValue[] keys)
    {
        Keys = keys;
        QuotedKeys = new string[keys.Length];
        for (int i = 0; i < keys.Length; i++)
        {
            QuotedKeys[i] = StringEscaper.Quote(keys[i].ToString(), ":");
        }

        HasToJson = Array.IndexOf(keys, JsonConstants.ToJson) >= 0;
    }

    /// <summary>The class's own keys, in slot order (which is also [[OwnPropertyKeys]] order).</summary>
    public JsValue[] Keys { get; }

    /// <summary>The keys as JSON property names: quoted, escaped, and followed by ':'.</summary>
    public string[] QuotedKeys { get; }

    /// <summary>Whether the class has an own property named toJSON.</summary>
    public bool HasToJson { get; }

    /// <summary>
    /// How many more objects of the class to open as frames at once, without first trying to write them whole as
    /// leaves (see Walker.OpenShapedValue): set after one turned out not to be a leaf, counted down as they open.
    /// </summary>
    /// <remarks>
    /// A hint only: it decides how an object is written, never what. Walks on other threads share the layout, and a
    /// count they overwrite or lose costs at most a few tries.
    /// </remarks>
    public int LeafTriesSkipped;

    /// <summary>
    /// The layout for a hidden class's memoised key array (see <see cref="ValueReader.TryGetShapeKeys"/>).
    /// </summary>
    public static ShapeLayout For(JsValue[] keys) =>
        s_cache.TryGetValue(keys, out ShapeLayout? layout) ? layout : s_cache.GetValue(keys, static k => new ShapeLayout(k));
}

/// <summary>
/// One slot of a walk's cache of hidden-class layouts: a class, and its layout or null when it is not usable.
/// </summary>
internal readonly struct ShapeCacheEntry(object shape, ShapeLayout? layout)
{
    public readonly object Shape = shape;

    public readonly ShapeLayout? Layout = layout;
}
