using System.Diagnostics;
using System.Runtime.CompilerServices;
using Jint;

namespace JsonStringify.Internals;

/// <summary>
/// Lets one thread at a time into the serializers of one engine, the one that UseJsonStringify installs included: the
/// engine is not thread-safe, and two threads in one walk corrupt its call stack, which can hang. The thread inside may
/// come in again (a toJSON or replacer that calls JSON.stringify, a host function that serializes); any other thread
/// gets an <see cref="InvalidOperationException"/> at once. Holding the gate is also what makes a serializer's own
/// state (its layout cache, its last property list) safe to touch without interlocked operations.
/// </summary>
internal sealed class EngineGate
{
    private static readonly ConditionalWeakTable<Engine, EngineGate> s_gates = new();

    // The managed id of the thread inside, or 0. Taken with one compare-and-swap by the outermost call, and given back
    // by a plain volatile write; a nested call on the same thread only reads it.
    private int _ownerThreadId;

    /// <summary>The gate of <paramref name="engine"/>, shared by all its serializers.</summary>
    public static EngineGate For(Engine engine) => s_gates.GetValue(engine, static _ => new EngineGate());

    /// <summary>Whether the current thread is inside a call on this engine.</summary>
    public bool IsHeldByCurrentThread => Volatile.Read(ref _ownerThreadId) == Environment.CurrentManagedThreadId;

    /// <summary>
    /// Lets the current thread in. True for the outermost call, which must call <see cref="Exit"/> when it ends; false
    /// for a call nested in one that this thread is already making.
    /// </summary>
    /// <exception cref="InvalidOperationException">Another thread is inside.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Enter()
    {
        int thread = Environment.CurrentManagedThreadId;
        if (_ownerThreadId == thread)
        {
            return false;
        }

        if (Interlocked.CompareExchange(ref _ownerThreadId, thread, 0) != 0)
        {
            Throw.ConcurrentUse();
        }

        return true;
    }

    /// <summary>Lets the outermost call out.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Exit()
    {
        Debug.Assert(_ownerThreadId == Environment.CurrentManagedThreadId, "only the thread inside leaves");
        Volatile.Write(ref _ownerThreadId, 0);
    }
}
