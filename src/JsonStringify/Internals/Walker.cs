using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// ECMA-262 SerializeJSONProperty, SerializeJSONObject and SerializeJSONArray: the only place that knows the
/// algorithm, the order of its observable steps, and when user code (toJSON, the replacer) runs. One walker serves
/// one call; it is rented from a pool, so a nested JSON.stringify gets a walker and buffers of its own.
/// </summary>
internal sealed class Walker
{
    private static readonly JsString s_rawJson = new("rawJSON");

    private readonly JsonWriter _writer = new();

    // The spec's stack of open containers: one frame per container, with where the walk is in it. The walk loops
    // over these instead of recursing, so nesting is bounded by MaxDepth and memory, never by the thread's stack.
    private Frame[] _frames = new Frame[16];
    private HashSet<ObjectInstance>? _deepStack;
    private int _depth;

    // Frames are not cleared when their container closes: each kind of frame sets what it reads when it starts, and
    // the frames used by a call are cleared when it ends, so that a pooled walker pins nothing.
    private int _framesUsed;
    private int _maxDepth;

    // Work since the engine's constraints (timeout, cancellation, memory, statements) were last checked.
    private int _itemsSinceCheck;
    private long _lengthAtCheck;

    // The output length at which CheckWork must run next: the next constraint check, or just past MaxLength.
    private long _nextCheckLength;
    private long _lengthLimit;

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

    // Emptied property lists of table objects, for reuse.
    private readonly Stack<List<KeyValuePair<JsValue, PropertyDescriptor>>> _spareTables = new();

    // Hidden classes seen, direct-mapped by identity hash: each one's layout, or null when it is not usable (an
    // integer-like key, an accessor, a non-enumerable property). Documents use few classes, many times. The cache is
    // the serializer's, so it lives as long as its engine and serves call after call; a nested call on the same
    // serializer uses the walker's own, which is emptied after each call.
    private readonly ShapeCacheEntry[] _ownShapeCache = new ShapeCacheEntry[JsonConstants.ShapeCacheSize];
    private ShapeCacheEntry[]? _shapeCache;

    // The argument lists of toJSON and replacer calls, refilled for each call as Jint's own serializer does: a called
    // function copies what it keeps (its parameters, its arguments object), and a nested JSON.stringify has a walker
    // of its own. Reset fills them with undefined, so that a pooled walker pins no values.
    private readonly JsValue[] _oneArgument = new JsValue[1];
    private readonly JsValue[] _twoArguments = new JsValue[2];

    private Engine _engine = null!;
    private JsonSerializer _owner = null!;
    private ValueReader _reader = PublicReader.Instance;
    private EngineTypes _types = null!;
    private bool _pure;
    private bool _pureShapes;
    private bool _shapeReads;
    private bool _internalCalls;
    private JsValue? _replacer;
    private PropertyList? _propertyList;
    private Options.SerializeToJsonDelegate? _hostSerializer;
    private string _gap = string.Empty;

    private enum FrameKind
    {
        Array,
        ShapedObject,
        ListedObject,
        TableObject,
        KeyedObject,
    }

    /// <summary>How deep the cycle stack grew; a walker that grew very deep is not kept by the pool.</summary>
    public int StackCapacity => _frames.Length;

    /// <summary>The sinks this walker can write to; each is reused by the calls that rent the walker.</summary>
    public StringBuilderSink StringSink { get; } = new();

    public BufferWriterSink BufferWriterSink { get; } = new();

    public ChunkSink ChunkSink { get; } = new();

    public TextWriterSink TextWriterSink { get; } = new();

    public void Start(
        JsonSerializer owner,
        OutputSink output,
        JsValue? replacer,
        PropertyList? propertyList,
        string gap,
        long maxLength,
        int maxDepth)
    {
        _owner = owner;
        _engine = owner.Engine;
        _reader = owner.Reader;
        _shapeReads = _reader is ShapeReader;
        _shapeCache = owner.RentShapeCache() ?? _ownShapeCache;

        // Without a replacer function, values that cannot run user code skip the toJSON lookup.
        _pure = replacer is null && _reader != PublicReader.Instance;
        _pureShapes = _pure && propertyList is null;
        _internalCalls = _reader != PublicReader.Instance && JintInternals.CallAccessorWorks;
        _types = EngineTypes.Instance;
        _replacer = replacer;
        _propertyList = propertyList;
        _hostSerializer = owner.HostSerializer;
        _gap = gap;
        _maxDepth = maxDepth;
        _itemsSinceCheck = 0;
        _lengthAtCheck = 0;
        _lengthLimit = maxLength;
        _nextCheckLength = NextCheckLength();
        _writer.Start(output, gap, maxLength);
    }

    /// <summary>Drops every reference the call took, so that a pooled walker pins no engine or output.</summary>
    public void Reset()
    {
        if (_shapeCache == _ownShapeCache)
        {
            Array.Clear(_ownShapeCache);
        }
        else if (_shapeCache is not null)
        {
            _owner.ReturnShapeCache(_shapeCache);
        }

        _shapeCache = null;
        Array.Clear(_frames, 0, _framesUsed);
        _framesUsed = 0;

        _deepStack?.Clear();
        _depth = 0;
        _engine = null!;
        _owner = null!;
        _types = null!;
        _reader = PublicReader.Instance;
        InvalidatePurity();
        Arguments(_oneArgument, JsValue.Undefined);
        Arguments(_twoArguments, JsValue.Undefined, JsValue.Undefined);
        _replacer = null;
        _propertyList = null;
        for (int i = 0; i < _absentKeys.Length; i++)
        {
            _absentKeys[i].Prototype = null;
        }

        _hostSerializer = null;
        _gap = string.Empty;
        _writer.Reset();
        StringSink.Release();
        BufferWriterSink.Release();
        ChunkSink.Release();
        TextWriterSink.Release();
    }

    /// <summary>SerializeJSONProperty for the root; false when the value has no JSON form.</summary>
    public bool SerializeRoot(JsValue value)
    {
        // The walk does not recurse, but a toJSON or replacer that calls JSON.stringify again does, through the engine.
        if (!RuntimeHelpers.TryEnsureSufficientExecutionStack())
        {
            Throw.StackOverflow(_engine);
        }

        // The wrapper {"": value} is observable only as the replacer's this, so it exists only for a replacer.
        JsValue holder = JsValue.Undefined;
        if (_replacer is not null)
        {
            var wrapper = new JsObject(_engine);
            wrapper.CreateDataProperty(JsString.Empty, value);
            holder = wrapper;
        }

        value = Prepare(value, holder, JsString.Empty, 0);
        if (!IsSerializable(value))
        {
            return false;
        }

        WriteValue(value);
        Run();
        CheckLength();
        _writer.Complete();
        return true;
    }

    // SerializeJSONProperty steps 2-4: toJSON, the replacer, then unwrapping of boxed primitives. The key is made
    // only when user code needs it: for array elements it is the index, turned into a string on demand.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private JsValue Prepare(JsValue value, JsValue holder, JsValue? key, ulong index)
    {
        if (_replacer is null)
        {
            if (value.Type != Types.Object && value.Type != Types.BigInt)
            {
                return value;
            }

            if (_pure && value is ObjectInstance o && IsFreeOfToJson(o))
            {
                return value;
            }
        }

        return PrepareSlow(value, holder, key, index);
    }

    private JsValue PrepareSlow(JsValue value, JsValue holder, JsValue? key, ulong index)
    {
        // The toJSON lookup, the calls and the unboxing below may all run user code: the memo of clean prototypes is
        // dropped once they are done, before anything can consult it again.
        if (value.Type is Types.Object or Types.BigInt)
        {
            JsValue toJson = GetToJson(value);
            if (toJson.IsCallable())
            {
                key ??= IndexKey.Create(index);
                value = Call(toJson, value, Arguments(_oneArgument, key));
            }
        }

        if (_replacer is not null)
        {
            key ??= IndexKey.Create(index);
            value = Call(_replacer, holder, Arguments(_twoArguments, key, value));
        }

        value = value is ObjectInstance o ? Unbox(o) : value;
        InvalidatePurity();
        return value;
    }

    // The lists are exactly JsValue[] (never an array of a derived type), so they are filled without the covariant
    // store check that an indexer assignment makes.
    private static JsValue[] Arguments(JsValue[] list, JsValue first)
    {
        MemoryMarshal.GetArrayDataReference(list) = first;
        return list;
    }

    private static JsValue[] Arguments(JsValue[] list, JsValue first, JsValue second)
    {
        ref JsValue start = ref MemoryMarshal.GetArrayDataReference(list);
        start = first;
        Unsafe.Add(ref start, 1) = second;
        return list;
    }

    // Through the engine's internal call when the fast path is on, as Jint's serializer calls: the public Engine.Call
    // allocates a closure per call and, from host code, restarts the engine's constraints each time (the public path
    // runs the whole walk inside one engine-level call, so that its calls are nested: see JsonSerializer.Entry.cs).
    private JsValue Call(JsValue callable, JsValue thisObject, JsValue[] arguments) =>
        _internalCalls ? JintInternals.Call(_engine, callable, thisObject, arguments) : _engine.Call(callable, thisObject, arguments);

    // True when looking up toJSON on o cannot find anything and cannot run user code: o is a hidden-class object or
    // an array with no own toJSON, and every prototype on its chain is an ordinary object with none either. Only asked
    // on a pure walk, which only the ShapeReader makes.
    private bool IsFreeOfToJson(ObjectInstance o)
    {
        if (o is JsArray array)
        {
            return IsPureArray(array);
        }

        return o is JsObject plain && GetPureLayout(plain, out _) is not null;
    }

    // For a plain object whose toJSON lookup provably finds nothing and runs no code (no replacer function, no property
    // list): its hidden class and layout, with which it can be opened straight away. Null otherwise. Only asked on a
    // pure walk.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ShapeLayout? GetPureLayout(JsObject o, out object? shape)
    {
        shape = ShapeReader.GetShape(o);
        ShapeLayout? layout = shape is null ? null : GetLayout(shape);
        return IsPureLayout(o, layout) ? layout : null;
    }

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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ShapeLayout? GetLayout(object shape)
    {
        ref ShapeCacheEntry entry = ref _shapeCache![RuntimeHelpers.GetHashCode(shape) & (JsonConstants.ShapeCacheSize - 1)];
        return ReferenceEquals(entry.Shape, shape) ? entry.Layout : AddLayout(shape, ref entry);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private ShapeLayout? AddLayout(object shape, ref ShapeCacheEntry entry)
    {
        ShapeLayout? layout = _reader.TryGetShapeKeys(shape, out JsValue[]? keys) ? ShapeLayout.For(keys!) : null;
        entry = new ShapeCacheEntry(shape, layout);
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
    // class answers from its layout, since looking into it would run the factory of a lazy slot. Null when the class
    // cannot tell (an integer-like key); only the ShapeReader has classes.
    private bool? HasOwnWithoutCode(ObjectInstance prototype, JsValue key)
    {
        if (_shapeReads && prototype is JsObject plain && ShapeReader.GetShape(plain) is { } shape)
        {
            ShapeLayout? layout = GetLayout(shape);
            return layout is null ? null : Array.IndexOf(layout.Keys, key) >= 0;
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

    // GetV(value, "toJSON"): a BigInt primitive reads it from a wrapper, with the primitive as the receiver.
    private JsValue GetToJson(JsValue value)
    {
        if (value is ObjectInstance o)
        {
            return o.Get(JsonConstants.ToJson, o);
        }

        // Object(value) as a call is ToObject; Jint's [[Construct]] of Object does not wrap BigInts.
        var wrapper = (ObjectInstance)Call(_engine.Intrinsics.Object, JsValue.Undefined, [value]);
        return wrapper.Get(JsonConstants.ToJson, value);
    }

    // SerializeJSONProperty step 4: ToNumber and ToString are observable (valueOf, toString); the others are not.
    private static JsValue Unbox(ObjectInstance o)
    {
        if (o is not IJsPrimitive boxed)
        {
            return o;
        }

        return boxed.Type switch
        {
            Types.Number => JsNumber.Create(TypeConverter.ToNumber(o)),
            Types.String => new JsString(TypeConverter.ToString(o)),
            Types.Boolean or Types.BigInt => boxed.PrimitiveValue,
            _ => o,
        };
    }

    private static bool IsSerializable(JsValue value) => value.Type switch
    {
        Types.Undefined or Types.Symbol => false,
        Types.Object => value is JsObject or JsArray || !value.IsCallable(),
        _ => true,
    };

    // SerializeJSONProperty steps 5-11, for a value that IsSerializable: a primitive is written at once, an object
    // is opened, and Run writes its contents.
    private void WriteValue(JsValue value)
    {
        Types type = value.Type;
        if (IsJsonPrimitive(type))
        {
            WritePrimitive(value, type);
        }
        else if (type == Types.BigInt)
        {
            Throw.BigIntNotSerializable(_engine);
        }
        else
        {
            Open((ObjectInstance)value);
        }
    }

    // Null, booleans, strings and numbers: values that SerializeJSONProperty writes as they are when there is no
    // replacer function (toJSON and unboxing only concern objects and BigInts).
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool IsJsonPrimitive(Types type) => type is Types.Null or Types.Boolean or Types.String or Types.Number;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WritePrimitive(JsValue value, Types type)
    {
        if (type == Types.String)
        {
            _writer.WriteString(value.ToString());
        }
        else if (type == Types.Number)
        {
            _writer.WriteNumber(value.AsNumber());
        }
        else if (type == Types.Boolean)
        {
            _writer.WriteBoolean(value.AsBoolean());
        }
        else
        {
            _writer.WriteNull();
        }
    }

    private void Open(ObjectInstance o)
    {
        // The common cases first: plain objects and arrays are never raw JSON, proxies or host objects.
        if (o is JsObject)
        {
            OpenObject(o);
            return;
        }

        if (o is JsArray)
        {
            OpenArray(o);
            return;
        }

        if (o.GetType() == _types.RawJson)
        {
            _writer.WriteRaw(TypeConverter.ToString(o.Get(s_rawJson, o)));
            return;
        }

        if (_owner.IsArray(o) || HostObjects.IsArrayLike(o))
        {
            OpenArray(o);
            return;
        }

        if (o is IObjectWrapper wrapper && _hostSerializer is not null)
        {
            WriteHostJson(wrapper);
            return;
        }

        OpenObject(o);
    }

    // Jint's Options.Interop.SerializeToJson: the host writes wrapped CLR objects itself, given the gap and the
    // indentation of the current line (null at the root and in compact output, as Jint passes it).
    private void WriteHostJson(IObjectWrapper wrapper)
    {
        string? indent = _writer.Depth == 0 || _gap.Length == 0 ? null : string.Concat(Enumerable.Repeat(_gap, _writer.Depth));
        string? json = _hostSerializer!(wrapper.Target, _gap, indent);
        InvalidatePurity();
        if (!string.IsNullOrEmpty(json))
        {
            _writer.WriteRaw(json);
        }
    }

    // SerializeJSONObject steps 1-5: the cycle check, then the keys (a hidden class's own, the property list, or
    // EnumerableOwnProperties).
    private void OpenObject(ObjectInstance o)
    {
        Enter(o);
        _writer.StartObject();
        ShapeLayout? layout = GetLayout(o, out object? shape);
        ref Frame frame = ref _frames[_depth - 1];
        if (_propertyList is null && layout is not null)
        {
            StartShapedObject(ref frame, shape!, layout);
        }
        else if (_propertyList is not null && (layout is not null || IsTable(o)))
        {
            // A hidden-class object is read slot by slot, a table object by looking up each listed key in its table.
            frame.Start(FrameKind.ListedObject, (ulong)_propertyList.Count);
            frame.Shape = shape;
            frame.Slots = layout is null ? null : _propertyList.SlotsFor(layout);
            frame.AbsentKeys = AbsentKeys(o.Prototype);
            frame.Epoch = _epoch;
        }
        else if (_propertyList is null && TryGetTableProperties(o) is { } properties)
        {
            frame.Start(FrameKind.TableObject, (ulong)properties.Count);
            frame.Properties = properties;
            frame.Epoch = _epoch;
        }
        else
        {
            // A proxy's ownKeys and getOwnPropertyDescriptor traps run here.
            List<JsValue> list;
            if (_propertyList is not null)
            {
                list = _propertyList.Keys;
            }
            else
            {
                list = _reader.GetEnumerableOwnKeys(o);
                InvalidatePurity();
            }

            frame.Start(FrameKind.KeyedObject, (ulong)list.Count);
            frame.Keys = list;
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
            shape = ShapeReader.GetShape(plain);
            if (shape is null)
            {
                layout = null;
                return false;
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
        ShapeReader.Instance.HasNoOwnToJson(array) && IsPrototypeChainFreeOfToJson(array.Prototype);

    // Opens what IsPure accepted; false when there was nothing to open: an empty array is written whole, after the
    // same depth and cycle checks that opening it would make (it may be on the stack, emptied by a toJSON).
    private bool OpenPure(JsValue value, object? shape, ShapeLayout? layout)
    {
        if (layout is not null)
        {
            OpenShapedObject(Unsafe.As<JsObject>(value), shape!, layout);
            return true;
        }

        var array = Unsafe.As<JsArray>(value);
        if (array.Length != 0)
        {
            OpenArray(array);
            return true;
        }

        CheckEnter(array);
        _writer.WriteEmptyArray();
        return false;
    }

    // OpenObject for an object already known to have a usable hidden class, and no property list.
    private void OpenShapedObject(JsObject o, object shape, ShapeLayout layout)
    {
        Enter(o);
        _writer.StartObject();
        StartShapedObject(ref _frames[_depth - 1], shape, layout);
    }

    private static void StartShapedObject(ref Frame frame, object shape, ShapeLayout layout)
    {
        frame.Start(FrameKind.ShapedObject, (ulong)layout.Keys.Length);
        frame.Shape = shape;
        frame.Layout = layout;
    }

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
    private bool IsTable(ObjectInstance o) => _shapeReads && o is JsObject plain && ShapeReader.IsTable(plain);

    private List<KeyValuePair<JsValue, PropertyDescriptor>>? TryGetTableProperties(ObjectInstance o)
    {
        List<KeyValuePair<JsValue, PropertyDescriptor>> properties = _spareTables.TryPop(out var spare) ? spare : [];
        if (_reader.TryGetTableProperties(o, properties))
        {
            return properties;
        }

        _spareTables.Push(properties);
        return null;
    }

    // SerializeJSONArray steps 1-5: the cycle check, then LengthOfArrayLike.
    private void OpenArray(ObjectInstance array)
    {
        Enter(array);
        ulong length = _reader.GetLength(array);
        if (array is not JsArray)
        {
            // A proxy's get trap ran for "length".
            InvalidatePurity();
        }

        _writer.StartArray();
        _frames[_depth - 1].Start(FrameKind.Array, length);
    }

    // The rest of SerializeJSONObject and SerializeJSONArray, for every open container, innermost first.
    private void Run()
    {
        while (_depth > 0)
        {
            ref Frame frame = ref _frames[_depth - 1];
            if (frame.Index == frame.Count)
            {
                Close(ref frame);
                continue;
            }

            if (frame.Kind == FrameKind.Array)
            {
                RunArray(ref frame);
                continue;
            }

            if (frame.Kind == FrameKind.ShapedObject)
            {
                RunShapedObject(ref frame);
                continue;
            }

            ObjectInstance container = frame.Container!;
            ulong i = frame.Index++;
            JsValue key;
            JsValue value;
            string? quotedName = null;
            if (frame.Kind == FrameKind.ListedObject)
            {
                // A listed key the object has is read from its slot (unless the slot is lazy) or its table entry
                // (unless it is an accessor); one it lacks, with a clean prototype chain and no user code run since
                // the object was opened, is undefined without a lookup. Otherwise (found on the prototype chain,
                // perhaps as a getter, or the object changed) [[Get]] reads it.
                key = _propertyList!.Keys[(int)i];
                quotedName = _propertyList.QuotedKeys[i];

                // The value, when reading it runs no code; null when [[Get]] must read it.
                JsValue? read;
                bool lacksKey;
                if (frame.Slots is { } slots)
                {
                    int slot = slots[i];
                    lacksKey = slot < 0;
                    read = slot >= 0 && ShapeReader.HasShape(container, frame.Shape!) ? ShapeReader.TryGetSlot(container, slot) : null;
                }
                else
                {
                    PropertyDescriptor? own = ShapeReader.IsTable(Unsafe.As<JsObject>(container)) ? container.GetOwnProperty(key) : null;
                    lacksKey = own == PropertyDescriptor.Undefined;
                    read = own is not null && own.GetType() == typeof(PropertyDescriptor) && own.IsDataDescriptor() ? own.Value : null;
                }

                if (lacksKey && frame.Epoch == _epoch && frame.AbsentKeys is { } absent && absent[i])
                {
                    continue;
                }

                value = read ?? GetObserved(container, key);
            }
            else if (frame.Kind == FrameKind.TableObject)
            {
                // The descriptor read at the start is the property itself while no user code has run since; after
                // that, and for accessors, [[Get]] reads it.
                (key, PropertyDescriptor descriptor) = frame.Properties![(int)i];
                value = frame.Epoch == _epoch && descriptor.GetType() == typeof(PropertyDescriptor) && descriptor.IsDataDescriptor()
                    ? descriptor.Value
                    : GetObserved(container, key);
            }
            else
            {
                key = frame.Keys![(int)i];
                quotedName = _propertyList?.QuotedKeys[i];
                value = GetObserved(container, key);
            }

            value = Prepare(value, container, key, 0);
            if (!IsSerializable(value))
            {
                continue;
            }

            if (quotedName is not null)
            {
                WriteName(ref frame, quotedName);
            }
            else
            {
                _writer.WritePropertyName(key.ToString(), frame.Empty);
                frame.Empty = false;
            }

            // May open a container, which pushes a frame (and may move the frames): frame is not used after this.
            WriteValue(value);
            CountWork();
        }
    }

    // The rest of an array, element by element, until it ends or an element opens a container (which pushes a frame
    // and may move the frames, so frame is not used after that).
    private void RunArray(ref Frame frame)
    {
        ObjectInstance container = frame.Container!;
        while (frame.Index < frame.Count)
        {
            ulong i = frame.Index++;
            _writer.WriteSeparator(i == 0);

            // Only the ShapeReader reads dense element storage; every other element goes through [[Get]].
            JsValue value;
            if (!(_shapeReads && ShapeReader.TryGetDenseElement(container, i, out value)))
            {
                value = _reader.GetElement(container, i);

                // A hole reads the prototype chain, and other arrays may have getters or traps.
                InvalidatePurity();
            }
            else if (_pureShapes && IsPure(ref frame, value, out object? shape, out ShapeLayout? layout))
            {
                bool opened = OpenPure(value, shape, layout);
                CountWork();
                if (opened)
                {
                    return;
                }

                continue;
            }

            Types type = value.Type;
            if (_replacer is null && IsJsonPrimitive(type))
            {
                WritePrimitive(value, type);
                CountWork();
                continue;
            }

            value = Prepare(value, container, null, i);
            if (!IsSerializable(value))
            {
                _writer.WriteNull();
                continue;
            }

            bool opens = value.Type == Types.Object;
            WriteValue(value);
            CountWork();
            if (opens)
            {
                return;
            }
        }
    }

    // The rest of a hidden-class object, as RunArray does. While the object keeps its hidden class each value is read
    // from its slot, which is exactly [[Get]] there; if user code changed the object mid-walk, the rest goes through
    // [[Get]], and so does a lazy slot, whose factory may run scripts. The class is checked before every read: host
    // code that the walk cannot see (a lazy slot's factory, a TextWriter, a constraint) may change it. Only the
    // ShapeReader hands out layouts, so its reads are called directly.
    private void RunShapedObject(ref Frame frame)
    {
        ObjectInstance container = frame.Container!;
        ShapeLayout layout = frame.Layout!;
        while (frame.Index < frame.Count)
        {
            ulong i = frame.Index++;
            JsValue key = layout.Keys[i];
            JsValue value;
            if (ShapeReader.HasShape(container, frame.Shape!) && ShapeReader.TryGetSlot(container, (int)i) is { } slotValue)
            {
                value = slotValue;
                if (_pureShapes && IsPure(ref frame, value, out object? childShape, out ShapeLayout? childLayout))
                {
                    WriteName(ref frame, layout.QuotedKeys[i]);
                    bool opened = OpenPure(value, childShape, childLayout);
                    CountWork();
                    if (opened)
                    {
                        return;
                    }

                    continue;
                }
            }
            else
            {
                value = GetObserved(container, key);
            }

            Types type = value.Type;
            if (_replacer is null && IsJsonPrimitive(type))
            {
                WriteName(ref frame, layout.QuotedKeys[i]);
                WritePrimitive(value, type);
                CountWork();
                continue;
            }

            // User code may run here, but only through other walkers: this frame stays where it is.
            value = Prepare(value, container, key, 0);
            if (!IsSerializable(value))
            {
                continue;
            }

            WriteName(ref frame, layout.QuotedKeys[i]);
            bool opens = value.Type == Types.Object;
            WriteValue(value);
            CountWork();
            if (opens)
            {
                return;
            }
        }
    }

    // A property's name, already quoted and followed by ':', with the separator before it.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void WriteName(ref Frame frame, string quotedWithColon)
    {
        _writer.WriteQuotedPropertyName(quotedWithColon, frame.Empty);
        frame.Empty = false;
    }

    // [[Get]] where it may run user code (a getter, a proxy trap, a host object): the memo of clean prototypes goes.
    private JsValue GetObserved(ObjectInstance o, JsValue key)
    {
        JsValue value = _reader.Get(o, key);
        InvalidatePurity();
        return value;
    }

    private void Close(ref Frame frame)
    {
        if (frame.Kind == FrameKind.Array)
        {
            _writer.EndArray(frame.Count == 0);
        }
        else
        {
            _writer.EndObject(frame.Empty);
        }

        if (frame.Kind == FrameKind.TableObject)
        {
            RecycleTable(ref frame);
        }

        Exit();
        if (_writer.Length >= _nextCheckLength)
        {
            CheckWork();
        }
    }

    private void RecycleTable(ref Frame frame)
    {
        List<KeyValuePair<JsValue, PropertyDescriptor>> properties = frame.Properties!;
        frame.Properties = null;
        if (properties.Capacity <= JsonConstants.MaxRetainedTableCapacity)
        {
            properties.Clear();
            _spareTables.Push(properties);
        }
    }

    // After each value: the engine's constraints are checked once per 1,024 values or 64K chars of output, whichever
    // comes first, so a timeout or a cancellation stops even a walk that runs no user code; and output past MaxLength
    // is a RangeError as soon as it is written. One comparison covers both lengths.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CountWork()
    {
        if (++_itemsSinceCheck >= JsonConstants.ConstraintCheckItems || _writer.Length >= _nextCheckLength)
        {
            CheckWork();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void CheckWork()
    {
        CheckLength();
        long length = _writer.Length;
        if (_itemsSinceCheck >= JsonConstants.ConstraintCheckItems || length - _lengthAtCheck >= JsonConstants.ConstraintCheckChars)
        {
            _itemsSinceCheck = 0;
            _lengthAtCheck = length;
            _engine.Constraints.Check();
        }

        _nextCheckLength = NextCheckLength();
    }

    private long NextCheckLength() =>
        Math.Min(_lengthAtCheck + JsonConstants.ConstraintCheckChars, _lengthLimit == long.MaxValue ? long.MaxValue : _lengthLimit + 1);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void CheckLength()
    {
        if (_writer.IsOverLimit)
        {
            Throw.InvalidStringLength(_engine);
        }
    }

    // The spec's stack: a cycle is a TypeError. Nesting deeper than MaxDepth is a RangeError, as V8 reports running
    // out of stack.
    private void Enter(ObjectInstance o)
    {
        CheckEnter(o);
        if (_depth == _frames.Length)
        {
            Array.Resize(ref _frames, _frames.Length * 2);
        }

        if (_depth == _framesUsed)
        {
            _framesUsed++;
        }

        _frames[_depth++].Container = o;
        if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            if (_depth == JsonConstants.LinearCycleCheckDepth + 1)
            {
                _deepStack ??= new HashSet<ObjectInstance>(ObjectIdentity.Instance);
                for (int i = 0; i < _depth; i++)
                {
                    _deepStack.Add(_frames[i].Container!);
                }
            }
            else
            {
                _deepStack!.Add(o);
            }
        }
    }

    // SerializeJSONObject and SerializeJSONArray step 1, and the depth limit, for a container about to be opened.
    private void CheckEnter(ObjectInstance o)
    {
        if (_depth >= _maxDepth)
        {
            Throw.StackOverflow(_engine);
        }

        if (Contains(o))
        {
            Throw.CycleDetected(_engine);
        }
    }

    private void Exit()
    {
        ObjectInstance o = _frames[--_depth].Container!;
        if (_depth == JsonConstants.LinearCycleCheckDepth)
        {
            _deepStack!.Clear();
        }
        else if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            _deepStack!.Remove(o);
        }
    }

    private bool Contains(ObjectInstance o)
    {
        if (_depth > JsonConstants.LinearCycleCheckDepth)
        {
            return _deepStack!.Contains(o);
        }

        // Plain objects and arrays (sealed classes, so the first two tests are cheap) are never CLR wrappers.
        if (o is not JsObject && o is not JsArray && o is IObjectWrapper)
        {
            return ContainsWrapper(o);
        }

        Span<Frame> open = _frames.AsSpan(0, _depth);
        for (int i = 0; i < open.Length; i++)
        {
            if (ReferenceEquals(open[i].Container, o))
            {
                return true;
            }
        }

        return false;
    }

    private bool ContainsWrapper(ObjectInstance o)
    {
        for (int i = 0; i < _depth; i++)
        {
            if (ObjectIdentity.Same(_frames[i].Container!, o))
            {
                return true;
            }
        }

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

    // Where the walk is in one open container. Frames are reused in place: Start resets one for a new container, and
    // each kind sets the fields it reads. The class remembered for children stays valid from one container to the next.
    private struct Frame
    {
        public ObjectInstance? Container;

        public FrameKind Kind;

        // Elements of an array, or keys of an object.
        public ulong Count;

        public ulong Index;

        // No property written yet (objects).
        public bool Empty;

        public object? Shape;

        public ShapeLayout? Layout;

        // The class of the last plain object read from this container, and its layout.
        public object? ChildShape;

        public ShapeLayout? ChildLayout;

        public List<JsValue>? Keys;

        public List<KeyValuePair<JsValue, PropertyDescriptor>>? Properties;

        public int[]? Slots;

        public bool[]? AbsentKeys;

        public int Epoch;

        public void Start(FrameKind kind, ulong count)
        {
            Kind = kind;
            Count = count;
            Index = 0;
            Empty = true;
        }
    }

}
