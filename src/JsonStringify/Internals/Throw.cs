using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using Jint;
using Jint.Runtime;

namespace JsonStringify.Internals;

/// <summary>
/// Cold paths that raise real JavaScript errors, or the library's own exceptions, kept out of line so that hot callers
/// stay small. Hidden from stack traces: the trace ends at the caller that failed.
/// </summary>
[StackTraceHidden]
internal static class Throw
{
    [DoesNotReturn]
    public static void TypeError(Engine engine, string message) =>
        throw new JavaScriptException(engine.Intrinsics.TypeError, message);

    // Every error is the realm's own: Intrinsics.TypeError, and the intrinsic RangeError, which the reader makes,
    // whatever a script did to the global bindings.
    [DoesNotReturn]
    public static void RangeError(Engine engine, ValueReader reader, string message) =>
        throw new JavaScriptException(reader.CreateRangeError(engine, message));

    [DoesNotReturn]
    public static void CycleDetected(Engine engine, string message) => TypeError(engine, message);

    [DoesNotReturn]
    public static void BigIntNotSerializable(Engine engine) => TypeError(engine, JsonConstants.BigInt);

    [DoesNotReturn]
    public static void StackOverflow(Engine engine, ValueReader reader) => RangeError(engine, reader, JsonConstants.StackOverflow);

    [DoesNotReturn]
    public static void InvalidStringLength(Engine engine, ValueReader reader) => RangeError(engine, reader, JsonConstants.InvalidStringLength);

    [DoesNotReturn]
    public static void ConcurrentUse() => throw new InvalidOperationException(
        "A serialization with this engine is in progress on another thread: another thread's call, or a SerializeAsync "
        + "whose task has not completed (it walks on a thread of its own). A Jint Engine and its JsonSerializers serve one "
        + "thread at a time: give each thread its own engine, or await or let one call finish before the next starts.");

    // A caller's IBufferWriter<byte> that broke its contract: the call stops rather than ask it again and again.
    [DoesNotReturn]
    public static void BufferWriterTooShort(object writer, int length, string method, int sizeHint) => throw new InvalidOperationException(
        $"The IBufferWriter<byte> ({writer.GetType()}) returned a span of {length} bytes from {method}({sizeHint}); "
        + "it must return at least sizeHint bytes, or throw when it cannot.");

    // A hot helper given less room than it writes into: a bug of the caller's, which sizes the room first.
    [DoesNotReturn]
    public static void DestinationTooShort(string paramName) => throw new ArgumentException("The destination is too short.", paramName);

    // A Utf8JsonWriter's options set the layout; a space that would indent is refused rather than ignored.
    [DoesNotReturn]
    public static void SpaceWithUtf8JsonWriter() => throw new ArgumentException(
        "A Utf8JsonWriter lays out its document from its own options (Indented, IndentCharacter, IndentSize, NewLine): " +
        "space must be undefined, null, or indent nothing (0 or an empty string).",
        "space");
}
