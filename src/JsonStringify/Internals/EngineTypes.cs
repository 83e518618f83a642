using Jint;
using Jint.Native;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// The runtime classes behind objects that the spec tells apart by an internal slot Jint's public API does not show:
/// [[IsRawJSON]] and [[ProxyHandler]]. Jint keeps these classes internal, so each one is learned once per process from
/// a sample that a private engine makes through public API. Nothing here runs user code.
/// </summary>
internal sealed class EngineTypes
{
    private static readonly Lazy<EngineTypes> s_instance = new(Create, LazyThreadSafetyMode.ExecutionAndPublication);

    private EngineTypes(Type rawJson, Type proxy)
    {
        RawJson = rawJson;
        Proxy = proxy;
    }

    public static EngineTypes Instance => s_instance.Value;

    public Type RawJson { get; }

    public Type Proxy { get; }

    private static EngineTypes Create()
    {
        using var engine = new Engine();
        return new EngineTypes(
            rawJson: engine.Evaluate("JSON.rawJSON('0')").GetType(),
            proxy: engine.Advanced.CreateProxy(new JsObject(engine), new EmptyHandler()).GetType());
    }

    private sealed class EmptyHandler : ProxyHandler;
}
