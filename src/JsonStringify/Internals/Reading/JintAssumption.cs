namespace JsonStringify.Internals;

/// <summary>
/// Everything the fast path assumes about Jint beyond its public API, one flag per assumption. Each one is checked by
/// a probe at its first use in a process (see <see cref="FastPath"/>); where the probe disagrees, only the parts of
/// the fast path that rest on that assumption are turned off, and those values are read through the public API, with
/// the same output. The members named are Jint's, as Jint 4.16.0 to 4.18.0 have them.
/// </summary>
[Flags]
internal enum JintAssumption
{
    None = 0,

    /// <summary>
    /// <c>JsObject.ShapeOf</c>, <c>Shape.TryGetOrderedKeyStrings</c>, <c>Shape.SlotCount</c>, <c>JsObject.GetSlot</c>
    /// and <c>JsObject.IsVirginPlainObject</c>: a plain object either has a hidden class, shared by the objects of its
    /// layout, that lists its own keys in [[OwnPropertyKeys]] order (and refuses when one is integer-like), with slot i
    /// holding key i's value (a lazy slot holds a placeholder of type Empty until [[Get]] runs its factory); or it
    /// keeps its properties in a table and has no class; or it never had a property.
    /// </summary>
    HiddenClasses = 1 << 0,

    /// <summary>
    /// <c>ArrayInstance._dense</c>: the elements of a dense array, at least as long as its length, holes null; and
    /// <c>ObjectInstance.Properties</c> of an array is null until it gets an own property other than its elements and
    /// length (a toJSON among them).
    /// </summary>
    DenseArrays = 1 << 1,

    /// <summary>
    /// The property table of a plain object without a hidden class (<c>HybridDictionary&lt;PropertyDescriptor&gt;</c>,
    /// its list of nodes or its dictionary of slots) lists the same entries, in the same order, with the same
    /// descriptors, as the public <c>GetOwnProperties</c>. Read by IL compiled once; not where code cannot be compiled.
    /// </summary>
    PropertyTables = 1 << 2,

    /// <summary>
    /// <c>Function.Call(JsValue, JsValue[])</c> and <c>Engine.Call(ICallable, JsValue, JsValue[], JintExpression?)</c>
    /// call a function as the public <c>Engine.Call</c> does, with the same this, arguments, result and exceptions,
    /// without resetting the engine's constraints.
    /// </summary>
    InternalCall = 1 << 3,

    /// <summary>
    /// A called function keeps no reference to the argument list it is handed: its parameters and its arguments object
    /// are copies, so the walk may refill one list for every toJSON or replacer call.
    /// </summary>
    CalleeCopiesArguments = 1 << 4,

    /// <summary>
    /// <c>JsValue.IsArray()</c> is the abstract operation IsArray: through proxies, throwing on a revoked one.
    /// </summary>
    IsArrayOperation = 1 << 5,

    /// <summary><c>Intrinsics.RangeError</c> is the realm's %RangeError%, whatever the global binding holds.</summary>
    RangeErrorIntrinsic = 1 << 6,

    /// <summary><c>Engine.Options</c> is the <see cref="Jint.Options"/> the engine was made with.</summary>
    EngineOptions = 1 << 7,

    /// <summary>
    /// <c>Engine.IsEvaluationInProgress</c> is true exactly while the engine runs a script or a host entry, so that a
    /// call on an idle engine may reset the constraints itself instead of running inside a public host call.
    /// </summary>
    EvaluationState = 1 << 8,

    /// <summary>
    /// <c>JsProxy._target</c> is a proxy's [[ProxyTarget]], null once it is revoked: Jint's host convention looks
    /// through proxies to decide whether a wrapped CLR collection serializes as an array.
    /// </summary>
    ProxyTarget = 1 << 9,

    /// <summary>
    /// <c>ObjectInstance.ProbeOwnPropertyChecked</c> says whether an own property is there and enumerable as
    /// [[GetOwnProperty]] does, running the same user code (a proxy's trap, once), as Jint's own serializer asks it.
    /// </summary>
    OwnPropertyProbe = 1 << 10,

    /// <summary>Every assumption.</summary>
    All = HiddenClasses | DenseArrays | PropertyTables | InternalCall | CalleeCopiesArguments | IsArrayOperation
        | RangeErrorIntrinsic | EngineOptions | EvaluationState | ProxyTarget | OwnPropertyProbe,
}
