using System.Buffers;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The enumerable own string-keyed properties of a table object (one whose properties Jint keeps in a property table
/// rather than a hidden class), read in one pass: name and descriptor pairs, in [[OwnPropertyKeys]] order. A walker
/// reuses its instances from object to object, so a read allocates nothing once they have grown.
/// </summary>
internal sealed class TableProperties
{
    private TableEntry[] _entries = new TableEntry[16];

    /// <summary>Whether the table has an own property named toJSON, enumerable or not, data or accessor.</summary>
    public bool HasToJson { get; private set; }

    /// <summary>How many properties were read.</summary>
    public int Count { get; private set; }

    /// <summary>How many properties the array holds without growing.</summary>
    public int Capacity => _entries.Length;

    /// <summary>The properties, <see cref="Count"/> of them, in [[OwnPropertyKeys]] order.</summary>
    /// <remarks>An array of structs, not two arrays of references: a reader's stores need no covariance check.</remarks>
    public TableEntry[] Entries => _entries;

    /// <summary>
    /// Makes room for <paramref name="count"/> entries, keeping those already in the array. A reader writes raw
    /// entries into <see cref="Entries"/>, then calls <see cref="Keep"/>.
    /// </summary>
    public void EnsureCapacity(int count)
    {
        if (count > _entries.Length)
        {
            Array.Resize(ref _entries, Math.Max(count, _entries.Length * 2));
        }
    }

    /// <summary>
    /// Of the first <paramref name="read"/> entries a reader wrote, keeps the enumerable ones in order, then puts them
    /// in [[OwnPropertyKeys]] order: a table lists its keys in insertion order, and the spec puts array indices first,
    /// in ascending numeric order, and the other keys after them in table order.
    /// </summary>
    public void Keep(int read)
    {
        Debug.Assert(Count == 0 && read <= _entries.Length, "Keep runs once, on entries a reader wrote into the array");
        int kept = 0;
        int indexCount = 0;
        ref TableEntry entries = ref MemoryMarshal.GetArrayDataReference(_entries);
        bool hasToJson = false;
        for (int i = 0; i < read; i++)
        {
            ref TableEntry entry = ref Unsafe.Add(ref entries, i);
            hasToJson |= entry.Name == JsonConstants.ToJsonName;
            if (!entry.Descriptor.Enumerable)
            {
                continue;
            }

            if (kept != i)
            {
                Unsafe.Add(ref entries, kept) = entry;
            }

            if (IndexKey.IsArrayIndex(entry.Name, out _))
            {
                indexCount++;
            }

            kept++;
        }

        _entries.AsSpan(kept, read - kept).Clear();
        Count = kept;
        HasToJson = hasToJson;
        if (indexCount != 0)
        {
            HoistIndices(indexCount);
        }
    }

    /// <summary>Drops the entries (so that nothing is pinned) and keeps the array.</summary>
    public void Clear()
    {
        _entries.AsSpan(0, Count).Clear();
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
        TableEntry[] entries = ArrayPool<TableEntry>.Shared.Rent(count);
        int front = 0;
        int back = indexCount;
        for (int i = 0; i < count; i++)
        {
            if (IndexKey.IsArrayIndex(_entries[i].Name, out uint index))
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
        _entries.AsSpan(0, count).CopyTo(entries);
        for (int i = 0; i < count; i++)
        {
            _entries[i] = entries[order[i]];
        }

        ArrayPool<uint>.Shared.Return(indices);
        ArrayPool<int>.Shared.Return(order);
        ArrayPool<TableEntry>.Shared.Return(entries, clearArray: true);
    }
}

/// <summary>One property of a table object: its name and its descriptor, as the table holds it.</summary>
internal struct TableEntry
{
    public string Name;

    public PropertyDescriptor Descriptor;
}
