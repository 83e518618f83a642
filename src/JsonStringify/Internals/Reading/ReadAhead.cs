using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace JsonStringify.Internals;

/// <summary>
/// Asks the processor to bring an object the walk reads soon into its cache, while the walk goes on with what it has.
/// Only a hint: it reads nothing, changes nothing and cannot fault, so an address that a collection has made stale
/// costs a wasted fetch and nothing more. Nothing is asked where the processor has no prefetch instruction that .NET
/// exposes (outside x86).
/// </summary>
internal static class ReadAhead
{
    /// <summary>
    /// The twelve cache lines from 512 bytes before <paramref name="o"/> to 256 bytes after its start. An object's
    /// parts (its property storage, its elements, their values) are mostly allocated next to it, before it or after it,
    /// so this window takes in most of what reading a small object touches: a pair of coordinates with both its
    /// numbers, a row with the nodes of its property table. A window twice as far back costs more in fetches than it saves.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void Neighbourhood(object o)
    {
        if (Sse.IsSupported)
        {
            byte* at = AddressOf(o);
            Sse.Prefetch0(at - 512);
            Sse.Prefetch0(at - 448);
            Sse.Prefetch0(at - 384);
            Sse.Prefetch0(at - 320);
            Sse.Prefetch0(at - 256);
            Sse.Prefetch0(at - 192);
            Sse.Prefetch0(at - 128);
            Sse.Prefetch0(at - 64);
            Sse.Prefetch0(at);
            Sse.Prefetch0(at + 64);
            Sse.Prefetch0(at + 128);
            Sse.Prefetch0(at + 192);
        }
    }

    /// <summary>
    /// The sixteen cache lines after the one where <paramref name="o"/> starts: the kilobyte allocated after it. A
    /// property table that <c>JSON.parse</c> made is followed by its parts in the order the parse made them (its
    /// list's nodes or its slots, each property's descriptor, name and value), which the table reader reads one after
    /// another, each node's address known only once the node before it has been read; fetched at once, they arrive
    /// together.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void After(object o)
    {
        if (Sse.IsSupported)
        {
            byte* at = AddressOf(o);
            for (int line = 1; line <= 16; line++)
            {
                Sse.Prefetch0(at + (line * 64));
            }
        }
    }

    /// <summary>The cache line where <paramref name="o"/> starts: all of a number, a boolean or a string's wrapper.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void Line(object o)
    {
        if (Sse.IsSupported)
        {
            Sse.Prefetch0(AddressOf(o));
        }
    }

    // The address of the object's first field: a pointer the collector does not track, used at once.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe byte* AddressOf(object o) => (byte*)Unsafe.AsPointer(ref Unsafe.As<RawObject>(o).FirstField);

    // Any object seen as this class: a reference to its first field is the address of its data. Never instantiated;
    // the field is never read.
    private sealed class RawObject
    {
#pragma warning disable CS0649 // only its address is taken
        public byte FirstField;
#pragma warning restore CS0649
    }
}
