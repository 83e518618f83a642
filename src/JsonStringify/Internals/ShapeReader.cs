using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// Reads hidden-class objects and dense arrays through Jint's internals (see <see cref="JintInternals"/>). Used only
/// after the internals passed their self-test; everything else goes through the public reads it inherits.
/// </summary>
internal sealed class ShapeReader : ValueReader
{
    public static readonly ShapeReader Instance = new();

    private ShapeReader()
    {
    }

    // Stands for the layout of a plain object that has never had a property: it has no hidden class yet.
    private static readonly object s_virgin = new();

    public override object? GetShape(ObjectInstance o) => o is JsObject plain ? GetShape(plain) : null;

    /// <summary>The hidden class of a plain object, or null when it is in dictionary mode.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static object? GetShape(JsObject plain) =>
        JintInternals.ShapeOf(plain) ?? (JintInternals.IsVirginPlainObject(plain) ? s_virgin : null);

    public override bool TryGetShapeKeys(object shape, out JsValue[]? keys)
    {
        if (ReferenceEquals(shape, s_virgin))
        {
            keys = [];
            return true;
        }

        return JintInternals.TryGetOrderedKeyStrings(shape, out keys);
    }

    /// <summary>Whether a plain object keeps its properties in a table (dictionary mode), where looking one up runs no code.</summary>
    public static bool IsTable(JsObject plain) => GetShape(plain) is null;

    /// <summary>Whether <paramref name="o"/> still has the hidden class <paramref name="shape"/>.</summary>
    public static bool HasShape(ObjectInstance o, object shape) => o is JsObject plain && ReferenceEquals(GetShape(plain), shape);

    /// <summary>
    /// The value in slot <paramref name="slot"/> of an object that <see cref="HasShape"/>, or null when the slot is
    /// lazy: its factory is host code that may run scripts, so callers read it through [[Get]], as user code.
    /// </summary>
    public static JsValue? TryGetSlot(ObjectInstance o, int slot)
    {
        JsValue value = JintInternals.GetRawSlot(Unsafe.As<JsObject>(o), slot);
        return value is null || value.Type == Types.Empty ? null : value;
    }

    // A table lists its keys in insertion order; [[OwnPropertyKeys]] puts array indices first, in ascending numeric
    // order, and the other keys after them in table order. Keys are unique, so the indices sort without ties.
    public override bool TryGetTableProperties(ObjectInstance o, List<KeyValuePair<JsValue, PropertyDescriptor>> properties)
    {
        if (o is not JsObject plain || !IsTable(plain))
        {
            return false;
        }

        int indexCount = 0;
        foreach (KeyValuePair<JsValue, PropertyDescriptor> property in plain.GetOwnProperties())
        {
            if (property.Key.Type != Types.String || !property.Value.Enumerable)
            {
                continue;
            }

            properties.Add(property);
            if (IndexKey.IsArrayIndex(property.Key.ToString(), out _))
            {
                indexCount++;
            }
        }

        if (indexCount != 0)
        {
            HoistIndices(CollectionsMarshal.AsSpan(properties), indexCount);
        }

        return true;
    }

    // Moves the array-index keys to the front, sorted by index, and keeps the order of the others behind them.
    private static void HoistIndices(Span<KeyValuePair<JsValue, PropertyDescriptor>> properties, int indexCount)
    {
        KeyValuePair<JsValue, PropertyDescriptor>[] others = ArrayPool<KeyValuePair<JsValue, PropertyDescriptor>>.Shared.Rent(properties.Length - indexCount);
        uint[] indices = ArrayPool<uint>.Shared.Rent(indexCount);
        int front = 0;
        int back = 0;
        foreach (KeyValuePair<JsValue, PropertyDescriptor> property in properties)
        {
            if (IndexKey.IsArrayIndex(property.Key.ToString(), out uint index))
            {
                indices[front] = index;
                properties[front++] = property;
            }
            else
            {
                others[back++] = property;
            }
        }

        indices.AsSpan(0, indexCount).Sort(properties[..indexCount]);
        others.AsSpan(0, back).CopyTo(properties[indexCount..]);
        others.AsSpan(0, back).Clear();
        ArrayPool<KeyValuePair<JsValue, PropertyDescriptor>>.Shared.Return(others);
        ArrayPool<uint>.Shared.Return(indices);
    }

    public override bool HasNoOwnToJson(JsArray array) => JintInternals.HasOnlyElements(array) || base.HasNoOwnToJson(array);

    /// <summary>An element of a dense array that is present (not a hole): reading it runs no user code.</summary>
    public static bool TryGetDenseElement(ObjectInstance array, ulong index, out JsValue value)
    {
        if (array is JsArray jsArray && index < jsArray.Length)
        {
            JsValue?[]? dense = JintInternals.DenseElements(jsArray);
            if (dense is not null && index < (ulong)dense.Length && dense[index] is { } element)
            {
                value = element;
                return true;
            }
        }

        value = JsValue.Undefined;
        return false;
    }
}
