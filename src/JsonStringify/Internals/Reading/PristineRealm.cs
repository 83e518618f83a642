using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Internals;

/// <summary>
/// The public path to an abstract operation that Jint's public API does not expose, for when
/// <see cref="JintInternals"/> cannot be used: it is asked of a private engine in which no script ever runs, so nothing
/// a script does to its own realm (replacing <c>Array.isArray</c>, deleting it, making it a getter) can change the
/// answer.
/// </summary>
internal static class PristineRealm
{
    private static readonly JsString s_isArray = new("isArray");
    private static readonly Lazy<(Engine Engine, JsValue IsArray)> s_realm = new(Create, LazyThreadSafetyMode.ExecutionAndPublication);

    // One engine serves every serializer of the process, one call at a time.
    private static readonly Lock s_lock = new();

    /// <summary>
    /// IsArray(<paramref name="o"/>), through the private engine's own <c>Array.isArray</c>, which asks the object
    /// itself: a proxy answers for its target, and a revoked one throws a TypeError of its own realm. Runs no user
    /// code.
    /// </summary>
    public static bool IsArray(ObjectInstance o)
    {
        (Engine engine, JsValue isArray) = s_realm.Value;
        lock (s_lock)
        {
            return TypeConverter.ToBoolean(engine.Call(isArray, JsValue.Undefined, [o]));
        }
    }

    private static (Engine, JsValue) Create()
    {
        var engine = new Engine();
        return (engine, engine.Intrinsics.Array.Get(s_isArray));
    }
}
