using System.Diagnostics;
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
    /// numbers, a row with the nodes of its property table. A window twice as far back costs more in fetches than it
    /// saves.
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
    /// The <paramref name="lines"/> cache lines after the one where <paramref name="o"/> starts: the memory allocated
    /// after it. <c>JSON.parse</c> makes a container before its contents and each part before the next, so what follows
    /// a container it made is its own contents, in the order the walk reads them: a property table's list nodes or
    /// slots with each property's descriptor, name and value, which the table reader could otherwise only reach one
    /// after another (each node's address is known only once the node before it has been read); a large row's
    /// properties and nested containers. Fetched at once, they arrive together.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void After(object o, int lines)
    {
        Debug.Assert(lines > 0, "at least one line");
        Lines(AddressOf(o) + 64, lines);
    }

    /// <summary>
    /// The cache lines after an object fetched a few at a time, <see cref="LinesPerStep"/> at each of the walk's next
    /// steps. Asked for all at once, they would take every buffer the processor keeps for lines on their way, and the
    /// walk would stall at the fetch itself until the first of them arrived (on GeoJSON, 32 lines asked for at once
    /// held the walk there for about 8% of its samples).
    /// </summary>
    internal struct SpreadFetch
    {
        /// <summary>The lines fetched at each step.</summary>
        public const int LinesPerStep = 8;

        // The next line to fetch: an address the collector does not track, only a hint like every fetch, so that one
        // a collection has made stale costs wasted fetches and nothing more.
        private nint _next;

        // The lines still to fetch: a multiple of LinesPerStep, and zero when no fetch is under way.
        private int _linesLeft;

        /// <summary>
        /// Starts fetching the <paramref name="lines"/> cache lines after the one where <paramref name="o"/> starts
        /// (the memory allocated after it, as <see cref="After"/>): the first step's lines now, the rest at the next
        /// calls of <see cref="Step"/>. A fetch still under way is dropped: the walk has moved past its row.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public unsafe void Start(object o, int lines)
        {
            Debug.Assert(lines > 0 && lines % LinesPerStep == 0, "whole steps of lines");
            _next = (nint)(AddressOf(o) + 64);
            _linesLeft = lines;
            FetchStep();
        }

        /// <summary>The next lines of the fetch under way, if there is one.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Step()
        {
            if (_linesLeft != 0)
            {
                FetchStep();
            }
        }

        /// <summary>Drops the fetch under way, if any.</summary>
        public void Stop() => _linesLeft = 0;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private unsafe void FetchStep()
        {
            Debug.Assert(_linesLeft >= LinesPerStep, "a step of lines is left");
            Lines((byte*)_next, LinesPerStep);
            _next += LinesPerStep * 64;
            _linesLeft -= LinesPerStep;
        }
    }

    /// <summary>
    /// How far <paramref name="later"/> starts after <paramref name="o"/> in memory, in bytes (negative when before
    /// it): for two elements of an array that <c>JSON.parse</c> made, the size of the elements from the first up to
    /// the second, with all their parts. Only a hint, like the fetches: a collection may move either object at any
    /// time.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe long Distance(object o, object later) => AddressOf(later) - AddressOf(o);

    /// <summary>
    /// The cache line where <paramref name="o"/> starts: all of a number, a boolean or a string's wrapper.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static unsafe void Line(object o)
    {
        if (Sse.IsSupported)
        {
            Sse.Prefetch0(AddressOf(o));
        }
    }

    // The count cache lines from the one at on.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe void Lines(byte* at, int count)
    {
        if (Sse.IsSupported)
        {
            for (int line = 0; line < count; line++)
            {
                Sse.Prefetch0(at + (line * 64));
            }
        }
    }

    // The address of the object's first field: a pointer the collector does not track, used at once. Taking a field's
    // address makes the JIT check the object for null, and it checks by loading from it: a demand load of the very
    // line the fetch is for, which holds the walk up until it arrives (a fifth of the samples of a call on the trace).
    // The test tells the JIT that the object is not null, so it loads nothing; reading the reference as an integer
    // instead (Unsafe.As<object, nint>) keeps the object out of a register and slows the walk's loops.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe byte* AddressOf(object o)
    {
        Debug.Assert(o is not null, "only objects are fetched");
        RawObject raw = Unsafe.As<RawObject>(o);
        return raw is null ? null : (byte*)Unsafe.AsPointer(ref raw.FirstField);
    }

    // Any object seen as this class: a reference to its first field is the address of its data. Never instantiated;
    // the field is never read.
    private sealed class RawObject
    {
#pragma warning disable CS0649 // only its address is taken
        public byte FirstField;
#pragma warning restore CS0649
    }
}
