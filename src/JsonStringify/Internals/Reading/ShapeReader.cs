using System.Runtime.CompilerServices;
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

    // Through the compiled table reader where it works: no JsString per key. Otherwise the public GetOwnProperties
    // lists the same entries in the same order.
    public override bool TryReadTable(ObjectInstance o, TableStack tables, out TableSegment segment)
    {
        if (o is not JsObject plain || !IsTable(plain))
        {
            segment = default;
            return false;
        }

        segment = JintInternals.TableReaderWorks ? JintInternals.ReadTable(plain, tables) : ReadTablePublic(plain, tables);
        return true;
    }

    /// <summary>What <see cref="JintInternals.ReadTable"/> reads, through the public GetOwnProperties (a JsString per key).</summary>
    public static TableSegment ReadTablePublic(JsObject plain, TableStack tables)
    {
        int read = 0;
        TableNameKinds kinds = TableNameKinds.None;
        foreach (KeyValuePair<JsValue, PropertyDescriptor> property in plain.GetOwnProperties())
        {
            if (property.Key.Type != Types.String)
            {
                continue;
            }

            string name = property.Key.ToString();
            kinds |= TableEntry.KindOf(name);
            if (property.Value.Enumerable)
            {
                tables.EnsureRoom(read + 1);
                tables.Entries[tables.Top + read] = new TableEntry { Name = name, Descriptor = property.Value };
                read++;
            }
        }

        return tables.Push(read, kinds);
    }

    public override bool HasNoOwnToJson(JsArray array) => JintInternals.HasOnlyElements(array) || base.HasNoOwnToJson(array);

    /// <summary>An element of a dense array that is present (not a hole): reading it runs no user code.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
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
