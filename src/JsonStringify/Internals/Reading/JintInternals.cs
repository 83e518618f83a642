using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Array;
using Jint.Native.Error;
using Jint.Native.Function;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Internals;

/// <summary>
/// Every use of Jint's internal members, in one place: the accessors, the table reader compiled from IL, and the probes
/// that check each <see cref="JintAssumption"/> against Jint's public API (JintInternals.Probes.cs). Nothing outside
/// the reading layer calls these; <see cref="ValueReader"/> calls each one only after its assumption's probe agreed.
/// The comments give each member as Jint 4.16.0 to 4.18.0 declare it.
/// </summary>
internal static partial class JintInternals
{
    private const string ShapeType = "Jint.Native.Object.Shape, Jint";
    private const string CallableType = "Jint.Native.ICallable, Jint";
    private const string ExpressionType = "Jint.Runtime.Interpreter.Expressions.JintExpression, Jint";
    private const string PropertyTableType = "Jint.Collections.HybridDictionary`1[[Jint.Runtime.Descriptors.PropertyDescriptor, Jint]], Jint";
    private const string ProxyType = "Jint.Native.JsProxy, Jint";

    /// <summary>
    /// Whether <paramref name="engine"/> is running something for someone: a script, or a host entry such as
    /// <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>.
    /// </summary>
    public static bool IsEvaluationInProgress(Engine engine) => EvaluationInProgress(engine);

    /// <summary>
    /// The abstract operation IsArray(<paramref name="o"/>), as the engine implements it for Array.isArray: a proxy
    /// answers for its target, through any number of proxies, and a revoked one throws the realm's TypeError. Nothing
    /// a script does to globals or to the Array constructor changes it.
    /// </summary>
    public static bool IsArray(ObjectInstance o) => IsArrayOperation(o);

    /// <summary>
    /// The intrinsic %RangeError% of <paramref name="engine"/>'s realm, whatever the global binding now holds.
    /// </summary>
    public static ErrorConstructor GetRangeError(Engine engine) => RangeErrorOf(engine.Intrinsics);

    /// <summary>
    /// Calls <paramref name="callable"/> (which IsCallable) as Jint's own serializer does: a function through its own
    /// [[Call]], anything else (a proxy) through the engine's internal call; either way without the per-call closure
    /// and constraint reset of the public <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>.
    /// </summary>
    public static JsValue Call(Engine engine, JsValue callable, JsValue thisObject, JsValue[] arguments) =>
        callable is Function function
            ? FunctionCall(function, thisObject, arguments)
            : EngineCall(engine, callable, thisObject, arguments, null);

    /// <summary>The options <paramref name="engine"/> was created with.</summary>
    public static Options GetOptions(Engine engine) => OptionsOf(engine);

    /// <summary>The hidden class of <paramref name="o"/>, or null when it is in dictionary mode.</summary>
    public static object? ShapeOf(JsObject o) => GetShape(o);

    /// <summary>
    /// The shape's keys as JsStrings in slot order, memoised by Jint; false when one is integer-like.
    /// </summary>
    public static bool TryGetOrderedKeyStrings(object shape, out JsValue[]? keys) => ShapeKeyStrings(shape, out keys);

    /// <summary>
    /// Whether <paramref name="o"/> has never had an own property: no shape, no property table, extensible.
    /// </summary>
    public static bool IsVirginPlainObject(JsObject o) => IsVirgin(o);

    /// <summary>
    /// What <paramref name="slot"/> holds, without materialising it: a lazy slot (from the public
    /// <c>JsObjectLayout.Builder.AddLazy</c>) holds a placeholder of type <see cref="Types.Empty"/> until its factory,
    /// host code that may run scripts, is called.
    /// </summary>
    public static JsValue GetRawSlot(JsObject o, int slot) => RawSlot(o, slot);

    /// <summary>
    /// Whether an array has no own property but its elements and length: Jint keeps every other string-keyed own
    /// property of an array in its property table, which it creates on the first one.
    /// </summary>
    public static bool HasOnlyElements(ArrayInstance array) => PropertyTable(array) is null;

    /// <summary>The dense element storage of an array (longer than its length), or null when it is sparse.</summary>
    public static JsValue?[]? DenseElements(ArrayInstance array) => Dense(array);

    // internal virtual bool JsValue.IsArray(), overridden by ArrayInstance and JsProxy.
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "IsArray")]
    private static extern bool IsArrayOperation(JsValue value);

    // internal ErrorConstructor Intrinsics.RangeError { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_RangeError")]
    private static extern ErrorConstructor RangeErrorOf(Intrinsics intrinsics);

    // internal Options Engine.Options { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_Options")]
    private static extern Options OptionsOf(Engine engine);

    // internal bool Engine.IsEvaluationInProgress { get; } (_hostEntryDepth > 0 || _executionContexts.Count > 1)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_IsEvaluationInProgress")]
    private static extern bool EvaluationInProgress(Engine engine);

    // internal JsValue Engine.Call(ICallable callable, JsValue thisObject, JsValue[] arguments,
    //     JintExpression? expression)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Call")]
    private static extern JsValue EngineCall(
        Engine engine,
        [UnsafeAccessorType(CallableType)] object callable,
        JsValue thisObject,
        JsValue[] arguments,
        [UnsafeAccessorType(ExpressionType)] object? expression);

    // protected internal abstract JsValue Function.Call(JsValue thisObject, JsValue[] arguments)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Call")]
    private static extern JsValue FunctionCall(Function function, JsValue thisObject, JsValue[] arguments);

    // internal Shape JsObject.ShapeOf { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_ShapeOf")]
    [return: UnsafeAccessorType(ShapeType)]
    private static extern object? GetShape(JsObject o);

    // internal bool Shape.TryGetOrderedKeyStrings(out JsValue[]? strings)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "TryGetOrderedKeyStrings")]
    private static extern bool ShapeKeyStrings([UnsafeAccessorType(ShapeType)] object shape, out JsValue[]? strings);

    // internal readonly int Shape.SlotCount
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "SlotCount")]
    private static extern ref int ShapeSlotCount([UnsafeAccessorType(ShapeType)] object shape);

    // internal bool JsObject.IsVirginPlainObject { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_IsVirginPlainObject")]
    private static extern bool IsVirgin(JsObject o);

    // internal JsValue JsObject.GetSlot(int slot)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "GetSlot")]
    private static extern JsValue RawSlot(JsObject o, int slot);

    // internal HybridDictionary<PropertyDescriptor>? ObjectInstance.Properties { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_Properties")]
    [return: UnsafeAccessorType(PropertyTableType)]
    private static extern object? PropertyTable(ObjectInstance o);

    // internal JsValue?[]? ArrayInstance._dense
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_dense")]
    private static extern ref JsValue?[]? Dense(ArrayInstance array);

    /// <summary>
    /// The [[ProxyTarget]] of <paramref name="proxy"/>, a proxy, or null once it is revoked; reading it runs no user
    /// code.
    /// </summary>
    public static ObjectInstance? ProxyTarget(ObjectInstance proxy)
    {
        Debug.Assert(proxy.GetType() == EngineTypes.Instance.Proxy, "a proxy");
        return ProxyTargetField(proxy);
    }

    /// <summary>
    /// [[GetOwnProperty]](<paramref name="key"/>) of <paramref name="o"/> reduced to whether it is there and
    /// enumerable, as Jint's own serializer asks it: through the object's ProbeOwnProperty, which agrees with
    /// GetOwnProperty and runs the same user code (a proxy's getOwnPropertyDescriptor trap), and which a host object
    /// may answer without building a descriptor (a wrapped dictionary asks ContainsKey).
    /// </summary>
    public static bool IsEnumerableOwnProperty(ObjectInstance o, JsValue key) => ProbeOwn(o, key) == OwnPropertyProbe.Enumerable;

    // internal ObjectInstance JsProxy._target (set to null when the proxy is revoked)
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_target")]
    private static extern ref ObjectInstance? ProxyTargetField([UnsafeAccessorType(ProxyType)] object proxy);

    // internal OwnPropertyProbe ObjectInstance.ProbeOwnPropertyChecked(JsValue property): the virtual protected
    // internal ProbeOwnProperty, with Jint's host-contract check when that is switched on.
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "ProbeOwnPropertyChecked")]
    private static extern OwnPropertyProbe ProbeOwn(ObjectInstance o, JsValue property);
}
