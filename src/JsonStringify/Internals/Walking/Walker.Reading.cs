using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>The proof that reading a value runs no user code: hidden-class layouts, tables read ahead, the memo of
/// prototypes clean of toJSON, the epoch that user code moves, and the keys a prototype chain lacks.</summary>
internal sealed partial class Walker<TOutput>
{
    // Prototypes known, in this call, to have no toJSON anywhere on their chain. Only kept while no user code can
    // have run since they were checked: anything that might run user code empties it.
    private readonly ObjectInstance?[] _cleanPrototypes = new ObjectInstance?[4];

    private int _cleanPrototypeCount;

    // Counts the points after which user code may have run; a table object's descriptors, read when it was opened,
    // are used only while this has not moved.
    private int _epoch;

    // With a replacer property list, for a few prototypes: which listed keys the whole chain lacks, as worked out when
    // _epoch was at the entry's epoch. Once the epoch has moved, an entry is worked out again in its own array: a frame
    // that holds the array reads it only while the epoch is still the frame's own.
    private readonly AbsentKeysEntry[] _absentKeys = new AbsentKeysEntry[JsonConstants.AbsentKeysEntries];

    private int _nextAbsentEntry;

    // The properties of the table objects read and not yet closed.
    private readonly TableStack _tables = new();

    // Whether a table's read has the processor fetch its parts first (ReadAhead.After), and a large table row ahead its
    // first lines (see FarRowsDistance): once the output has passed LargeOutputChars. A smaller document is a graph of
    // Jint's objects of about a megabyte or less, which the calls after the first mostly find in the processor's
    // caches, and there the fetches cost more than they save; a larger one's tables are mostly read from memory.
    private bool FetchTablesAhead => _output.Length >= JsonConstants.LargeOutputChars;

    // A table object's properties, read when its toJSON lookup was proved empty, for OpenPureTable (or OpenObject) to
    // take if nothing has run since: the object (null when there is none), its segment, which is the top of the stack,
    // and the epoch at which it was read.
    private JsObject? _tableAheadOwner;
    private TableSegment _tableAhead;
    private int _tableAheadEpoch;

    // Hidden classes seen, direct-mapped by identity hash: each one's layout, or null when it is not usable (an
    // integer-like key, an accessor, a non-enumerable property). Documents use few classes, many times. The cache is
    // the serializer's, so it lives as long as its engine and serves call after call; a nested call on the same
    // serializer uses the walker's own, which is emptied after each call.
    private readonly ShapeCacheEntry[] _ownShapeCache = new ShapeCacheEntry[JsonConstants.ShapeCacheSize];

    private ShapeCacheEntry[]? _shapeCache;

    // True when looking up toJSON on o cannot find anything and cannot run user code: o is a hidden-class object or
    // an array with no own toJSON, and every prototype on its chain is an ordinary object with none either. Asked only
    // without a replacer function.
    private bool IsFreeOfToJson(ObjectInstance o)
    {
        if (o is JsArray array)
        {
            return IsPureArray(array);
        }

        return o is JsObject plain && (GetPureLayout(plain, out _) is not null || IsPureTable(plain));
    }

    // Whether a plain object in dictionary mode has no toJSON, own or on its (ordinary) prototype chain. Its table is
    // read now (which runs no user code) and kept for OpenPureTable, which comes next when the answer is yes.
    private bool IsPureTable(JsObject plain) =>
        _reader.IsTable(plain) && !ReadTableAhead(plain).HasToJson && IsPrototypeChainFreeOfToJson(plain.Prototype);

    // IsPureTable has found plain in dictionary mode: its table is read now and kept for the object's opening.
    private TableSegment ReadTableAhead(JsObject plain)
    {
        DropTableReadAhead();
        TableSegment table = _reader.ReadTable(plain, _tables, FetchTablesAhead);
        _tableAheadOwner = plain;
        _tableAhead = table;
        _tableAheadEpoch = _epoch;
        return table;
    }

    private void DropTableReadAhead()
    {
        if (_tableAheadOwner is not null)
        {
            _tableAheadOwner = null;
            _tables.PopTo(_tableAhead.Start);
        }
    }

    // For a plain object whose toJSON lookup provably finds nothing and runs no code (no replacer function, no property
    // list): its hidden class and layout, with which it can be opened straight away. Null otherwise. Only asked on a
    // pure walk.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ShapeLayout? GetPureLayout(JsObject o, out object? shape)
    {
        shape = _reader.GetShape(o);
        ShapeLayout? layout = shape is null ? null : GetLayout(shape);
        return IsPureLayout(o, layout) ? layout : null;
    }

    // Whether a descriptor is a plain data property, whose Value is the property's value: an accessor, or a descriptor
    // of another kind (lazy, or computed by the engine), is read through [[Get]] instead.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsPlainData(PropertyDescriptor descriptor) =>
        descriptor.GetType() == typeof(PropertyDescriptor) && descriptor.IsDataDescriptor();

    // Whether a plain object with this layout has no toJSON, own or on its (ordinary) prototype chain.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsPureLayout(JsObject o, [NotNullWhen(true)] ShapeLayout? layout) =>
        layout is not null && !layout.HasToJson && IsPrototypeChainFreeOfToJson(o.Prototype);

    // The layout of o's hidden class, or null when o has none that the walk can read slot by slot.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ShapeLayout? GetLayout(ObjectInstance o, out object? shape)
    {
        shape = _reader.GetShape(o);
        return shape is null ? null : GetLayout(shape);
    }

    // The cache is two-way set-associative: a class may sit in either entry of the pair its identity hash picks, the
    // one used last first.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ShapeLayout? GetLayout(object shape)
    {
        ref ShapeCacheEntry first = ref _shapeCache![(RuntimeHelpers.GetHashCode(shape) << 1) & (JsonConstants.ShapeCacheSize - 2)];
        return ReferenceEquals(first.Shape, shape) ? first.Layout : GetLayoutSlow(shape, ref first);
    }

    // The second entry of the pair, or else a new layout in the first one, the older one moving to the second.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ShapeLayout? GetLayoutSlow(object shape, ref ShapeCacheEntry first)
    {
        ref ShapeCacheEntry second = ref Unsafe.Add(ref first, 1);
        if (ReferenceEquals(second.Shape, shape))
        {
            return second.Layout;
        }

        ShapeLayout? layout = ValueReader.TryGetShapeKeys(shape, out JsValue[]? keys) ? ShapeLayout.For(keys!) : null;
        second = first;
        first = new ShapeCacheEntry(shape, layout);
        return layout;
    }

    // Most objects in a document share Object.prototype or Array.prototype, the first two remembered; they are checked
    // inline. Slots past the count are null, and a null prototype is never remembered.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsPrototypeChainFreeOfToJson(ObjectInstance? prototype) =>
        (prototype is not null && (ReferenceEquals(_cleanPrototypes[0], prototype) || ReferenceEquals(_cleanPrototypes[1], prototype)))
        || IsPrototypeChainFreeOfToJsonSlow(prototype);

    private bool IsPrototypeChainFreeOfToJsonSlow(ObjectInstance? prototype)
    {
        // A chain is clean where its rest is: the walk stops at a prototype already known to be clean.
        ObjectInstance? p = prototype;
        for (; p is not null && !IsRememberedClean(p); p = p.Prototype)
        {
            // Only prototypes whose own-property lookup is Jint's ordinary one: no proxy traps, no host code.
            if (!_types.IsOrdinaryPrototype(p) || HasOwnWithoutCode(p, JsonConstants.ToJson) != false)
            {
                return false;
            }
        }

        // Every prototype checked heads a clean chain too.
        for (ObjectInstance? q = prototype; q != p && _cleanPrototypeCount < _cleanPrototypes.Length; q = q!.Prototype)
        {
            // The memo is exactly ObjectInstance?[], so the covariant store check is not needed.
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(_cleanPrototypes), _cleanPrototypeCount++) = q;
        }

        return true;
    }

    private bool IsRememberedClean(ObjectInstance? prototype)
    {
        for (int i = 0; i < _cleanPrototypeCount; i++)
        {
            if (ReferenceEquals(_cleanPrototypes[i], prototype))
            {
                return true;
            }
        }

        return false;
    }

    // Whether an ordinary prototype has an own property, asked without running user code: a plain object in a hidden
    // class answers from its layout, since looking into it would run the factory of a lazy slot. Null when that cannot
    // be told: the class has an integer-like key, or the reader cannot see whether a plain object has a class at all.
    private bool? HasOwnWithoutCode(ObjectInstance prototype, JsValue key)
    {
        if (prototype is JsObject plain)
        {
            if (_reader.GetShape(plain) is { } shape)
            {
                ShapeLayout? layout = GetLayout(shape);
                return layout is null ? null : Array.IndexOf(layout.Keys, key) >= 0;
            }

            if (!_reader.IsTable(plain))
            {
                return null;
            }
        }

        return prototype.GetOwnProperty(key) != PropertyDescriptor.Undefined;
    }

    private void InvalidatePurity()
    {
        _epoch++;
        if (_cleanPrototypeCount != 0)
        {
            Array.Clear(_cleanPrototypes, 0, _cleanPrototypeCount);
            _cleanPrototypeCount = 0;
        }
    }

    // Whether value is a plain object (then with its hidden class and layout) or an array whose toJSON lookup provably
    // finds nothing and runs no code: SerializeJSONProperty steps 2-4 leave it as it is, and it can be opened at once.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool IsPure(ref Frame parent, JsValue value, out object? shape, out ShapeLayout? layout)
    {
        if (value is JsObject plain)
        {
            // Siblings mostly share a class (rows of a table, elements of a list): the parent remembers the last one.
            shape = _reader.GetShape(plain);
            if (shape is null)
            {
                // A table object: opened from the loop too, with no layout.
                layout = null;
                return IsPureTable(plain);
            }

            if (ReferenceEquals(shape, parent.ChildShape))
            {
                layout = parent.ChildLayout;
            }
            else
            {
                layout = GetLayout(shape);
                parent.ChildShape = shape;
                parent.ChildLayout = layout;
            }

            if (!IsPureLayout(plain, layout))
            {
                layout = null;
                return false;
            }

            return true;
        }

        shape = null;
        layout = null;
        return value is JsArray array && IsPureArray(array);
    }

    // Whether an array has no toJSON, own or on its (ordinary) prototype chain.
    private bool IsPureArray(JsArray array) =>
        _reader.HasNoOwnToJson(array) && IsPrototypeChainFreeOfToJson(array.Prototype);

    // Which keys of the property list no object on prototype's chain has: [[Get]] of such a key, on an object that
    // lacks it too, finds undefined and runs no code. Null when a prototype on the chain is not an ordinary object.
    private bool[]? AbsentKeys(ObjectInstance? prototype)
    {
        AbsentKeysEntry[] entries = _absentKeys;
        int found = -1;
        for (int i = 0; i < entries.Length; i++)
        {
            // An entry never filled (no array yet) stands for no prototype, not for a null one.
            if (ReferenceEquals(entries[i].Prototype, prototype) && entries[i].Keys is not null)
            {
                found = i;
                break;
            }
        }

        if (found >= 0 && entries[found].Epoch == _epoch)
        {
            return entries[found].Usable ? entries[found].Keys : null;
        }

        if (found < 0)
        {
            found = _nextAbsentEntry;
            _nextAbsentEntry = (_nextAbsentEntry + 1) % entries.Length;
        }

        ref AbsentKeysEntry entry = ref entries[found];
        int count = _propertyList!.Count;

        // An array still held by a frame opened at this epoch is left to it.
        bool[] absent = entry.Keys is { } keys && keys.Length >= count && entry.Epoch != _epoch ? keys : new bool[count];
        bool usable = true;
        absent.AsSpan(0, count).Fill(true);
        for (ObjectInstance? p = prototype; p is not null; p = p.Prototype)
        {
            // Stops before stepping past a proxy: its getPrototypeOf trap is user code that [[Get]] never runs.
            if (!_types.IsOrdinaryPrototype(p))
            {
                usable = false;
                break;
            }

            for (int i = 0; i < count; i++)
            {
                absent[i] = absent[i] && HasOwnWithoutCode(p, _propertyList.Keys[i]) == false;
            }
        }

        entry = new AbsentKeysEntry { Prototype = prototype, Keys = absent, Epoch = _epoch, Usable = usable };
        return usable ? absent : null;
    }

    // A table object: a plain object whose properties are in a table, so that looking one up runs no user code.
    private bool IsTable(ObjectInstance o) => o is JsObject plain && _reader.IsTable(plain);

    // The table read ahead for o while no user code has run since, or else a new read; it stays on the stack until o
    // closes.
    private bool TakeTable(ObjectInstance o, out TableSegment table)
    {
        if (ReferenceEquals(_tableAheadOwner, o) && _tableAheadEpoch == _epoch)
        {
            _tableAheadOwner = null;
            table = _tableAhead;
            return true;
        }

        DropTableReadAhead();
        if (o is JsObject plain && _reader.IsTable(plain))
        {
            table = _reader.ReadTable(plain, _tables, FetchTablesAhead);
            return true;
        }

        table = default;
        return false;
    }

    // For one prototype: which listed keys its chain lacks (Usable false when the chain has a non-ordinary object), as
    // worked out at Epoch.
    private struct AbsentKeysEntry
    {
        public ObjectInstance? Prototype;

        public bool[]? Keys;

        public int Epoch;

        public bool Usable;
    }
}
