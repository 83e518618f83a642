using System.Diagnostics.CodeAnalysis;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>Cold paths that raise real JavaScript errors, kept out of line so that hot callers stay small.</summary>
internal static class Throw
{
    private static readonly JsString s_message = new("message");

    [DoesNotReturn]
    public static void TypeError(Engine engine, string message) =>
        throw new JavaScriptException(engine.Intrinsics.TypeError, message);

    // Every error is the realm's own: Intrinsics.TypeError, and the intrinsic RangeError, whatever a script did to
    // the global bindings. internals says whether JintInternals may be used (the serializer's fast path is on).
    [DoesNotReturn]
    public static void RangeError(Engine engine, string message, bool internals) =>
        throw new JavaScriptException(CreateRangeError(engine, message, internals));

    [DoesNotReturn]
    public static void CycleDetected(Engine engine, string message) => TypeError(engine, message);

    [DoesNotReturn]
    public static void BigIntNotSerializable(Engine engine) => TypeError(engine, JsonConstants.BigInt);

    [DoesNotReturn]
    public static void StackOverflow(Engine engine, bool internals) => RangeError(engine, JsonConstants.StackOverflow, internals);

    [DoesNotReturn]
    public static void InvalidStringLength(Engine engine, bool internals) => RangeError(engine, JsonConstants.InvalidStringLength, internals);

    [DoesNotReturn]
    public static void ConcurrentUse() => throw new InvalidOperationException(
        "Another thread is serializing with this engine. A Jint Engine and its JsonSerializers serve one thread at a "
        + "time: give each thread its own engine, or let one call finish before the next starts.");

    // A caller's IBufferWriter<byte> that broke its contract: the call stops rather than ask it again and again.
    [DoesNotReturn]
    public static void BufferWriterTooShort(object writer, int length, int sizeHint) => throw new InvalidOperationException(
        $"The IBufferWriter<byte> ({writer.GetType()}) returned a span of {length} bytes from GetSpan({sizeHint}); "
        + "it must return at least sizeHint bytes, or throw when it cannot.");

    // Jint's public Intrinsics has no RangeError. Without JintInternals, the realm's own RangeError comes from an
    // operation the spec defines to throw one, on the intrinsic Array constructor (whose behaviour no script can
    // change), and gets the message.
    private static ObjectInstance CreateRangeError(Engine engine, string message, bool internals)
    {
        if (internals && JintInternals.RangeErrorAccessorWorks)
        {
            return JintInternals.GetRangeError(engine).Construct(message);
        }

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

    // A Utf8JsonWriter's options set the layout; a space that would indent is refused rather than ignored.
    [DoesNotReturn]
    public static void SpaceWithUtf8JsonWriter() => throw new ArgumentException(
        "A Utf8JsonWriter lays out its document from its own options (Indented, IndentCharacter, IndentSize, NewLine): " +
        "space must be undefined, null, or indent nothing (0 or an empty string).",
        "space");
}
