using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// The runtime classes behind objects that the spec tells apart by an internal slot Jint's public API does not show
/// ([[IsRawJSON]], [[ProxyHandler]]), and those of the intrinsic prototypes whose own-property lookups run no user
/// code. Jint keeps these classes internal, so each one is learned once per process from a sample that a private
/// engine makes through public API. Nothing here runs user code.
/// </summary>
internal sealed class EngineTypes
{
    private static readonly Lazy<EngineTypes> s_instance = new(Create, LazyThreadSafetyMode.ExecutionAndPublication);

    private EngineTypes(Type rawJson, Type proxy, Type objectPrototype, Type arrayPrototype)
    {
        RawJson = rawJson;
        Proxy = proxy;
        ObjectPrototype = objectPrototype;
        ArrayPrototype = arrayPrototype;
    }

    public static EngineTypes Instance => s_instance.Value;

    public Type RawJson { get; }

    public Type Proxy { get; }

    public Type ObjectPrototype { get; }

    public Type ArrayPrototype { get; }

    /// <summary>
    /// Whether own-property lookups on <paramref name="o"/> are Jint's ordinary ones, which run no user code.
    /// </summary>
    public bool IsOrdinaryPrototype(ObjectInstance o)
    {
        Type type = o.GetType();
        return type == typeof(JsObject) || type == ObjectPrototype || type == ArrayPrototype;
    }

    private static EngineTypes Create()
    {
        using var engine = new Engine();
        return new EngineTypes(
            rawJson: engine.Evaluate("JSON.rawJSON('0')").GetType(),
            proxy: engine.Advanced.CreateProxy(new JsObject(engine), new EmptyHandler()).GetType(),
            objectPrototype: engine.Intrinsics.Object.PrototypeObject.GetType(),
            arrayPrototype: engine.Intrinsics.Array.PrototypeObject.GetType());
    }

    private sealed class EmptyHandler : ProxyHandler;
}
