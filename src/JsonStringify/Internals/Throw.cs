using System.Diagnostics.CodeAnalysis;
using Jint;
using Jint.Native;
using Jint.Native.Error;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>Cold paths that raise real JavaScript errors, kept out of line so that hot callers stay small.</summary>
internal static class Throw
{
    private static readonly JsString s_rangeError = new("RangeError");
    private static readonly JsString s_message = new("message");

    [DoesNotReturn]
    public static void TypeError(Engine engine, string message) =>
        throw new JavaScriptException(engine.Intrinsics.TypeError, message);

    [DoesNotReturn]
    public static void RangeError(Engine engine, string message) =>
        throw new JavaScriptException(CreateRangeError(engine, message));

    [DoesNotReturn]
    public static void CycleDetected(Engine engine) => TypeError(engine, JsonConstants.Cycle);

    [DoesNotReturn]
    public static void BigIntNotSerializable(Engine engine) => TypeError(engine, JsonConstants.BigInt);

    [DoesNotReturn]
    public static void StackOverflow(Engine engine) => RangeError(engine, JsonConstants.StackOverflow);

    [DoesNotReturn]
    public static void InvalidStringLength(Engine engine) => RangeError(engine, JsonConstants.InvalidStringLength);

    [DoesNotReturn]
    public static void ConcurrentUse() => throw new InvalidOperationException(
        "Another thread is serializing with this engine. A Jint Engine and its JsonSerializers serve one thread at a "
        + "time: give each thread its own engine, or let one call finish before the next starts.");

    // Jint's public Intrinsics has no RangeError. The global binding is the intrinsic unless a script replaced it;
    // then the engine's own RangeError is obtained from an operation the spec defines to throw one.
    private static ObjectInstance CreateRangeError(Engine engine, string message)
    {
        if (engine.Global.GetOwnProperty(s_rangeError).Value is ErrorConstructor rangeError)
        {
            return rangeError.Construct(message);
        }

        try
        {
            engine.Construct(engine.Intrinsics.Array, [JsNumber.Create(-1)]);
        }
        catch (JavaScriptException e) when (e.Error is ObjectInstance error)
        {
            error.DefineOwnProperty(
                s_message, new PropertyDescriptor(new JsString(message), writable: true, enumerable: false, configurable: true));
            return error;
        }

        return engine.Intrinsics.Error.Construct("RangeError: " + message);
    }
}
