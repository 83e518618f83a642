using System.Buffers;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Runtime.CompilerServices;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The enumerable own string-keyed properties of the table objects (those whose properties Jint keeps in a property
/// table rather than a hidden class) that a walk has read and not yet closed, as name and descriptor pairs on one
/// stack: each object's are a segment in [[OwnPropertyKeys]] order, pushed when it is read and popped when it closes.
/// Objects nest, so their segments do. A walker keeps its stack from call to call, so a read allocates nothing once the
/// stack has grown, and the references it held are cleared once per call rather than once per object.
/// </summary>
internal sealed class TableStack
{
    private const int InitialCapacity = 64;

    // The array the walker keeps from call to call; it grows by powers of two up to MaxRetainedTableCapacity.
    private TableEntry[] _owned;

    // The array in use: the owned one, or, once a walk needs more entries than the owned one may hold, one rented from
    // the shared pool, which Reset gives back. So a walker pins no large array, and a document with a very large table
    // object allocates nothing call after call.
    private TableEntry[] _entries;

    // The entries of the segments pushed and not popped.
    private int _top;

    // How far entries may have been written since the last Reset: the part that holds references.
    private int _written;

    // Made by Renew, so that Renew runs in the walker's first call: called for the first time in a later call (after a
    // collection), it would be compiled then, and any method compiled late in a process pauses the runtime's tiered
    // compilation for at least 100 ms, the walker's own optimisation included.
    public TableStack() => Renew();

    /// <summary>
    /// The array under the stack: a reader writes an object's entries into it from <see cref="Top"/> on, then calls
    /// <see cref="Push"/>. A read that grows the stack replaces it, so it is asked for again after every read.
    /// </summary>
    public TableEntry[] Entries => _entries;

    /// <summary>Where the next segment starts.</summary>
    public int Top => _top;

    /// <summary>How many entries fit above <see cref="Top"/> without growing.</summary>
    public int Room => _entries.Length - _top;

    /// <summary>Makes room for <paramref name="count"/> entries above the top, keeping those below it.</summary>
    public void EnsureRoom(int count)
    {
        if (count > Room)
        {
            Grow(_top + count);
        }
    }

    /// <summary>
    /// Takes the <paramref name="count"/> entries above the top, which a reader wrote there in table order, as one
    /// object's segment, and puts them in [[OwnPropertyKeys]] order: a table lists its keys in insertion order, and
    /// the spec puts array indices first, in ascending numeric order, and the other keys after them in table order.
    /// <paramref name="kinds"/> is what the reader saw of all the table's string keys, enumerable or not.
    /// </summary>
    public TableSegment Push(int count, TableNameKinds kinds)
    {
        Debug.Assert(count <= Room, "the reader wrote every entry it counted");
        int start = _top;
        _top += count;
        _written = Math.Max(_written, _top);
        if ((kinds & TableNameKinds.MaybeIndex) != 0)
        {
            HoistIndices(start, count);
        }

        return new TableSegment(start, count, (kinds & TableNameKinds.ToJson) != 0);
    }

    /// <summary>
    /// Pops every segment from <paramref name="start"/> up: the object that starts there has closed. Its entries keep
    /// their references until <see cref="Reset"/>, so the next object read there finds the names it shares with it.
    /// </summary>
    public void PopTo(int start)
    {
        Debug.Assert(start <= _top, "segments are popped in the order opposite to their pushes");
        _top = start;
    }

    /// <summary>
    /// Replaces the owned array with a new one of the same length (of <see cref="InitialCapacity"/> when the stack is
    /// made), between calls: see Walker.RenewAgedArrays.
    /// </summary>
    [MemberNotNull(nameof(_owned), nameof(_entries))]
    public void Renew()
    {
        Debug.Assert(ReferenceEquals(_entries, _owned) && _top == 0 && _written == 0, "between calls: the stack is empty");
        int length = _owned?.Length ?? InitialCapacity;
        Debug.Assert(
            length * Unsafe.SizeOf<TableEntry>() < JsonConstants.LargeObjectBytes, "an owned array is made in generation 0");
        _owned = new TableEntry[length];
        _entries = _owned;
    }

    /// <summary>
    /// Empties the stack and drops what it held, so that nothing is pinned; a rented array goes back to the pool.
    /// </summary>
    public void Reset()
    {
        _entries.AsSpan(0, _written).Clear();
        if (!ReferenceEquals(_entries, _owned))
        {
            ArrayPool<TableEntry>.Shared.Return(_entries);
            _entries = _owned;
        }

        _top = 0;
        _written = 0;
    }

    // Moves the stack to an array of at least `needed` entries. A reader may be part-way through an object, its entries
    // written above the top, so the whole old array is copied over (and counted as written), and an old array that is
    // kept as the owned one, or given back to the pool, is cleared whole.
    private void Grow(int needed)
    {
        Debug.Assert(needed > _entries.Length, "only a stack that is full grows");
        Debug.Assert(
            BitOperations.IsPow2(JsonConstants.MaxRetainedTableCapacity), "an owned array is never rounded past the bound");
        TableEntry[] old = _entries;
        TableEntry[] grown = needed <= JsonConstants.MaxRetainedTableCapacity
            ? new TableEntry[BitOperations.RoundUpToPowerOf2((uint)needed)]
            : ArrayPool<TableEntry>.Shared.Rent(needed);
        old.CopyTo(grown, 0);
        _written = old.Length;
        _entries = grown;
        if (ReferenceEquals(old, _owned) && grown.Length <= JsonConstants.MaxRetainedTableCapacity)
        {
            _owned = grown;
            return;
        }

        Array.Clear(old);
        if (!ReferenceEquals(old, _owned))
        {
            ArrayPool<TableEntry>.Shared.Return(old);
        }
    }

    // Moves the array-index keys of a segment to its front, sorted by index, and keeps the order of the others behind
    // them. Keys are unique, so the indices sort without ties.
    private void HoistIndices(int start, int count)
    {
        Span<TableEntry> segment = _entries.AsSpan(start, count);
        int indexCount = 0;
        foreach (ref TableEntry entry in segment)
        {
            if (IndexKey.IsArrayIndex(entry.Name, out _))
            {
                indexCount++;
            }
        }

        if (indexCount == 0)
        {
            return;
        }

        uint[] indices = ArrayPool<uint>.Shared.Rent(indexCount);
        int[] order = ArrayPool<int>.Shared.Rent(count);
        TableEntry[] copy = ArrayPool<TableEntry>.Shared.Rent(count);
        int front = 0;
        int back = indexCount;
        for (int i = 0; i < count; i++)
        {
            if (IndexKey.IsArrayIndex(segment[i].Name, out uint index))
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
        segment.CopyTo(copy);
        for (int i = 0; i < count; i++)
        {
            segment[i] = copy[order[i]];
        }

        ArrayPool<uint>.Shared.Return(indices);
        ArrayPool<int>.Shared.Return(order);
        ArrayPool<TableEntry>.Shared.Return(copy, clearArray: true);
    }
}

/// <summary>One object's properties on a <see cref="TableStack"/>.</summary>
/// <param name="Start">Where its entries start on the stack.</param>
/// <param name="Count">How many enumerable properties it has.</param>
/// <param name="HasToJson">Whether it has an own property named toJSON, enumerable or not, data or accessor.</param>
internal readonly record struct TableSegment(int Start, int Count, bool HasToJson);

/// <summary>What a table reader notes about the string keys it passes, enumerable or not.</summary>
[Flags]
internal enum TableNameKinds
{
    None = 0,

    /// <summary>A key is "toJSON".</summary>
    ToJson = 1,

    /// <summary>
    /// A key starts with a digit, so it may be an array index, which [[OwnPropertyKeys]] lists first.
    /// </summary>
    MaybeIndex = 2,
}

/// <summary>One property of a table object: its name and its descriptor, as the table holds it.</summary>
internal struct TableEntry
{
    public string Name;

    public PropertyDescriptor Descriptor;

    /// <summary>What <paramref name="name"/> is, of the kinds a reader notes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TableNameKinds KindOf(string name)
    {
        if (name.Length != 0 && char.IsAsciiDigit(name[0]))
        {
            return TableNameKinds.MaybeIndex;
        }

        return name.Length == JsonConstants.ToJsonName.Length && name == JsonConstants.ToJsonName ? TableNameKinds.ToJson : TableNameKinds.None;
    }
}
