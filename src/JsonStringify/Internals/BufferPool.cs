using System.Text;
using Microsoft.Extensions.ObjectPool;

namespace JsonStringify.Internals;

/// <summary>The process-wide pools: output builders sized for JSON documents, and per-call walkers.</summary>
internal static class BufferPool
{
    // A new builder starts at 16K chars (32 KB), so small documents never regrow it.
    public const int InitialBuilderCapacity = 16 * 1024;

    // Up to twice the processor count of builders of at most 1M chars (2 MB) are kept for ordinary documents...
    public const int MaxRetainedBuilderCapacity = 1024 * 1024;

    // ...and one more of at most 32M chars (64 MB) for large ones (canada.json indented is 5.2M chars, a 1,000 × 1,000
    // table 23M). Anything larger goes to the GC, so that one huge result does not stay pinned in the pool.
    public const int MaxRetainedLargeBuilderCapacity = 32 * 1024 * 1024;

    // A walker whose cycle stack grew past this many levels is dropped rather than kept.
    public const int MaxRetainedStackCapacity = 1024;

    // As many idle objects as Microsoft.Extensions.ObjectPool keeps by default.
    private static readonly int s_maxRetained = Environment.ProcessorCount * 2;

    public static ObjectPool<StringBuilder> Builders { get; } = CreateBuilderPool();

    /// <summary>A walker for one call: this thread's own if it is free, else one from the shared pool.</summary>
    public static Walker<TOutput> RentWalker<TOutput>()
        where TOutput : struct, IJsonOutput<TOutput> => WalkerPool<TOutput>.Rent();

    /// <summary>Gives a walker back: it is reset, and kept by this thread or by the pool.</summary>
    public static void ReturnWalker<TOutput>(Walker<TOutput> walker)
        where TOutput : struct, IJsonOutput<TOutput> => WalkerPool<TOutput>.Return(walker);

    /// <summary>A pool with the default policy: JSON-sized builders are kept, one large one too, huge ones dropped.</summary>
    public static ObjectPool<StringBuilder> CreateBuilderPool() => new BuilderPool(
        new DefaultObjectPool<StringBuilder>(
            new StringBuilderPooledObjectPolicy
            {
                InitialCapacity = InitialBuilderCapacity,
                MaximumRetainedCapacity = MaxRetainedBuilderCapacity,
            },
            s_maxRetained));

    // Ordinary builders go to Microsoft.Extensions.ObjectPool's default pool; one large builder has a slot of its own,
    // and is handed out first, so that a large document finds it whenever no other call holds it.
    private sealed class BuilderPool(ObjectPool<StringBuilder> ordinary) : ObjectPool<StringBuilder>
    {
        private StringBuilder? _large;

        public override StringBuilder Get() => Interlocked.Exchange(ref _large, null) ?? ordinary.Get();

        public override void Return(StringBuilder obj)
        {
            int capacity = obj.Capacity;
            if (capacity <= MaxRetainedBuilderCapacity)
            {
                ordinary.Return(obj);
            }
            else if (capacity <= MaxRetainedLargeBuilderCapacity && Volatile.Read(ref _large) is null)
            {
                obj.Clear();
                Interlocked.CompareExchange(ref _large, obj, null);
            }
        }
    }

    // The walkers of one output. Each thread keeps the walker it used last, in front of the shared pool, as
    // System.Text.Json keeps a writer per thread: a call then rents and returns without an interlocked exchange. A
    // nested call finds the slot empty and goes to the pool.
    private static class WalkerPool<TOutput>
        where TOutput : struct, IJsonOutput<TOutput>
    {
        private static readonly ObjectPool<Walker<TOutput>> s_shared =
            new DefaultObjectPool<Walker<TOutput>>(new WalkerPolicy<TOutput>(), s_maxRetained);

        [ThreadStatic]
        private static Walker<TOutput>? s_threadWalker;

        public static Walker<TOutput> Rent()
        {
            Walker<TOutput>? walker = s_threadWalker;
            if (walker is null)
            {
                return s_shared.Get();
            }

            s_threadWalker = null;
            return walker;
        }

        public static void Return(Walker<TOutput> walker)
        {
            if (s_threadWalker is null)
            {
                walker.Reset();
                if (IsWorthKeeping(walker))
                {
                    s_threadWalker = walker;
                }

                return;
            }

            s_shared.Return(walker);
        }
    }

    // A walker whose cycle stack grew very deep is left to the GC.
    private static bool IsWorthKeeping<TOutput>(Walker<TOutput> walker)
        where TOutput : struct, IJsonOutput<TOutput> => walker.StackCapacity <= MaxRetainedStackCapacity;

    private sealed class WalkerPolicy<TOutput> : IPooledObjectPolicy<Walker<TOutput>>
        where TOutput : struct, IJsonOutput<TOutput>
    {
        public Walker<TOutput> Create() => new();

        public bool Return(Walker<TOutput> obj)
        {
            obj.Reset();
            return IsWorthKeeping(obj);
        }
    }
}
