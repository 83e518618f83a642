using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Jint;
using Jint.Native;
using Jint.Native.Array;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// The one type the walk and the entry points ask about values and the engine: keys, properties, elements, hidden
/// classes, property tables, calls, IsArray and errors. Readers only read: they never write text and never decide when
/// toJSON or the replacer runs. Every read has the same observable effects (getters, proxy traps) as the spec's
/// operation. Each shortcut through Jint's internals rests on one <see cref="JintAssumption"/> and is taken only when
/// this reader is allowed it and its probe agreed; otherwise the same question is answered through Jint's public API.
/// So callers never know which parts are on: a reader without hidden classes simply reports none.
/// </summary>
internal sealed class ValueReader
{
    private static readonly JsString s_length = new("length");
    private static readonly JsString s_message = new("message");

    // Stands for the layout of a plain object that has never had a property: it has no hidden class yet.
    private static readonly object s_virgin = new();

    // What the public reader still reads of Jint's internals: not for speed but for meaning, Jint's host conventions
    // that its public API does not reach (Interop.SerializeToJson, a proxy over a wrapped CLR collection, and a host
    // object's answer to whether it has a key, which a wrapped dictionary gives without reading the value: under
    // Interop.EnumerableConversion's Snapshot, reading it enumerates a sequence once more).
    private const JintAssumption HostConventions =
        JintAssumption.EngineOptions | JintAssumption.ProxyTarget | JintAssumption.OwnPropertyProbe;

    // The readers with every assumption allowed, and with none but the host conventions.
    private static readonly Lazy<ValueReader> s_fast = new(() => new ValueReader(JintAssumption.All));
    private static readonly ValueReader s_public = new(HostConventions);

    // The public reader given where the fast path was asked for, while the test suite turns it off for the process.
    private static readonly ValueReader s_forcedPublic = new(HostConventions);

    // The parts of the fast path this reader may use, whether or not their probes have run.
    private readonly JintAssumption _allowed;

    // Probed when the reader is made: every walk asks them at every object and array.
    private readonly bool _hiddenClasses;
    private readonly bool _denseArrays;

    // Probed at the first table (compiling the table reader costs a few milliseconds): 0 until then, 1 when it may be
    // used, -1 when not. Readers are shared between threads; each one that sets it sets the same value.
    private int _propertyTables;

    private ValueReader(JintAssumption allowed)
    {
        _allowed = allowed;
        _hiddenClasses = Uses(JintAssumption.HiddenClasses);
        _denseArrays = Uses(JintAssumption.DenseArrays);
    }

    /// <summary>
    /// The reader for a serializer whose options allow the fast path: every part in <paramref name="allowed"/> whose
    /// probe agrees (the options allow all but where the test suite turns assumptions off one by one).
    /// </summary>
    public static ValueReader For(JintAssumption allowed) =>
        FastPath.ForcePublicReader ? s_forcedPublic : allowed == JintAssumption.All ? s_fast.Value : new ValueReader(allowed);

    /// <summary>The reader that uses Jint's public API alone.</summary>
    public static ValueReader Public => s_public;

    /// <summary>Whether this reader reads plain objects or arrays through Jint's internals.</summary>
    public bool ReadsInternals => _hiddenClasses || _denseArrays;

    /// <summary>
    /// Why some part of the fast path this reader could use is off, one line per assumption; null when none is. Probes
    /// what has not been probed yet.
    /// </summary>
    public string? DescribeDisabledParts() => ReferenceEquals(this, s_forcedPublic)
        ? "The fast path is turned off for this process (FastPath.ForcePublicReader): only Jint's public API is used."
        : FastPath.DescribeFailures(_allowed);

    /// <summary>
    /// A reader allowed only <paramref name="allowed"/>, whatever <see cref="FastPath.ForcePublicReader"/> says.
    /// </summary>
    internal static ValueReader Allowing(JintAssumption allowed) => new(allowed);

    private bool Uses(JintAssumption assumption) => (_allowed & assumption) != 0 && FastPath.Holds(assumption);

    /// <summary>
    /// EnumerableOwnProperties(o, key): [[OwnPropertyKeys]], then [[GetOwnProperty]] for each string key.
    /// </summary>
    public List<JsValue> GetEnumerableOwnKeys(ObjectInstance o)
    {
        // Jint hands back a fresh list, so it is filtered in place. A proxy's ownKeys trap can return symbols even
        // when only strings are asked for; the spec never looks them up.
        List<JsValue> keys = o.GetOwnPropertyKeys(Types.String);

        // Where it may, the reader asks as Jint's serializer does, through the object's own probe: the same answer and
        // the same user code as GetOwnProperty, but a wrapped CLR dictionary answers it with ContainsKey instead of
        // converting the value into a descriptor that is thrown away before [[Get]] converts it again.
        bool probe = Uses(JintAssumption.OwnPropertyProbe);
        int kept = 0;
        for (int i = 0; i < keys.Count; i++)
        {
            JsValue key = keys[i];
            if (key.Type != Types.String)
            {
                continue;
            }

            if (probe ? JintInternals.IsEnumerableOwnProperty(o, key) : IsEnumerableOwnProperty(o, key))
            {
                keys[kept++] = key;
            }
        }

        keys.RemoveRange(kept, keys.Count - kept);
        return keys;
    }

    // [[GetOwnProperty]](key) is an enumerable property.
    private static bool IsEnumerableOwnProperty(ObjectInstance o, JsValue key)
    {
        PropertyDescriptor descriptor = o.GetOwnProperty(key);
        return descriptor != PropertyDescriptor.Undefined && descriptor.Enumerable;
    }

    /// <summary>Get(o, key).</summary>
    public static JsValue Get(ObjectInstance o, JsValue key) => o.Get(key, o);

    /// <summary>LengthOfArrayLike(array): ToLength(Get(array, "length")).</summary>
    public static ulong GetLength(ObjectInstance array) =>
        array is JsArray jsArray ? jsArray.Length : TypeConverter.ToLength(array.Get(s_length, array));

    /// <summary>Get(array, ToString(index)).</summary>
    public static JsValue GetElement(ObjectInstance array, ulong index)
    {
        // ArrayInstance.TryGetValue runs getters, and reads a hole from the prototypes by asking each one for an own
        // property and then for its prototype: that is [[Get]] only while every prototype is ordinary. Above an exotic
        // one (a proxy, whose getOwnPropertyDescriptor and getPrototypeOf traps it would run instead of get), the
        // element is read as OrdinaryGet does: the own property, or else the prototype's [[Get]].
        if (array is ArrayInstance arrayInstance && index <= uint.MaxValue)
        {
            if (HasOrdinaryPrototypes(arrayInstance))
            {
                return arrayInstance.TryGetValue((uint)index, out JsValue value) ? value : JsValue.Undefined;
            }

            JsString key = IndexKey.Create(index);
            if (arrayInstance.GetOwnProperty(key) != PropertyDescriptor.Undefined)
            {
                return arrayInstance.Get(key, arrayInstance);
            }

            return arrayInstance.Prototype is { } prototype ? prototype.Get(key, arrayInstance) : JsValue.Undefined;
        }

        // A wrapped CLR collection is asked for the index as a number, as Jint's serializer asks it: a string index
        // goes to the collection's indexer, which on Jint 4.16.0 and 4.16.1 throws past the end of a list that
        // shrank during the walk, where a number reads undefined.
        if (array is ObjectWrapper && index <= int.MaxValue)
        {
            return array.Get(JsNumber.Create((int)index), array);
        }

        return array.Get(IndexKey.Create(index), array);
    }

    // Whether every prototype of an array is a plain object, an array or an intrinsic prototype of either, whose own
    // lookups and [[GetPrototypeOf]] run no user code. A few type tests per read: the fast path comes here only for
    // holes and sparse arrays.
    private static bool HasOrdinaryPrototypes(ArrayInstance array)
    {
        EngineTypes types = EngineTypes.Instance;
        for (ObjectInstance? p = array.Prototype; p is not null; p = p.Prototype)
        {
            if (!types.IsOrdinaryPrototype(p) && p is not JsArray)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The hidden class of a plain object whose own properties live in one (or a stand-in for a plain object that
    /// never had a property), or null: for any other object, and for every object when hidden classes are off. It names
    /// the layout only; <see cref="TryGetShapeKeys"/> says whether it is usable.
    /// </summary>
    public object? GetShape(ObjectInstance o) => o is JsObject plain ? GetShape(plain) : null;

    /// <inheritdoc cref="GetShape(ObjectInstance)"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public object? GetShape(JsObject plain) =>
        _hiddenClasses ? ShapeOrVirgin(plain) : null;

    // The object's hidden class, the stand-in for one that never had a property, or null for a table object.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static object? ShapeOrVirgin(JsObject plain) =>
        JintInternals.ShapeOf(plain) ?? (JintInternals.IsVirginPlainObject(plain) ? s_virgin : null);

    /// <summary>
    /// Whether a plain object is read as a table: its enumerable own properties all at once with
    /// <see cref="ReadTable"/>, and any one of them with GetOwnProperty, neither of which runs user code (a plain
    /// object is ordinary, and a descriptor runs a lazy value's code only when its value is read). Where hidden classes
    /// are read, that is an object without one (it has had a property and keeps them in a table). Elsewhere either way
    /// is exact for every plain object, and the public representation only picks the faster one: a table's
    /// descriptors hold its values, which the walk then takes without a lookup, where a hidden class's descriptors
    /// would each be made for the occasion and read through [[Get]] all the same, which the keyed path does with the
    /// engine's own key strings.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsTable(JsObject plain) => _hiddenClasses ? GetShape(plain) is null : IsPublicTable(plain);

    // Kept out of IsTable, so that only the public path compiles a call to GetObjectRepresentation, which Jint
    // documents as a diagnostic that a later release may change.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool IsPublicTable(JsObject plain) =>
        plain.Engine.Advanced.GetObjectRepresentation(plain) != ObjectRepresentation.HiddenClass;

    /// <summary>
    /// Whether <paramref name="o"/> still has the hidden class <paramref name="shape"/>, one that a reader with hidden
    /// classes on gave (so they need not be asked about again: this is asked before every slot read).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool HasShape(ObjectInstance o, object shape) =>
        o is JsObject plain && ReferenceEquals(ShapeOrVirgin(plain), shape);

    /// <summary>
    /// The keys of <paramref name="shape"/>, in [[OwnPropertyKeys]] order, when all of them are enumerable data
    /// properties that are not integer-like: reading an object of that class then runs no user code.
    /// </summary>
    public static bool TryGetShapeKeys(object shape, out JsValue[]? keys)
    {
        if (ReferenceEquals(shape, s_virgin))
        {
            keys = [];
            return true;
        }

        return JintInternals.TryGetOrderedKeyStrings(shape, out keys);
    }

    /// <summary>
    /// The value in slot <paramref name="slot"/> of an object that <see cref="HasShape"/>, or null when the slot is
    /// lazy: its factory is host code that may run scripts, so callers read it through [[Get]], as user code.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static JsValue? TryGetSlot(ObjectInstance o, int slot)
    {
        Debug.Assert(o is JsObject, "only objects with a hidden class have slots");
        JsValue value = JintInternals.GetRawSlot(Unsafe.As<JsObject>(o), slot);
        return value is null || value.Type == Types.Empty ? null : value;
    }

    /// <summary>
    /// For a plain object whose properties are kept in a table (<see cref="IsTable"/>): its enumerable own string-keyed
    /// properties with their descriptors, in [[OwnPropertyKeys]] order, read in one pass and pushed onto
    /// <paramref name="tables"/>. Through the compiled table reader where it works (no JsString per key), otherwise
    /// through the public GetOwnProperties, which lists the same entries in the same order.
    /// <paramref name="fetchAhead"/> asks the compiled reader to have the processor fetch the table's parts first:
    /// worth it where they are unlikely to be in its cache already.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public TableSegment ReadTable(JsObject plain, TableStack tables, bool fetchAhead)
    {
        Debug.Assert(IsTable(plain), "an object read as a table");

        // The compiled reader reads Jint's table itself, which only an object without a hidden class uses.
        return _hiddenClasses && UsesPropertyTables()
            ? JintInternals.ReadTable(plain, tables, fetchAhead)
            : ReadTablePublic(plain, tables);
    }

    private bool UsesPropertyTables()
    {
        if (_propertyTables == 0)
        {
            _propertyTables = Uses(JintAssumption.PropertyTables) ? 1 : -1;
        }

        return _propertyTables > 0;
    }

    /// <summary>
    /// What <see cref="JintInternals.ReadTable"/> reads, through the public GetOwnProperties (a JsString per key).
    /// </summary>
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

    /// <summary>Whether <paramref name="array"/> has no own property named toJSON; asking runs no user code.</summary>
    public bool HasNoOwnToJson(JsArray array) =>
        (_denseArrays && JintInternals.HasOnlyElements(array)) || array.GetOwnProperty(JsonConstants.ToJson) == PropertyDescriptor.Undefined;

    /// <summary>
    /// The stored elements of a dense array below <paramref name="length"/> (its length, read by the caller), in
    /// order: a null is a hole, and elements past the span's end are holes too. Reading them runs no user code. Empty
    /// for a sparse array, and always when dense arrays are off; the caller then reads elements with [[Get]].
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ReadOnlySpan<JsValue?> DenseElements(JsArray array, uint length)
    {
        Debug.Assert(length == array.Length, "the array's length");
        if (_denseArrays && JintInternals.DenseElements(array) is { } dense)
        {
            return MemoryMarshal.CreateReadOnlySpan(ref MemoryMarshal.GetArrayDataReference(dense), (int)Math.Min(length, (uint)dense.Length));
        }

        return default;
    }

    /// <summary>
    /// An element of a dense array that is present (not a hole): reading it runs no user code. False for holes, for
    /// anything but a dense JsArray, and always when dense arrays are off; the caller then reads it with [[Get]].
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryGetDenseElement(ObjectInstance array, ulong index, out JsValue value)
    {
        if (_denseArrays && array is JsArray jsArray && index < jsArray.Length)
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

    /// <summary>
    /// The abstract operation IsArray(<paramref name="o"/>) for an object that is not an array: true for a proxy whose
    /// target is one, through any number of proxies; a revoked proxy throws a TypeError of <paramref name="engine"/>'s
    /// realm. Never through the script-visible Array.isArray.
    /// </summary>
    public bool IsArray(ObjectInstance o, Engine engine)
    {
        if (o is ArrayInstance)
        {
            return true;
        }

        if (o.GetType() != EngineTypes.Instance.Proxy)
        {
            return false;
        }

        // IsArray of a proxy runs no user code, and fails only where a proxy on the way was revoked, in Jint's words
        // ('isArray'): that becomes the realm's TypeError in V8's (the spec's operation, 'IsArray').
        try
        {
            return Uses(JintAssumption.IsArrayOperation) ? JintInternals.IsArray(o) : PristineRealm.IsArray(o);
        }
        catch (JavaScriptException)
        {
            throw new JavaScriptException(engine.Intrinsics.TypeError, JsonConstants.RevokedProxyIsArray);
        }
    }

    /// <summary>
    /// Whether <paramref name="o"/>, which IsArray said is not an array, serializes as one by Jint's host convention
    /// (see <see cref="HostObjects"/>): a proxy is looked through to its target where this reader can read it, and is
    /// an ordinary object otherwise, as the spec has it.
    /// </summary>
    public bool IsHostArrayLike(ObjectInstance o)
    {
        while (o.GetType() == EngineTypes.Instance.Proxy)
        {
            if (!Uses(JintAssumption.ProxyTarget) || JintInternals.ProxyTarget(o) is not { } target)
            {
                return false;
            }

            o = target;
        }

        return HostObjects.IsArrayLike(o);
    }

    /// <summary>
    /// A RangeError of <paramref name="engine"/>'s realm with <paramref name="message"/>, whatever a script did to the
    /// global binding.
    /// </summary>
    public ObjectInstance CreateRangeError(Engine engine, string message)
    {
        if (Uses(JintAssumption.RangeErrorIntrinsic))
        {
            return JintInternals.GetRangeError(engine).Construct(message);
        }

        // Jint's public Intrinsics has no RangeError: an operation the spec defines to throw one, on the intrinsic
        // Array constructor (whose behaviour no script can change), gives the realm's own, and then gets the message.
        try
        {
            engine.Intrinsics.Array.Construct([JsNumber.Create(-1)]);
        }
        catch (JavaScriptException e) when (e.Error is ObjectInstance error)
        {
            error.DefineOwnProperty(
                s_message, new PropertyDescriptor(new JsString(message), writable: true, enumerable: false, configurable: true));
            return error;
        }

        return engine.Intrinsics.Error.Construct("RangeError: " + message);
    }

    /// <summary>
    /// Whether <paramref name="engine"/> is idle: running no script and no host entry such as the public
    /// <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>. A call that starts on an idle engine is a host call of
    /// its own, whose constraints count from its start. Null when this reader cannot tell.
    /// </summary>
    public bool? IsEngineIdle(Engine engine) =>
        Uses(JintAssumption.EvaluationState) ? !JintInternals.IsEvaluationInProgress(engine) : null;

    /// <summary>The options <paramref name="engine"/> was created with, or null where they cannot be read.</summary>
    public Options? TryGetEngineOptions(Engine engine) => Uses(JintAssumption.EngineOptions) ? JintInternals.GetOptions(engine) : null;

    /// <summary>
    /// Whether toJSON and replacer calls go through the engine's internal call, which, unlike the public
    /// <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>, neither allocates a closure per call nor restarts the
    /// constraints of a host call. Probed at the first toJSON or replacer call a process makes, not at its first walk:
    /// the probe runs scripts, which cost a new process the compiling of Jint's interpreter.
    /// </summary>
    public bool CallsInternally => Uses(JintAssumption.InternalCall);

    /// <summary>Whether one argument list may be refilled for every call: the callee copies what it keeps.</summary>
    public bool MayReuseArgumentLists => Uses(JintAssumption.CalleeCopiesArguments);
}
