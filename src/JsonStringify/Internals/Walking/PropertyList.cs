using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// A replacer property list (JSON.stringify step 4.b), with what the walk works out from it: each key quoted once,
/// and for each hidden class met, the slot of each key. A serializer keeps the last one it built, and a later call
/// whose replacer array yields the same items reuses it, so a host that passes the same list call after call
/// allocates nothing for it.
/// </summary>
internal sealed class PropertyList
{
    // Layouts whose slots are remembered; past this many the map starts again, so that classes that come and go
    // cannot grow it without bound.
    private const int MaxRememberedLayouts = 1024;

    private readonly Dictionary<ShapeLayout, int[]> _slots = new(ReferenceEqualityComparer.Instance);

    /// <summary>
    /// Builds the list from the items read from the replacer array: duplicates are dropped, in order.
    /// </summary>
    public PropertyList(string[] items)
    {
        Items = items;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        var keys = new List<JsValue>(items.Length);
        var quoted = new List<string>(items.Length);
        foreach (string item in items)
        {
            if (seen.Add(item))
            {
                keys.Add(new JsString(item));
                quoted.Add(StringEscaper.Quote(item, ":"));
            }
        }

        Keys = keys;
        QuotedKeys = [.. quoted];
    }

    /// <summary>The items as read from the replacer array, duplicates included: what a later call compares.</summary>
    public string[] Items { get; }

    /// <summary>The keys, without duplicates, in order. Read-only.</summary>
    public List<JsValue> Keys { get; }

    /// <summary>The keys as JSON property names: quoted, escaped, and followed by ':'.</summary>
    public string[] QuotedKeys { get; }

    public int Count => QuotedKeys.Length;

    /// <summary>For each key, its slot in the hidden class with this layout, or -1 when the class lacks it.</summary>
    public int[] SlotsFor(ShapeLayout layout)
    {
        if (!_slots.TryGetValue(layout, out int[]? slots))
        {
            slots = new int[Keys.Count];
            for (int i = 0; i < slots.Length; i++)
            {
                slots[i] = Array.IndexOf(layout.Keys, Keys[i]);
            }

            if (_slots.Count == MaxRememberedLayouts)
            {
                _slots.Clear();
            }

            _slots[layout] = slots;
        }

        return slots;
    }
}
