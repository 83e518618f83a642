using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The enumerable own string-keyed properties of a table object (one whose properties Jint keeps in a property table
/// rather than a hidden class), read in one pass: names and descriptors in parallel arrays, in [[OwnPropertyKeys]]
/// order. A walker reuses its instances from object to object, so a read allocates nothing once they have grown.
/// </summary>
internal sealed class TableProperties
{
    private string[] _names = new string[16];
    private PropertyDescriptor[] _descriptors = new PropertyDescriptor[16];

    /// <summary>Whether the table has an own property named toJSON, enumerable or not, data or accessor.</summary>
    public bool HasToJson { get; private set; }

    /// <summary>How many properties were read.</summary>
    public int Count { get; private set; }

    /// <summary>How many properties the arrays hold without growing.</summary>
    public int Capacity => _names.Length;

    /// <summary>The names, <see cref="Count"/> of them, in [[OwnPropertyKeys]] order.</summary>
    public string[] Names => _names;

    /// <summary>The descriptor of each name, as the table holds it.</summary>
    public PropertyDescriptor[] Descriptors => _descriptors;

    /// <summary>
    /// Makes room for <paramref name="count"/> entries, keeping those already in the arrays. A reader writes raw
    /// entries into <see cref="Names"/> and <see cref="Descriptors"/>, then calls <see cref="Keep"/>.
    /// </summary>
    public void EnsureCapacity(int count)
    {
        if (count > _names.Length)
        {
            int size = Math.Max(count, _names.Length * 2);
            Array.Resize(ref _names, size);
            Array.Resize(ref _descriptors, size);
        }
    }

    /// <summary>
    /// Of the first <paramref name="read"/> entries a reader wrote, keeps the enumerable ones in order, then puts them
    /// in [[OwnPropertyKeys]] order: a table lists its keys in insertion order, and the spec puts array indices first,
    /// in ascending numeric order, and the other keys after them in table order.
    /// </summary>
    public void Keep(int read)
    {
        Debug.Assert(Count == 0 && read <= _names.Length, "Keep runs once, on entries a reader wrote into the arrays");
        int kept = 0;
        int indexCount = 0;

        // The arrays are exactly string[] and PropertyDescriptor[], so entries move without the covariant store check.
        ref string names = ref MemoryMarshal.GetArrayDataReference(_names);
        ref PropertyDescriptor descriptors = ref MemoryMarshal.GetArrayDataReference(_descriptors);
        bool hasToJson = false;
        for (int i = 0; i < read; i++)
        {
            string name = Unsafe.Add(ref names, i);
            hasToJson |= name == JsonConstants.ToJsonName;
            PropertyDescriptor descriptor = Unsafe.Add(ref descriptors, i);
            if (!descriptor.Enumerable)
            {
                continue;
            }

            Unsafe.Add(ref names, kept) = name;
            Unsafe.Add(ref descriptors, kept) = descriptor;
            kept++;
            if (IndexKey.IsArrayIndex(name, out _))
            {
                indexCount++;
            }
        }

        _names.AsSpan(kept, read - kept).Clear();
        _descriptors.AsSpan(kept, read - kept).Clear();
        Count = kept;
        HasToJson = hasToJson;
        if (indexCount != 0)
        {
            HoistIndices(indexCount);
        }
    }

    /// <summary>Drops the entries (so that nothing is pinned) and keeps the arrays.</summary>
    public void Clear()
    {
        _names.AsSpan(0, Count).Clear();
        _descriptors.AsSpan(0, Count).Clear();
        Count = 0;
        HasToJson = false;
    }

    // Moves the array-index keys to the front, sorted by index, and keeps the order of the others behind them. Keys
    // are unique, so the indices sort without ties.
    private void HoistIndices(int indexCount)
    {
        int count = Count;
        uint[] indices = ArrayPool<uint>.Shared.Rent(indexCount);
        int[] order = ArrayPool<int>.Shared.Rent(count);
        string[] names = ArrayPool<string>.Shared.Rent(count);
        PropertyDescriptor[] descriptors = ArrayPool<PropertyDescriptor>.Shared.Rent(count);
        int front = 0;
        int back = indexCount;
        for (int i = 0; i < count; i++)
        {
            if (IndexKey.IsArrayIndex(_names[i], out uint index))
            {
                indices[front] = index;
                order[front++] = i;
            }
            else
            {
                order[back++] = i;
            }
        }

        indices.AsSpan(0, indexCount).Sort(order.AsSpan(0, indexCount));
        _names.AsSpan(0, count).CopyTo(names);
        _descriptors.AsSpan(0, count).CopyTo(descriptors);
        for (int i = 0; i < count; i++)
        {
            _names[i] = names[order[i]];
            _descriptors[i] = descriptors[order[i]];
        }

        ArrayPool<uint>.Shared.Return(indices);
        ArrayPool<int>.Shared.Return(order);
        ArrayPool<string>.Shared.Return(names, clearArray: true);
        ArrayPool<PropertyDescriptor>.Shared.Return(descriptors, clearArray: true);
    }
}
